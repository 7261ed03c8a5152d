/*
 * rdb_load.h: prepare and cleanup of sbtest tables on RocksDB (see rdb_load.c).
 */
#ifndef SB_RDB_LOAD_H
#define SB_RDB_LOAD_H

#include "db_kv.h"
#include "rdb.h"

/* Load one table (or one slice of it); -1 with the session's error set. */
int rdb_sbtest_create(rdb_session *s, const db_kv_table_spec *spec);
/* The parallel prepare: load ids spec->first_id..last_id of a table checked to be new (0, -1
   with the session's error set, or KV_LOAD_STOPPED); once all ranges are in, record the
   table with the checksum of its ranges. */
int rdb_sbtest_load_range(rdb_session *s, const db_kv_table_spec *spec);
int rdb_sbtest_finish(rdb_session *s, uint32_t table, uint64_t rows, uint32_t flags);
/* KV_TABLE_ABSENT, _COMPLETE or _INCOMPLETE. */
int rdb_sbtest_state(rdb_session *s, uint32_t table);
/* The state of a table and what it records about its load (db_kv.h's table_record). */
int rdb_sbtest_record(rdb_session *s, uint32_t table, db_kv_load_record *record);
/* Bytes the files hold of a table's rows and of its index on k (RocksDB's estimate). */
void rdb_sbtest_sizes(uint32_t table, int64_t *data, int64_t *index);
/* Delete a table's keys and compact them away. */
int rdb_sbtest_drop(rdb_session *s, uint32_t table);
/* Read a table back and compare with what its load recorded: 0 equal, 1 different (report
   says how), -1 read error. */
int rdb_sbtest_check(rdb_session *s, uint32_t table, char *report, size_t report_len);
/* At exit: after loads, the summary of direct loads and the new table files read into the
   OS page cache; nothing when no table was loaded. */
void rdb_load_finish(void);
/* At exit: some table was dropped (the directory may be left empty). */
bool rdb_tables_dropped(void);
/* True when no key at all is left. */
bool rdb_database_empty(void);

#endif
