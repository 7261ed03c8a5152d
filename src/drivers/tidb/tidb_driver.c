/*
 * tidb_driver.c: the "tidb" driver: the mysql driver with TiDB's rules hooked in. Port 4000
 * and user root unless given; TiDB's retryable errors restart the transaction (transient ones
 * after a back-off); connections are spread over the servers of --mysql-host/--mysql-port,
 * skipping a server that refuses or drops them; session settings are applied on every
 * (re)connect; and a server that is not TiDB is refused at the first connection.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "logger.h"
#include "rand.h"
#include "runner.h"
#include "tidb_driver.h"

static bool not_tidb;
static bool *server_checked;

/* ---- hooks into the mysql driver ---- */

/* What the driver keeps per connection, beside the mysql driver's state. */
typedef struct {
  unsigned transient_streak;     /* consecutive transient errors, forgotten after a quiet */
  uint64_t last_transient_ns;    /* second */
} tidb_connection;

/* `jitter` in [0, 1): from the worker's own random stream */
static void back_off(tidb_connection *t, double jitter)
{
  uint64_t now = clock_now_ns();
  if (now - t->last_transient_ns > NS_PER_SEC)
    t->transient_streak = 0;
  t->last_transient_ns = now;
  t->transient_streak++;
  unsigned ms = tidb_backoff_ms(t->transient_streak, tidb_config.backoff_max_ms, jitter);
  if (!runner_stopping())
    usleep(ms * 1000u);
}

static driver_error_class classify(unsigned sql_errno, const char *sql_state,
                                   driver_error_class chosen)
{
  (void) sql_state;
  /* A TiDB server going away is a reason to use another, not to stop. */
  if (mysqldrv_is_connection_loss(sql_errno))
    return DRIVER_ERROR_RECONNECT;
  return tidb_error_class(&tidb_config.rules, sql_errno, chosen);
}

/* Every error is counted by code for the report; a transient one backs off before the
   transaction restarts; one retrying cannot fix says what to change. */
static void failed(db_conn *con, unsigned sql_errno, driver_error_class cls)
{
  tidb_count_error(sql_errno);
  if (cls == DRIVER_ERROR_RESTART_TRANSACTION &&
      tidb_error_transient(&tidb_config.rules, sql_errno))
    back_off(con->ptr != NULL ? mysqldrv_layer_state(con) : &(tidb_connection) {0},
             rand_double(&con->worker->rand));
  else if (cls == DRIVER_ERROR_FATAL && tidb_error_advice(sql_errno) != NULL)
    log_text(LOG_FATAL, "TiDB error %u (%s) cannot succeed on retry: %s", sql_errno,
             tidb_error_name(sql_errno), tidb_error_advice(sql_errno));
}

static void choose_endpoint(mysqldrv_endpoint *ep)
{
  tidb_choose_endpoint(ep);
}

static void connect_failed(const mysqldrv_endpoint *ep, const char *why)
{
  char where[300];
  tidb_server_failed(ep->index);
  if (tidb_server_count > 1) {
    mysqldrv_describe_endpoint(ep, where, sizeof(where));
    log_text(LOG_WARNING, "TiDB server on %s: %s; the other servers take its connections",
             where, why);
  }
}

/* A lost connection reconnects elsewhere when its server is being skipped or failed. */
static void reconnect_endpoint(mysqldrv_endpoint *ep, unsigned attempt)
{
  if (attempt == 0)
    tidb_server_dropped(ep->index);
  if (!tidb_server_usable(ep->index))
    tidb_choose_endpoint(ep);
}

/* First connection to each server: is it TiDB? */
static int check_server(MYSQL *m, const mysqldrv_endpoint *ep)
{
  static const char sql[] = "SELECT tidb_version()";
  char where[300];

  if (server_checked == NULL || ep->index >= tidb_server_count ||
      __atomic_load_n(&server_checked[ep->index], __ATOMIC_ACQUIRE))
    return 0;
  int failed = mysql_real_query(m, sql, sizeof(sql) - 1) != 0;
  MYSQL_RES *res = failed ? NULL : mysql_store_result(m);
  if (res != NULL)
    mysql_free_result(res);
  if (failed) {
    mysqldrv_describe_endpoint(ep, where, sizeof(where));
    log_text(LOG_FATAL, "The server on %s is not TiDB (SELECT tidb_version() failed: %s): use "
             "--db-driver=mysql for MySQL or MariaDB", where, mysql_error(m));
    __atomic_store_n(&not_tidb, true, __ATOMIC_RELEASE);
    return -1;
  }
  __atomic_store_n(&server_checked[ep->index], true, __ATOMIC_RELEASE);
  return 0;
}

static int after_connect(MYSQL *m, const mysqldrv_endpoint *ep)
{
  if (check_server(m, ep) != 0)
    return -1;
  tidb_server_ok(ep->index);
  tidb_count_connection(ep->index);
  return 0;
}

/* ---- driver operations ---- */

static db_driver_ops tidb_ops;

static int tidb_init(void)
{
  static const mysqldrv_defaults defaults = { .port = 4000, .user = "root" };
  static const mysqldrv_hooks hooks = {
    .classify = classify,
    .failed = failed,
    .connection_state_size = sizeof(tidb_connection),
    .reconnect_endpoint = reconnect_endpoint,
    .after_connect = after_connect,
    .choose_endpoint = choose_endpoint,
    .connect_failed = connect_failed,
  };

  if (tidb_settings_load() != 0 || mysqldrv_ops.init == NULL)
    return 1;
  if (mysqldrv_init_with(&defaults) != 0)
    return 1;
  unsigned count = mysqldrv_endpoint_count();
  if (tidb_servers_init(count, runner_config()->threads) != 0)
    return 1;
  server_checked = calloc(count ? count : 1, sizeof(bool));
  if (server_checked == NULL)
    return 1;
  mysqldrv_set_hooks(&hooks);
  /* A dry run talks to no server: nothing to count per server, so queries go straight to
     the mysql driver, as fast as --db-driver=mysql. */
  if (mysqldrv_config.dry_run) {
    tidb_ops.query = mysqldrv_ops.query;
    tidb_ops.execute = mysqldrv_ops.execute;
  }
  return mysqldrv_set_session_statements((const char *const *) tidb_config.session,
                                         (size_t) tidb_config.session_count) != 0;
}

/* Each server in turn until one takes the connection. */
static int tidb_connect(db_conn *con)
{
  for (unsigned attempt = 0; attempt < tidb_server_count; attempt++) {
    if (mysqldrv_connect(con) == 0)
      return 0;
    if (__atomic_load_n(&not_tidb, __ATOMIC_ACQUIRE))
      return -1;
  }
  return -1;
}

static unsigned server_of(db_conn *con)
{
  const mysqldrv_conn *c = con->ptr;
  return c != NULL && c->endpoint.index < tidb_server_count ? c->endpoint.index : 0;
}

static driver_error_class tidb_query(db_conn *con, const char *query, size_t len, db_result *rs)
{
  tidb_count_query(con->thread_id, server_of(con));
  return mysqldrv_query(con, query, len, rs);
}

static driver_error_class tidb_execute(db_stmt *stmt, db_result *rs)
{
  tidb_count_query(stmt->connection->thread_id, server_of(stmt->connection));
  return mysqldrv_execute(stmt, rs);
}

static int tidb_done(void)
{
  int rc = mysqldrv_ops.done != NULL ? mysqldrv_ops.done() : 0;
  static const mysqldrv_hooks none;
  mysqldrv_set_hooks(&none);
  tidb_servers_free();
  free(server_checked);
  server_checked = NULL;
  tidb_settings_free();
  return rc;
}

static const db_driver_ops *tidb_operations(void)
{
  tidb_ops = mysqldrv_ops;
  tidb_ops.init = tidb_init;
  tidb_ops.connect = tidb_connect;
  tidb_ops.query = tidb_query;
  tidb_ops.execute = tidb_execute;
  tidb_ops.done = tidb_done;
  tidb_ops.report_cumulative = tidb_report;
  return &tidb_ops;
}

/* The operations table is the mysql driver's with the TiDB ones swapped in; it is filled
   before main() runs, as the registry reads it. */
__attribute__((constructor)) static void tidb_fill_operations(void)
{
  tidb_operations();
}

const db_driver_def tidb_driver_def = {
  .name = "tidb",
  .description = "TiDB driver (MySQL protocol, TiDB's retries, several servers)",
  .family = DB_FAMILY_SQL,
  .options = tidb_args,
  .needs_commit = false,
  .ops = &tidb_ops,
  .added = true,
  DB_DRIVER_INSTANCE(tidb_driver_def, "tidb",
                     "TiDB driver (MySQL protocol, TiDB's retries, several servers)"),
};
