/*
 * errors.c: an error of the client library (or of the wire path) as the connection's error:
 * its class by the rules of classify.c, the texts copied into the connection, and 1.0.20's
 * FATAL line for an error that stops the run. What happens next (a retry, a reconnect) is
 * the database layer's.
 */
#include <assert.h>
#include <errmsg.h>

#include "drivers/mysql/classify.h"
#include "drivers/mysql/errors.h"
#include "drivers/mysql/hooks.h"
#include "drivers/mysql/state.h"
#include "logger.h"

driver_error_class mysqldrv_fail_disconnected(db_conn *con)
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

driver_error_class mysqldrv_fail(db_conn *con, unsigned sql_errno, const char *sql_state,
                                 const char *message)
{
  return mysqldrv_fail_as(con, mysqldrv_failure_class(con, sql_errno, sql_state), sql_errno,
                          sql_state, message);
}

driver_error_class mysqldrv_fail_as(db_conn *con, driver_error_class cls, unsigned sql_errno,
                                    const char *sql_state, const char *message)
{
  mysqldrv_conn *c = con->ptr;

  assert(cls != DRIVER_ERROR_NONE);
  if (cls == DRIVER_ERROR_RECONNECT && c != NULL) {
    /* the reconnects to come may go to another server (mysqldrv_hooks.reconnect_endpoint) */
    c->lost = true;
    c->reconnect_attempt = 0;
  } else if (cls == DRIVER_ERROR_FATAL && c != NULL && c->call != NULL) {
    /* 1.0.20's line, naming the client call and the statement (the script's error that
       follows names the script's line). */
    log_text(LOG_FATAL, "%s returned error %u (%s) for query '%.*s'", c->call, sql_errno,
             message, (int) c->call_query_len, c->call_query);
  }
  /* The script sees the original error (oltp_common's before_restart_event looks for 2013
     and friends); `message` may live in the handle a reconnect frees: it is copied now. */
  db_set_error(con, cls, (int) sql_errno, sql_state, message);
  return cls;
}
