/*
 * rdb_load.h: prepare and cleanup of sbtest tables on RocksDB (see rdb_load.c).
 */
#ifndef SB_RDB_LOAD_H
#define SB_RDB_LOAD_H

#include "db_kv.h"
#include "rdb.h"

/* Load one table (or one slice of it); -1 with the session's error set. */
int rdb_sbtest_create(rdb_session *s, const db_kv_table_spec *spec);
/* Delete a table's keys and compact them away. */
int rdb_sbtest_drop(rdb_session *s, uint32_t table);
/* After the last load: stop the progress line, print rows and sizes. */
void rdb_load_finish(void);
/* True when no key at all is left. */
bool rdb_database_empty(void);

#endif
