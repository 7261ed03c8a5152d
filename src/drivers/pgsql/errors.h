/*
 * errors.h: a failed libpq call, or wire path exchange, as the connection's error
 * (errors.c).
 */
#ifndef SB_PGSQL_ERRORS_H
#define SB_PGSQL_ERRORS_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"
#include "drivers/driver_error.h"
#include "drivers/pgsql/state.h"

/* How a failed libpq call is reported when it is fatal, as 1.0.20 does: "<call>() failed:
   <status> <message>", then "failed query was: <query>" for text queries. */
typedef struct {
  const char *call;            /* "PQexec", "PQexecPrepared", "PQprepare" */
  const char *query;           /* NULL: no "failed query was" line */
  size_t query_len;
  bool full_message;           /* "<call>() failed: <libpq's whole message>" (PQprepare) */
} pgsqldrv_failure;

/* An error as the server (or libpq) reported it. */
typedef struct {
  const char *state;           /* SQLSTATE; NULL when there is none */
  const char *message;         /* the primary message, one line */
  const char *full;            /* libpq's whole message, for full_message lines */
  int status;                  /* ExecStatusType (PGRES_FATAL_ERROR is 7), as 1.0.20 logs it */
  bool lost;                   /* the connection is gone */
} pgsqldrv_error;

/*
 * Turn an error into the connection's error: classify it, log 1.0.20's lines when it is
 * fatal, and return the class for the caller to hand back to db.c (which acts on it: a
 * ROLLBACK through pgsqldrv_rollback, a reconnect, a retry).
 */
driver_error_class pgsqldrv_fail_with(db_conn *con, const pgsqldrv_error *e,
                                      const pgsqldrv_failure *how);
/* The same for a failed libpq call: res may be NULL when libpq returned none; not freed. */
driver_error_class pgsqldrv_fail(db_conn *con, const PGresult *res, const pgsqldrv_failure *how);

#endif
