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
/* Read a table back and compare with what its load recorded: 0 equal, 1 different (report
   says how), -1 read error. */
int rdb_sbtest_check(rdb_session *s, uint32_t table, char *report, size_t report_len);
/* After the last load: stop the progress line, print rows and sizes. */
void rdb_load_finish(void);
/* True when no key at all is left. */
bool rdb_database_empty(void);

#endif
