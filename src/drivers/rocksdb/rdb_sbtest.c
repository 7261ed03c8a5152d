/*
 * rdb_sbtest.c: the key-value statements of the sbtest workloads by name, and running one:
 * each does the work its SQL form makes a server do (rdb_reads.c, rdb_writes.c) and reports
 * what the SQL form would -- a read returns rows (one read query), a write that changed a row
 * is a write, one that found nothing is "other" -- so counts match the MySQL driver's.
 */
#include <string.h>

#include "rdb_reads.h"
#include "rdb_sbtest.h"
#include "rdb_writes.h"

static const struct {
  const char *name;
  rdb_op op;
} op_names[] = {
  {"point_selects", RDB_OP_POINT_SELECT},
  {"simple_ranges", RDB_OP_SIMPLE_RANGE},
  {"sum_ranges", RDB_OP_SUM_RANGE},
  {"order_ranges", RDB_OP_ORDER_RANGE},
  {"distinct_ranges", RDB_OP_DISTINCT_RANGE},
  {"index_updates", RDB_OP_INDEX_UPDATE},
  {"non_index_updates", RDB_OP_NON_INDEX_UPDATE},
  {"deletes", RDB_OP_DELETE},
  {"inserts", RDB_OP_INSERT},
  {"secondary_ranges", RDB_OP_SECONDARY_RANGE},
  {"random_points", RDB_OP_RANDOM_POINTS},
  {"random_ranges", RDB_OP_RANDOM_RANGES},
  {"bulk_inserts", RDB_OP_INSERT},
};

bool rdb_op_parse(const char *name, rdb_op *op)
{
  for (size_t i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++)
    if (strcmp(name, op_names[i].name) == 0) {
      *op = op_names[i].op;
      return true;
    }
  return false;
}

driver_error_class rdb_sbtest_execute(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                      db_result *rs)
{
  switch (st->op) {
    case RDB_OP_POINT_SELECT:     return rdb_point_select(s, st, stmt, rs);
    case RDB_OP_SIMPLE_RANGE:
    case RDB_OP_SUM_RANGE:
    case RDB_OP_ORDER_RANGE:
    case RDB_OP_DISTINCT_RANGE:   return rdb_id_range(s, st, stmt, rs);
    case RDB_OP_INDEX_UPDATE:     return rdb_index_update(s, st, stmt, rs);
    case RDB_OP_NON_INDEX_UPDATE: return rdb_non_index_update(s, st, stmt, rs);
    case RDB_OP_DELETE:           return rdb_delete_row(s, st, stmt, rs);
    case RDB_OP_INSERT:           return rdb_insert_row(s, st, stmt, rs);
    case RDB_OP_SECONDARY_RANGE:  return rdb_secondary_range(s, st, stmt, rs);
    case RDB_OP_RANDOM_POINTS:    return rdb_random_points(s, st, stmt, rs);
    case RDB_OP_RANDOM_RANGES:    return rdb_random_ranges(s, st, stmt, rs);
  }
  return rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1064, "42000", "unknown key-value statement");
}
