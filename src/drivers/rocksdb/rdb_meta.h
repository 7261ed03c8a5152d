/*
 * rdb_meta.h: a table's metadata record (rdb_meta.c): whether the table exists, was left
 * incomplete by a load, and what its load wrote.
 */
#ifndef SB_RDB_META_H
#define SB_RDB_META_H

#include <stdbool.h>
#include <stdint.h>

#include "rdb.h"

/* Table metadata (flags are db_kv.h's KV_TABLE_*). */
typedef struct {
  uint32_t flags;
  uint64_t rows_loaded;
  uint64_t checksum;         /* sum of rdb_row_hash over the rows loaded */
} rdb_table_meta;

/* The record of a finished load; false if there is none (a read error is the session's). */
bool rdb_table_meta_get(rdb_session *s, uint32_t table, rdb_table_meta *meta);
/* Record a finished load; -1 with the session's error set. */
int rdb_table_meta_put(rdb_session *s, uint32_t table, uint32_t flags, uint64_t rows,
                       uint64_t checksum);
/* Mark the table incomplete before any of its rows goes in (every slice of a load does: the
   mark is the same, and the record of the finished load comes after the last slice). */
int rdb_table_meta_mark_loading(rdb_session *s, uint32_t table);
/* The metadata key holds anything: a finished load, or the mark of one in progress. */
bool rdb_table_meta_present(rdb_session *s, uint32_t table);

#endif
