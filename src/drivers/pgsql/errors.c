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

/* The error's primary message: the server's, or the first line of libpq's own. */
static void error_message(const PGresult *res, PGconn *pg, char *buf, size_t len)
{
  const char *text = NULL;
  if (res != NULL)
    text = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
  if (text == NULL && res != NULL)
    text = PQresultErrorMessage(res);
  if ((text == NULL || *text == '\0') && pg != NULL)
    text = PQerrorMessage(pg);
  if (text == NULL)
    text = "";
  snprintf(buf, len, "%.*s", (int) strcspn(text, "\n"), text);
}

db_error_t pgsqldrv_fail(db_conn *con, const PGresult *res, const pgsqldrv_failure *how)
{
  PGconn *pg = pgsqldrv_handle(con);
  bool lost = pg == NULL || PQstatus(pg) == CONNECTION_BAD;
  char message[512], state[6];
  const char *server_state = res != NULL ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
  int status = res != NULL ? (int) PQresultStatus(res) : (int) PGRES_FATAL_ERROR;

  /* copied now: a reconnect frees the handle the texts live in */
  error_message(res, pg, message, sizeof(message));
  if (server_state != NULL)
    snprintf(state, sizeof(state), "%s", server_state);
  else
    snprintf(state, sizeof(state), "%s", lost ? PGSQL_STATE_CONNECTION_FAILURE : "");

  switch (pgsqldrv_classify(&pgsqldrv_config, state, lost)) {
    case PGSQL_ERROR_CLASS_IGNORABLE:
      log_text(LOG_DEBUG, "Ignoring error %s %s", state, message);
      db_set_error(con, DB_ERROR_IGNORABLE, 0, state, message);
      if (PQtransactionStatus(pg) == PQTRANS_INERROR)
        PQclear(PQexec(pg, "ROLLBACK"));
      return DB_ERROR_IGNORABLE;

    case PGSQL_ERROR_CLASS_RECONNECT:
      log_text(LOG_DEBUG, "Ignoring error %s %s, reconnecting", state, message);
      db_set_error(con, DB_ERROR_IGNORABLE, 0, state, message);
      if (reconnect_until_done(con) != 0) {
        con->error = DB_ERROR_FATAL;
        return DB_ERROR_FATAL;
      }
      db_count_reconnect(con);
      log_text(LOG_DEBUG, "Reconnected");
      return DB_ERROR_IGNORABLE;

    case PGSQL_ERROR_CLASS_FATAL:
    default:
      if (how->full_message)
        log_text(LOG_FATAL, "%s() failed: %s", how->call,
                 res != NULL ? PQresultErrorMessage(res) : pg != NULL ? PQerrorMessage(pg) : "");
      else
        log_text(LOG_FATAL, "%s() failed: %d %s", how->call, status, message);
      if (how->query != NULL)
        log_text(LOG_FATAL, "failed query was: %.*s", (int) how->query_len, how->query);
      db_set_error(con, DB_ERROR_FATAL, 0, state, message);
      return DB_ERROR_FATAL;
  }
}
