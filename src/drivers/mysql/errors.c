/*
 * errors.c: acting on an error of the client library: an ignorable one restarts the event, a
 * lost connection that is ignorable is reconnected (and counted as a reconnect) first, any
 * other stops the run. The rules that decide which is which are in classify.c.
 */
#include <errmsg.h>
#include <unistd.h>

#include "logger.h"
#include "mysql_driver.h"
#include "runner.h"

/* Reconnect until it works, backing off from 1 ms to 100 ms between attempts; give up only
   when the run is ending. */
static int reconnect_until_done(db_conn *con)
{
  useconds_t pause = 1000;

  for (unsigned attempt = 0;; attempt++) {
    if (mysqldrv_active_hooks.reconnect_endpoint != NULL) {
      mysqldrv_conn *c = con->ptr;
      mysqldrv_active_hooks.reconnect_endpoint(&c->endpoint, attempt);
    }
    if (mysqldrv_reconnect(con) == 0)
      return 0;
    if (runner_failed() || runner_stopping())
      return -1;
    usleep(pause);
    if (pause < 100000)
      pause *= 2;
  }
}

db_error_t mysqldrv_fail_disconnected(db_conn *con)
{
  return mysqldrv_fail(con, CR_SERVER_GONE_ERROR, "HY000", "Server has gone away");
}

driver_error_class mysqldrv_failure_class(db_conn *con, unsigned sql_errno,
                                          const char *sql_state)
{
  driver_error_class cls = mysqldrv_classify_error(sql_errno, sql_state);
  if (mysqldrv_active_hooks.failed != NULL)
    mysqldrv_active_hooks.failed(con, sql_errno, cls);
  return cls;
}

db_error_t mysqldrv_fail(db_conn *con, unsigned sql_errno, const char *sql_state,
                         const char *message)
{
  return mysqldrv_fail_as(con, mysqldrv_failure_class(con, sql_errno, sql_state), sql_errno,
                          sql_state, message);
}

db_error_t mysqldrv_fail_as(db_conn *con, driver_error_class cls, unsigned sql_errno,
                            const char *sql_state, const char *message)
{
  switch (cls) {
    case DRIVER_ERROR_IGNORE:
    case DRIVER_ERROR_RESTART_TRANSACTION:
      log_text(LOG_DEBUG, "Ignoring error %u %s", sql_errno, message);
      db_set_error(con, DB_ERROR_IGNORABLE, (int) sql_errno, sql_state, message);
      return DB_ERROR_IGNORABLE;

    case DRIVER_ERROR_RECONNECT:
      /* The script sees the original error (oltp_common's before_restart_event looks for
         2013 and friends); `message` may live in the handle the reconnect frees, so it is
         copied into the connection first. */
      log_text(LOG_DEBUG, "Ignoring error %u %s, reconnecting", sql_errno, message);
      db_set_error(con, DB_ERROR_IGNORABLE, (int) sql_errno, sql_state, message);
      /* Given up because the run is ending: the error stays ignorable, and the event ends
         uncounted instead of being run again (sysbench.lua's thread_run). */
      if (reconnect_until_done(con) != 0)
        return DB_ERROR_IGNORABLE;
      db_count_reconnect(con);
      log_text(LOG_DEBUG, "Reconnected");
      return DB_ERROR_IGNORABLE;

    case DRIVER_ERROR_FATAL:
    default: {
      /* 1.0.20's line, naming the client call and the statement (the script's error that
         follows names the script's line). */
      mysqldrv_conn *c = con->ptr;
      if (c != NULL && c->call != NULL)
        log_text(LOG_FATAL, "%s returned error %u (%s) for query '%.*s'", c->call, sql_errno,
                 message, (int) c->call_query_len, c->call_query);
      db_set_error(con, DB_ERROR_FATAL, (int) sql_errno, sql_state, message);
      return DB_ERROR_FATAL;
    }
  }
}
