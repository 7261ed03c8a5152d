/*
 * rdb_reads.h: the workloads' reads in key-value form (rdb_reads.c).
 */
#ifndef SB_RDB_READS_H
#define SB_RDB_READS_H

#include "db.h"
#include "rdb.h"
#include "rdb_stmt.h"

/* SELECT c FROM sbtestN WHERE id=? */
driver_error_class rdb_point_select(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                    db_result *rs);
/* id BETWEEN ? AND ?: c (simple, ORDER BY c, DISTINCT c) or SUM(k) */
driver_error_class rdb_id_range(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                db_result *rs);
/* SELECT c FROM sbtestN WHERE k >= ? LIMIT n */
driver_error_class rdb_secondary_range(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                       db_result *rs);
/* SELECT id, k, c, pad FROM sbtest1 WHERE k IN (?, ...) */
driver_error_class rdb_random_points(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                     db_result *rs);
/* SELECT count(k) FROM sbtest1 WHERE k BETWEEN ? AND ? OR ... */
driver_error_class rdb_random_ranges(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                     db_result *rs);

#endif
