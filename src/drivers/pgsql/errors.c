/*
 * errors.c: a failed libpq call (or wire path exchange) as the connection's error: its class
 * by the rules of classify.c, and 1.0.20's lines for an error that stops the run. An error
 * that aborted the transaction restarts it: PostgreSQL refuses every statement of an aborted
 * transaction until the ROLLBACK the database layer then has query.c send (1.0.20 sent one
 * after every ignored error).
 */
#include <stdio.h>
#include <string.h>

#include <libpq-fe.h>

#include "drivers/pgsql/classify.h"
#include "drivers/pgsql/errors.h"
#include "drivers/pgsql/settings.h"
#include "drivers/pgsql/state.h"
#include "logger.h"

/* The last statement left the transaction failed (it went through the wire path, which
   tracks the server's transaction status itself, or through libpq). */
static bool transaction_failed(const pgsqldrv_conn *c)
{
  if (c->wire.used_last)
    return c->wire.transaction == 'E';
  return c->pg != NULL && PQtransactionStatus(c->pg) == PQTRANS_INERROR;
}

/* The first line of a message. */
static void first_line(const char *text, char *buf, size_t len)
{
  if (text == NULL)
    text = "";
  snprintf(buf, len, "%.*s", (int) strcspn(text, "\n"), text);
}

driver_error_class pgsqldrv_fail(db_conn *con, const PGresult *res, const pgsqldrv_failure *how)
{
  PGconn *pg = pgsqldrv_handle(con);
  pgsqldrv_error e = {
    .state = res != NULL ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL,
    .message = res != NULL ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL,
    .full = res != NULL ? PQresultErrorMessage(res) : NULL,
    .status = res != NULL ? (int) PQresultStatus(res) : (int) PGRES_FATAL_ERROR,
    .lost = pg == NULL || PQstatus(pg) == CONNECTION_BAD,
  };
  /* libpq's own errors (a lost connection) have no primary field: its message then */
  if (e.message == NULL)
    e.message = e.full != NULL && *e.full != '\0' ? e.full : pg != NULL ? PQerrorMessage(pg) : "";
  if (e.full == NULL || *e.full == '\0')
    e.full = pg != NULL ? PQerrorMessage(pg) : "";
  return pgsqldrv_fail_with(con, &e, how);
}

driver_error_class pgsqldrv_fail_with(db_conn *con, const pgsqldrv_error *e,
                                      const pgsqldrv_failure *how)
{
  pgsqldrv_conn *c = con->ptr;
  char message[512], state[6];

  /* copied now: a reconnect frees what the texts point into */
  first_line(e->message, message, sizeof(message));
  snprintf(state, sizeof(state), "%s",
           e->state != NULL ? e->state : e->lost ? PGSQL_STATE_CONNECTION_FAILURE : "");
  bool aborted = !e->lost && c != NULL && c->pg != NULL && transaction_failed(c);

  driver_error_class cls = pgsqldrv_classify(&pgsqldrv_config, state, e->lost, aborted);
  if (cls == DRIVER_ERROR_FATAL) {
    if (how->full_message)
      log_text(LOG_FATAL, "%s() failed: %s", how->call, e->full != NULL ? e->full : message);
    else
      log_text(LOG_FATAL, "%s() failed: %d %s", how->call, e->status, message);
    if (how->query != NULL)
      log_text(LOG_FATAL, "failed query was: %.*s", (int) how->query_len, how->query);
  }
  db_set_error(con, cls, 0, state, message);
  return cls;
}
