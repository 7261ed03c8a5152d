/*
 * connection.h: opening, closing and re-opening connections with libpq (connection.c).
 */
#ifndef SB_PGSQL_CONNECTION_H
#define SB_PGSQL_CONNECTION_H

#include "db.h"

int pgsqldrv_connect(db_conn *con);
int pgsqldrv_disconnect(db_conn *con);
int pgsqldrv_reconnect(db_conn *con);

#endif
