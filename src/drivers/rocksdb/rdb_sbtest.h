/*
 * rdb_sbtest.h: the key-value statements of the sbtest workloads by name, and running one
 * (rdb_sbtest.c).
 */
#ifndef SB_RDB_SBTEST_H
#define SB_RDB_SBTEST_H

#include <stdbool.h>

#include "db.h"
#include "rdb.h"
#include "rdb_stmt.h"

/* "point_selects", "index_updates", ... (sysbench.kv's names) */
bool rdb_op_parse(const char *name, rdb_op *op);
driver_error_class rdb_sbtest_execute(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                      db_result *rs);

#endif
