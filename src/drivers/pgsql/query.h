/*
 * query.h: text queries and their results (query.c): client-side prepared statements run
 * this way too.
 */
#ifndef SB_PGSQL_QUERY_H
#define SB_PGSQL_QUERY_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"
#include "drivers/driver_error.h"
#include "drivers/pgsql/errors.h"
#include "drivers/pgsql/state.h"

/* Classify a result: a result set is a read, a command with rows a write, anything else
   other. Takes ownership of res (kept in rs for a result set, cleared otherwise). */
driver_error_class pgsqldrv_take_result(db_conn *con, PGresult *res, db_result *rs,
                                        const pgsqldrv_failure *how);

driver_error_class pgsqldrv_query(db_conn *con, const char *query, size_t len, db_result *rs);
int pgsqldrv_fetch_row(db_result *rs, db_row_t *row);
bool pgsqldrv_more_results(db_conn *con);
driver_error_class pgsqldrv_next_result(db_conn *con, db_result *rs);
int pgsqldrv_free_results(db_result *rs);
size_t pgsqldrv_escape(db_conn *con, char *dst, const char *src, size_t len);
/* Drop the results of a multi-statement query the script did not read. */
void pgsqldrv_drop_pending(pgsqldrv_conn *c);
/* End the transaction an error aborted (DRIVER_ERROR_RESTART_TRANSACTION). */
void pgsqldrv_rollback(db_conn *con);

#endif
