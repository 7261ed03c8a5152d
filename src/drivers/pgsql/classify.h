/*
 * classify.h: what a server error means for the run (classify.c). No I/O.
 */
#ifndef SB_PGSQL_CLASSIFY_H
#define SB_PGSQL_CLASSIFY_H

#include <stdbool.h>

#include "drivers/driver_error.h"
#include "drivers/pgsql/settings.h"

/* The SQLSTATE reported for a lost connection the server gave no reason for. */
#define PGSQL_STATE_CONNECTION_FAILURE "08006"

/* --pgsql-ignore-errors: listed (or "all") is ignored, or a reconnect when the connection is
   gone, or a restarted transaction when it aborted the transaction; anything else is fatal. */
driver_error_class pgsqldrv_classify(const pgsqldrv_settings *c, const char *sql_state,
                                     bool connection_lost, bool transaction_aborted);

#endif
