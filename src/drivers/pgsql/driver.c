/*
 * driver.c: the "pgsql" driver as the database layer sees it: its definition, its operations
 * table, and start-up. The work is in the other files of this directory.
 */
#include <libpq-fe.h>

#include "drivers/pgsql/connection.h"
#include "drivers/pgsql/copy.h"
#include "drivers/pgsql/query.h"
#include "drivers/pgsql/settings.h"
#include "drivers/pgsql/statement.h"
#include "logger.h"

static int init(void)
{
  if (pgsqldrv_settings_load() != 0)
    return 1;
  if (!pgsqldrv_config.dry_run && !PQisthreadsafe()) {
    log_text(LOG_FATAL, "This libpq is not thread-safe: the pgsql driver cannot use it");
    return 1;
  }
  return 0;
}

static int done(void)
{
  pgsqldrv_settings_free();
  return 0;
}

static const db_driver_ops pgsqldrv_ops = {
  .init = init,
  .connect = pgsqldrv_connect,
  .disconnect = pgsqldrv_disconnect,
  .reconnect = pgsqldrv_reconnect,
  .rollback = pgsqldrv_rollback,
  .prepare = pgsqldrv_prepare,
  .bind_param = pgsqldrv_bind_param,
  .execute = pgsqldrv_execute,
  .query = pgsqldrv_query,
  .fetch_row = pgsqldrv_fetch_row,
  .more_results = pgsqldrv_more_results,
  .next_result = pgsqldrv_next_result,
  .free_results = pgsqldrv_free_results,
  .close = pgsqldrv_close,
  .done = done,
  .escape = pgsqldrv_escape,
  .stream_in = pgsqldrv_stream_in,
};

const db_driver_def pgsql_driver_def = {
  .name = "pgsql",
  .description = "PostgreSQL driver",
  .family = DB_FAMILY_SQL,
  .options = pgsqldrv_args,
  .needs_commit = false,
  .ops = &pgsqldrv_ops,
  DB_DRIVER_INSTANCE(pgsql_driver_def, "pgsql", "PostgreSQL driver"),
};
