/*
 * driver.c: the "mysql" driver as the database layer sees it: its definition, its operations
 * table, and start-up / shutdown of the client library. The work is in the other files of
 * this directory; a layered driver (TiDB) reuses mysqldrv_ops with its own start-up.
 */
#include "drivers/mysql/mysql_driver.h"
#include "drivers/mysql/stream.h"
#include "logger.h"

int mysqldrv_init_with(const mysqldrv_defaults *defaults)
{
  if (mysqldrv_settings_load(defaults) != 0)
    return 1;
  if (mysqldrv_config.dry_run)
    return 0;
  MYSQLDRV_TRACE("mysql_library_init(0, NULL, NULL)");
  if (mysql_library_init(0, NULL, NULL) != 0) {
    log_text(LOG_FATAL, "Cannot initialize the MySQL client library");
    return 1;
  }
  return 0;
}

static int init(void)
{
  return mysqldrv_init_with(NULL);
}

static int thread_init(int thread_id)
{
  (void) thread_id;
  if (mysqldrv_config.dry_run)
    return 0;
  my_bool rc = mysql_thread_init();
  MYSQLDRV_TRACE("mysql_thread_init() = %d", (int) rc);
  return rc != 0;
}

static int thread_done(int thread_id)
{
  (void) thread_id;
  if (!mysqldrv_config.dry_run)
    mysql_thread_end();
  return 0;
}

static int done(void)
{
  if (!mysqldrv_config.dry_run)
    mysql_library_end();
  mysqldrv_set_session_statements(NULL, 0);
  mysqldrv_settings_free();
  return 0;
}

/* A prepared statement's rows (the server's) or a text result's (emulated statements and
   queries). */
static int fetch_row(db_result *rs, db_row_t *row)
{
  if (rs->statement != NULL && !rs->statement->emulated)
    return mysqldrv_stmt_fetch_row(rs, row);
  return mysqldrv_query_fetch_row(rs, row);
}

static int free_results(db_result *rs)
{
  if (mysqldrv_config.dry_run)
    return 0;
  if (rs->statement != NULL && !rs->statement->emulated)
    mysqldrv_stmt_free_result(rs->statement);
  mysqldrv_query_free_result(rs);
  return 0;
}

const db_driver_ops mysqldrv_ops = {
  .init = init,
  .thread_init = thread_init,
  .connect = mysqldrv_connect,
  .disconnect = mysqldrv_disconnect,
  .reconnect = mysqldrv_reconnect,
  .prepare = mysqldrv_prepare,
  .bind_param = mysqldrv_bind_param,
  .bind_result = mysqldrv_bind_result,
  .execute = mysqldrv_execute,
  .query = mysqldrv_query,
  .fetch = mysqldrv_stmt_fetch,
  .fetch_row = fetch_row,
  .more_results = mysqldrv_more_results,
  .next_result = mysqldrv_next_result,
  .free_results = free_results,
  .close = mysqldrv_close,
  .thread_done = thread_done,
  .done = done,
  .escape = mysqldrv_escape,
  .stream_in = mysqldrv_stream_in,
};

const db_driver_def mysql_driver_def = {
  .name = "mysql",
  .description = "MySQL driver",
  .family = DB_FAMILY_SQL,
  .options = mysqldrv_args,
  .needs_commit = false,
  .ops = &mysqldrv_ops,
  DB_DRIVER_INSTANCE(mysql_driver_def, "mysql", "MySQL driver"),
};
