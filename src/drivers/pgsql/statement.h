/*
 * statement.h: server-side prepared statements (statement.c).
 */
#ifndef SB_PGSQL_STATEMENT_H
#define SB_PGSQL_STATEMENT_H

#include <stddef.h>

#include "db.h"
#include "drivers/driver_error.h"

int pgsqldrv_prepare(db_stmt *stmt, const char *query, size_t len);
int pgsqldrv_bind_param(db_stmt *stmt, db_bind_t *params, size_t count);
driver_error_class pgsqldrv_execute(db_stmt *stmt, db_result *rs);
int pgsqldrv_close(db_stmt *stmt);

#endif
