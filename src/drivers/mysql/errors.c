/*
 * errors.c: what a server or client-library error means for the run. --mysql-ignore-errors
 * lists the errors that restart the event instead of stopping the run ("all" for every
 * error); a lost connection among them is reconnected (and counted as a reconnect) before
 * the event restarts. A layered driver may reclassify through its hook.
 */
#include <errmsg.h>
#include <unistd.h>

#include "logger.h"
#include "mysql_driver.h"
#include "runner.h"

mysqldrv_hooks mysqldrv_active_hooks;

void mysqldrv_set_hooks(const mysqldrv_hooks *hooks)
{
  mysqldrv_active_hooks = *hooks;
}

bool mysqldrv_is_connection_loss(unsigned sql_errno)
{
  switch (sql_errno) {
    case CR_SERVER_GONE_ERROR:      /* 2006 */
    case CR_SERVER_LOST:            /* 2013 */
    case CR_TCP_CONNECTION:         /* 2011 */
    case 2055:                      /* CR_SERVER_LOST_EXTENDED (libmysqlclient) */
      return true;
    default:
      return false;
  }
}

static bool listed(unsigned sql_errno)
{
  const mysqldrv_settings *c = &mysqldrv_config;
  if (c->ignore_all)
    return true;
  for (size_t i = 0; i < c->ignored_count; i++)
    if (c->ignored_errors[i] == sql_errno)
      return true;
  return false;
}

mysqldrv_error_class mysqldrv_classify_error(unsigned sql_errno, const char *sql_state)
{
  mysqldrv_error_class chosen = MYSQL_ERROR_CLASS_FATAL;

  if (listed(sql_errno))
    chosen = mysqldrv_is_connection_loss(sql_errno) ? MYSQL_ERROR_CLASS_RECONNECT
                                                    : MYSQL_ERROR_CLASS_IGNORABLE;
  if (mysqldrv_active_hooks.classify != NULL)
    chosen = mysqldrv_active_hooks.classify(sql_errno, sql_state, chosen);
  return chosen;
}

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

db_error_t mysqldrv_fail(db_conn *con, unsigned sql_errno, const char *sql_state,
                         const char *message)
{
  switch (mysqldrv_classify_error(sql_errno, sql_state)) {
    case MYSQL_ERROR_CLASS_IGNORABLE:
      log_text(LOG_DEBUG, "Ignoring error %u %s", sql_errno, message);
      db_set_error(con, DB_ERROR_IGNORABLE, (int) sql_errno, sql_state, message);
      return DB_ERROR_IGNORABLE;

    case MYSQL_ERROR_CLASS_RECONNECT:
      /* The script sees the original error (oltp_common's before_restart_event looks for
         2013 and friends); `message` may live in the handle the reconnect frees, so it is
         copied into the connection first. */
      log_text(LOG_DEBUG, "Ignoring error %u %s, reconnecting", sql_errno, message);
      db_set_error(con, DB_ERROR_IGNORABLE, (int) sql_errno, sql_state, message);
      if (reconnect_until_done(con) != 0) {
        con->error = DB_ERROR_FATAL;
        return DB_ERROR_FATAL;
      }
      db_count_reconnect(con);
      log_text(LOG_DEBUG, "Reconnected");
      return DB_ERROR_IGNORABLE;

    case MYSQL_ERROR_CLASS_FATAL:
    default:
      db_set_error(con, DB_ERROR_FATAL, (int) sql_errno, sql_state, message);
      return DB_ERROR_FATAL;
  }
}
