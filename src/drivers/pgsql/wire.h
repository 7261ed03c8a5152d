/*
 * wire.h: prepared statements executed with the protocol directly on the socket, in
 * blocking mode: one send() and, in the common case, one recv() per statement (wire.c).
 */
#ifndef SB_PGSQL_WIRE_H
#define SB_PGSQL_WIRE_H

#include "db.h"
#include "drivers/driver_error.h"
#include "drivers/pgsql/state.h"

/* After a (re)connect: use the wire path on this connection if it is plain TCP or a Unix
   socket (no TLS, no GSSAPI encryption) and SYSBENCH_PGSQL_LIBRARY_IO is not set. */
void pgsqldrv_wire_attach(pgsqldrv_conn *c);
/* Before the handle closes: forget the socket, free the buffers. */
void pgsqldrv_wire_detach(pgsqldrv_conn *c);
/* Before any libpq call that talks to the server: hand the socket back in libpq's
   (non-blocking) mode. */
void pgsqldrv_wire_release(pgsqldrv_conn *c);
/* 0: executed, the outcome in *rc; 1: not possible here (the caller uses libpq). */
int pgsqldrv_wire_execute(db_stmt *stmt, db_result *rs, driver_error_class *rc);
int pgsqldrv_wire_fetch_row(pgsqldrv_conn *c, db_result *rs, db_row_t *row);
void pgsqldrv_wire_free_result(pgsqldrv_conn *c);

#endif
