/*
 * statement.h: server-side prepared statements (statement.c).
 */
#ifndef SB_MYSQL_STATEMENT_H
#define SB_MYSQL_STATEMENT_H

#include <stddef.h>

#include "db.h"
#include "drivers/driver_error.h"

int mysqldrv_prepare(db_stmt *stmt, const char *query, size_t len);
int mysqldrv_bind_param(db_stmt *stmt, db_bind_t *params, size_t count);
int mysqldrv_bind_result(db_stmt *stmt, db_bind_t *results, size_t count);
driver_error_class mysqldrv_execute(db_stmt *stmt, db_result *rs);
/* The next row into the script's own result binds (db_bind_result). */
int mysqldrv_stmt_fetch(db_result *rs);
/* The next row of a prepared statement's result, as strings. */
int mysqldrv_stmt_fetch_row(db_result *rs, db_row_t *row);
int mysqldrv_stmt_free_result(db_stmt *stmt);
int mysqldrv_close(db_stmt *stmt);

#endif
