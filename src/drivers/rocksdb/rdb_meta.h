/*
 * rdb_meta.h: a table's metadata record (rdb_meta.c): whether the table exists, was left
 * incomplete by a load, and what its load wrote, from which seed.
 */
#ifndef SB_RDB_META_H
#define SB_RDB_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdb.h"

/* Table metadata (flags are db_kv.h's KV_TABLE_*). */
typedef struct {
  uint32_t flags;
  uint64_t rows_loaded;
  uint64_t checksum;         /* sum of rdb_row_hash over the rows loaded */
  bool seed_known;           /* records of earlier versions have no seed */
  uint64_t seed;             /* the seed the rows were generated from */
} rdb_table_meta;

/* The record of a finished load; false if there is none (a read error is the session's). */
bool rdb_table_meta_get(rdb_session *s, uint32_t table, rdb_table_meta *meta);
/* Record a finished load; -1 with the session's error set. */
int rdb_table_meta_put(rdb_session *s, uint32_t table, uint32_t flags, uint64_t rows,
                       uint64_t checksum, uint64_t seed);
/* Mark the table incomplete before any of its rows goes in, with `marker` (the seed and
   options of the load, as the SQL drivers' table comment; NULL: no more than that). Every
   slice of a load marks it (the mark is the same), and the record of the finished load
   comes after the last slice. */
int rdb_table_meta_mark_loading(rdb_session *s, uint32_t table, const char *marker);
/* The metadata key holds anything: a finished load, or the mark of one in progress. */
bool rdb_table_meta_present(rdb_session *s, uint32_t table);
/* The marker an incomplete table's load began with, into `out` ("" when it has none). */
void rdb_table_meta_marker(rdb_session *s, uint32_t table, char *out, size_t len);

#endif
