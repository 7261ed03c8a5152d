/*
 * connection.h: opening, closing and re-opening connections (connection.c).
 */
#ifndef SB_MYSQL_CONNECTION_H
#define SB_MYSQL_CONNECTION_H

#include <stddef.h>

#include "db.h"

int mysqldrv_connect(db_conn *con);
int mysqldrv_disconnect(db_conn *con);
int mysqldrv_reconnect(db_conn *con);

/* SQL run in order after every (re)connect (e.g. "SET SESSION tidb_txn_mode='optimistic'").
   The strings are copied. Call from a layered driver's init. */
int mysqldrv_set_session_statements(const char *const *statements, size_t count);

#endif
