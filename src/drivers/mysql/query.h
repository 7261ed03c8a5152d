/*
 * query.h: text queries and their results (query.c): client-side prepared statements run
 * this way too.
 */
#ifndef SB_MYSQL_QUERY_H
#define SB_MYSQL_QUERY_H

#include <stdbool.h>
#include <stddef.h>

#include <mysql.h>

#include "db.h"
#include "drivers/driver_error.h"

driver_error_class mysqldrv_query(db_conn *con, const char *query, size_t len, db_result *rs);
/* The next row of a text result, as strings. */
int mysqldrv_query_fetch_row(db_result *rs, db_row_t *row);
bool mysqldrv_more_results(db_conn *con);
driver_error_class mysqldrv_next_result(db_conn *con, db_result *rs);
/* Free a text result (rs->ptr). */
void mysqldrv_query_free_result(db_result *rs);
size_t mysqldrv_escape(db_conn *con, char *dst, const char *src, size_t len);
/* Read and drop results of an earlier multi-statement command the script did not read. */
void mysqldrv_drain_results(MYSQL *mysql);

#endif
