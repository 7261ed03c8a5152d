/*
 * rdb_bulk.h: multi-row inserts into (id, k) tables (rdb_bulk.c).
 */
#ifndef SB_RDB_BULK_H
#define SB_RDB_BULK_H

#include <stdint.h>

#include "db.h"
#include "rdb.h"

/* Gather one row of the statement. */
int rdb_bulk_add(rdb_session *s, uint32_t table, int64_t id, int64_t k);
/* Write the gathered rows atomically, like one multi-row INSERT statement. */
driver_error_class rdb_bulk_flush(rdb_session *s, db_result *rs);

#endif
