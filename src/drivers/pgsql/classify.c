/*
 * classify.c: what a server error means for the run. --pgsql-ignore-errors lists the
 * SQLSTATEs that restart the event instead of stopping the run (1.0.20 always ignored
 * deadlocks 40P01, unique violations 23505 and serialization failures 40001, and nothing
 * else: those are the default); "all" ignores every error. A lost connection whose SQLSTATE
 * is listed is reconnected first. No I/O here: the unit test links this file alone.
 */
#include <string.h>

#include "pgsql_driver.h"

static bool listed(const pgsqldrv_settings *c, const char *sql_state)
{
  if (c->ignore_all)
    return true;
  if (sql_state == NULL)
    return false;
  for (size_t i = 0; i < c->ignored_count; i++)
    if (strcmp(c->ignored[i].code, sql_state) == 0)
      return true;
  return false;
}

pgsqldrv_error_class pgsqldrv_classify(const pgsqldrv_settings *c, const char *sql_state,
                                       bool connection_lost)
{
  if (!listed(c, sql_state))
    return PGSQL_ERROR_CLASS_FATAL;
  return connection_lost ? PGSQL_ERROR_CLASS_RECONNECT : PGSQL_ERROR_CLASS_IGNORABLE;
}
