/*
 * rdb_stmt.h: a prepared key-value statement of the sbtest workloads (db_stmt.ptr): which
 * one, on which table. Types only.
 */
#ifndef SB_RDB_STMT_H
#define SB_RDB_STMT_H

#include <stdint.h>

#include "rdb_meta.h"

typedef enum {
  RDB_OP_POINT_SELECT,       /* SELECT c FROM t WHERE id=? */
  RDB_OP_SIMPLE_RANGE,       /* SELECT c FROM t WHERE id BETWEEN ? AND ? */
  RDB_OP_SUM_RANGE,          /* SELECT SUM(k) ... BETWEEN */
  RDB_OP_ORDER_RANGE,        /* SELECT c ... BETWEEN ... ORDER BY c */
  RDB_OP_DISTINCT_RANGE,     /* SELECT DISTINCT c ... BETWEEN ... ORDER BY c */
  RDB_OP_INDEX_UPDATE,       /* UPDATE t SET k=k+1 WHERE id=? */
  RDB_OP_NON_INDEX_UPDATE,   /* UPDATE t SET c=? WHERE id=? */
  RDB_OP_DELETE,             /* DELETE FROM t WHERE id=? */
  RDB_OP_INSERT,             /* INSERT INTO t (id, k, c, pad) VALUES (?, ?, ?, ?) */
  RDB_OP_SECONDARY_RANGE,    /* SELECT c FROM t WHERE k >= ? LIMIT n */
  RDB_OP_RANDOM_POINTS,      /* SELECT id, k, c, pad FROM t WHERE k IN (?, ...) */
  RDB_OP_RANDOM_RANGES       /* SELECT count(k) FROM t WHERE k BETWEEN ? AND ? OR ... */
} rdb_op;

typedef struct {
  rdb_op op;
  uint32_t table;
  uint32_t limit;            /* RDB_OP_SECONDARY_RANGE */
  rdb_table_meta meta;
} rdb_stmt;

#endif
