/*
 * errors.h: an error of the client library, or of the wire path, as the connection's error
 * (errors.c).
 */
#ifndef SB_MYSQL_ERRORS_H
#define SB_MYSQL_ERRORS_H

#include "db.h"
#include "drivers/driver_error.h"

/*
 * Turn an error into the connection's error: classify it, copy the texts into the
 * connection, log 1.0.20's line when it is fatal, and return the class for the caller to
 * hand back to db.c (which acts on it: a retry, a reconnect).
 */
driver_error_class mysqldrv_fail(db_conn *con, unsigned sql_errno, const char *sql_state,
                                 const char *message);
/* The two halves of mysqldrv_fail, for a caller that reports a fatal error its own way:
   the class of a failure (the layered driver hears of it), then acting on it. */
driver_error_class mysqldrv_failure_class(db_conn *con, unsigned sql_errno,
                                          const char *sql_state);
driver_error_class mysqldrv_fail_as(db_conn *con, driver_error_class cls, unsigned sql_errno,
                                    const char *sql_state, const char *message);
/* The connection has no handle (a reconnect failed): as a lost server (2006). */
driver_error_class mysqldrv_fail_disconnected(db_conn *con);

#endif
