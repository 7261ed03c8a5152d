/*
 * copy.h: COPY ... FROM STDIN fed from memory (copy.c).
 */
#ifndef SB_PGSQL_COPY_H
#define SB_PGSQL_COPY_H

#include <stddef.h>

#include "db.h"
#include "drivers/driver_error.h"

driver_error_class pgsqldrv_stream_in(db_conn *con, const char *statement, size_t len,
                                      db_stream_fill fill, void *arg, db_result *rs);

#endif
