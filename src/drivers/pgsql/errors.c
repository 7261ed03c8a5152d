/*
 * errors.c: acting on a failed libpq call. An ignorable error (classify.c) restarts the event,
 * after rolling back the transaction it aborted (PostgreSQL refuses every statement of an
 * aborted transaction until then; 1.0.20 sent a ROLLBACK after every ignored error); a lost
 * connection that is ignorable is reconnected (and counted as a reconnect) first; any other
 * error is fatal and logged with 1.0.20's lines.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "logger.h"
#include "pgsql_driver.h"
#include "runner.h"

/* Reconnect until it works, backing off from 1 ms to 100 ms between attempts; give up only
   when the run is ending. */
static int reconnect_until_done(db_conn *con)
{
  useconds_t pause = 1000;

  for (;;) {
    if (pgsqldrv_reconnect(con) == 0)
      return 0;
    if (runner_failed() || runner_stopping())
      return -1;
    usleep(pause);
    if (pause < 100000)
      pause *= 2;
  }
}

/* The first line of a message. */
static void first_line(const char *text, char *buf, size_t len)
{
  if (text == NULL)
    text = "";
  snprintf(buf, len, "%.*s", (int) strcspn(text, "\n"), text);
}

db_error_t pgsqldrv_fail(db_conn *con, const PGresult *res, const pgsqldrv_failure *how)
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

db_error_t pgsqldrv_fail_with(db_conn *con, const pgsqldrv_error *e, const pgsqldrv_failure *how)
{
  pgsqldrv_conn *c = con->ptr;
  char message[512], state[6];

  /* copied now: a reconnect frees what the texts point into */
  first_line(e->message, message, sizeof(message));
  snprintf(state, sizeof(state), "%s",
           e->state != NULL ? e->state : e->lost ? PGSQL_STATE_CONNECTION_FAILURE : "");

  switch (pgsqldrv_classify(&pgsqldrv_config, state, e->lost)) {
    case DRIVER_ERROR_IGNORE:
    case DRIVER_ERROR_RESTART_TRANSACTION:
      log_text(LOG_DEBUG, "Ignoring error %s %s", state, message);
      db_set_error(con, DB_ERROR_IGNORABLE, 0, state, message);
      if (!e->lost && c != NULL && c->pg != NULL && pgsqldrv_transaction_failed(c)) {
        pgsqldrv_wire_release(c);
        PQclear(PQexec(c->pg, "ROLLBACK"));
        c->wire.used_last = false;
      }
      return DB_ERROR_IGNORABLE;

    case DRIVER_ERROR_RECONNECT:
      log_text(LOG_DEBUG, "Ignoring error %s %s, reconnecting", state, message);
      db_set_error(con, DB_ERROR_IGNORABLE, 0, state, message);
      /* Given up because the run is ending: the error stays ignorable, and the event ends
         uncounted instead of being run again (sysbench.lua's thread_run). */
      if (reconnect_until_done(con) != 0)
        return DB_ERROR_IGNORABLE;
      db_count_reconnect(con);
      log_text(LOG_DEBUG, "Reconnected");
      return DB_ERROR_IGNORABLE;

    case DRIVER_ERROR_FATAL:
    default:
      if (how->full_message)
        log_text(LOG_FATAL, "%s() failed: %s", how->call, e->full != NULL ? e->full : message);
      else
        log_text(LOG_FATAL, "%s() failed: %d %s", how->call, e->status, message);
      if (how->query != NULL)
        log_text(LOG_FATAL, "failed query was: %.*s", (int) how->query_len, how->query);
      db_set_error(con, DB_ERROR_FATAL, 0, state, message);
      return DB_ERROR_FATAL;
  }
}
