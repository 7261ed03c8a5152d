/*
 * wire.h: prepared statements executed with the binary protocol directly on the socket,
 * bypassing the client library's per-query work (wire.c). The rows it leaves are read by
 * binary_row.c.
 */
#ifndef SB_MYSQL_WIRE_H
#define SB_MYSQL_WIRE_H

#include <stdbool.h>

#include "db.h"
#include "drivers/driver_error.h"
#include "drivers/mysql/state.h"

/* After a connect: use the wire path on this connection if its socket allows (plain, no
   compression, the client library's socket I/O attached). */
void mysqldrv_wire_attach(mysqldrv_conn *c);
/* Before the handle closes: forget the socket, free the buffers. */
void mysqldrv_wire_detach(mysqldrv_conn *c);
/* The statement can run on the wire path now. */
bool mysqldrv_wire_ready(mysqldrv_conn *c, mysqldrv_stmt *s);
/* 0: executed, the outcome in *rc; 1: not possible here (the caller uses the library). */
int mysqldrv_wire_execute(db_stmt *stmt, db_result *rs, driver_error_class *rc);
void mysqldrv_wire_free_result(mysqldrv_conn *c);

#endif
