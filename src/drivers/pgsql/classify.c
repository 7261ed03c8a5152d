/*
 * classify.c: what a server error means for the run. --pgsql-ignore-errors lists the
 * SQLSTATEs that restart the event instead of stopping the run (1.0.20 always ignored
 * deadlocks 40P01, unique violations 23505 and serialization failures 40001, and nothing
 * else: those are the default); "all" ignores every error. A lost connection whose SQLSTATE
 * is listed is reconnected first; an error that aborted the transaction restarts it. No I/O
 * here: the unit test links this file alone.
 */
#include "drivers/pgsql/classify.h"

driver_error_class pgsqldrv_classify(const pgsqldrv_settings *c, const char *sql_state,
                                     bool connection_lost, bool transaction_aborted)
{
  if (!error_codes_has_sqlstate(&c->ignored, sql_state))
    return DRIVER_ERROR_FATAL;
  if (connection_lost)
    return DRIVER_ERROR_RECONNECT;
  return transaction_aborted ? DRIVER_ERROR_RESTART_TRANSACTION : DRIVER_ERROR_IGNORE;
}
