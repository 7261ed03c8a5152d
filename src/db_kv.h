/*
 * db_kv.h: the key-value side of the database layer, for drivers of the KV family (the
 * embedded RocksDB driver): the bundled workloads' statements in key-value form, fast table
 * loading and dropping, and a generic get/put/delete/multi-get/scan/batch API for scripts.
 * Results come back as ordinary db_result rows, so rs:fetch_row() reads them, and every call
 * is counted like the SQL statement it stands for (reads, writes, rows).
 */
#ifndef SB_DB_KV_H
#define SB_DB_KV_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

/* One table (or one slice of one: rows split evenly over `slices` loaders) to create, or
   one range of ids of a table to load (load_range: first_id..last_id). */
typedef struct {
  uint32_t table;              /* N of sbtestN */
  uint64_t rows;
  uint32_t flags;              /* KV_TABLE_* */
  uint32_t slice;
  uint32_t slices;
  const char *c_template;      /* sysbench.rand.string templates of the c and pad columns */
  const char *pad_template;
  int64_t first_id;            /* load_range */
  int64_t last_id;
  uint64_t seed;               /* the rows come from (seed, table, id) */
  const char *marker;          /* load_range: what the table records while it is incomplete
                                  (the seed and options of the load; NULL: just that) */
} db_kv_table_spec;

/* What a table records about its load (table_record). */
typedef struct {
  int state;                   /* KV_TABLE_* */
  uint64_t rows;               /* complete: the rows its load wrote */
  int seed_known;              /* complete: its record names the seed of its rows */
  uint64_t seed;
  char marker[256];            /* incomplete: the marker its load began with ("" if none) */
} db_kv_load_record;

/* What is there of a table (table_state). */
#define KV_TABLE_ABSENT 0
#define KV_TABLE_COMPLETE 1
#define KV_TABLE_INCOMPLETE 2    /* keys without the record a finished load writes */

/* load_range's answer when the load stopped (Ctrl-C, or another thread failed). */
#define KV_LOAD_STOPPED -2

#define KV_TABLE_SECONDARY_INDEX 1u    /* an index on k (create_secondary) */
#define KV_TABLE_ID_K_ONLY       2u    /* bulk_insert's (id, k) table */
#define KV_TABLE_AUTO_INC        4u    /* id 0 in an INSERT takes the next id */

struct db_kv_ops {
  /* A statement of the sbtest workloads by name ("point_selects", "index_updates", ...). */
  int (*prepare)(db_stmt *stmt, const char *kind, uint32_t table, uint32_t limit);
  int (*create_table)(db_conn *con, const db_kv_table_spec *spec);
  int (*drop_table)(db_conn *con, uint32_t table);
  /* Read a table back and compare with its load: 0 equal, 1 different, -1 error. */
  int (*check_table)(db_conn *con, uint32_t table, char *report, size_t report_len);
  /* The parallel prepare: load ids first_id..last_id of a table someone made sure was new;
     0, -1 with the error set, or KV_LOAD_STOPPED. Then, once every range is in, record the
     table (rows, flags, checksum of the ranges). */
  int (*load_range)(db_conn *con, const db_kv_table_spec *spec);
  int (*finish_table)(db_conn *con, uint32_t table, uint64_t rows, uint32_t flags);
  /* KV_TABLE_ABSENT, _COMPLETE or _INCOMPLETE, or -1 on a read error. */
  int (*table_state)(db_conn *con, uint32_t table);
  /* The state and what the table records about its load; 0, or -1 on a read error. */
  int (*table_record)(db_conn *con, uint32_t table, db_kv_load_record *record);
  /* Bytes its rows and its index on k take in the files (estimates); -1 when unknown. */
  int (*table_sizes)(db_conn *con, uint32_t table, int64_t *data, int64_t *index);
  /* Rows (id, k) of an ID_K_ONLY table gathered in memory, then written in one go: the
     key-value form of a multi-row INSERT. */
  int (*bulk_add)(db_conn *con, uint32_t table, int64_t id, int64_t k);
  driver_error_class (*bulk_flush)(db_conn *con, db_result *rs);
  /* Generic API on the driver's user key space. Reads fill rs with rows. */
  /* for_update: lock the key (pessimistic) or check it for conflicts at commit (optimistic) */
  driver_error_class (*get)(db_conn *con, const char *key, size_t klen, int for_update,
                            db_result *rs);
  driver_error_class (*multi_get)(db_conn *con, size_t n, const char *const *keys,
                                  const size_t *klens, db_result *rs);
  driver_error_class (*scan)(db_conn *con, const char *start, size_t start_len, const char *upper,
                             size_t upper_len, uint32_t limit, db_result *rs);
  driver_error_class (*put)(db_conn *con, const char *key, size_t klen, const char *value,
                            size_t vlen, db_result *rs);
  driver_error_class (*del)(db_conn *con, const char *key, size_t klen, db_result *rs);
  int (*batch_put)(db_conn *con, const char *key, size_t klen, const char *value, size_t vlen);
  int (*batch_delete)(db_conn *con, const char *key, size_t klen);
  driver_error_class (*batch_write)(db_conn *con, db_result *rs);
  void (*batch_clear)(db_conn *con);
};

/* ---- exported for sysbench.kv (Lua, through FFI) ---- */

db_stmt *db_prepare_kv(db_conn *con, const char *kind, uint32_t table, uint32_t limit);
int db_kv_create_table(db_conn *con, uint32_t table, uint64_t rows, uint32_t flags,
                       uint32_t slice, uint32_t slices, const char *c_template,
                       const char *pad_template);
int db_kv_drop_table(db_conn *con, uint32_t table);
int db_kv_bulk_add(db_conn *con, uint32_t table, int64_t id, int64_t k);
int db_kv_bulk_flush(db_conn *con);
int db_kv_check_table(db_conn *con, uint32_t table, char *report, size_t report_len);
int db_kv_load_range(db_conn *con, uint32_t table, uint64_t rows, uint32_t flags,
                     int64_t first_id, int64_t last_id, uint64_t seed, const char *c_template,
                     const char *pad_template, const char *marker);
int db_kv_finish_table(db_conn *con, uint32_t table, uint64_t rows, uint32_t flags);
int db_kv_table_state(db_conn *con, uint32_t table);
int db_kv_table_record(db_conn *con, uint32_t table, db_kv_load_record *record);
int db_kv_table_sizes(db_conn *con, uint32_t table, int64_t *data, int64_t *index);
db_result *db_kv_get(db_conn *con, const char *key, size_t klen, int for_update);
db_result *db_kv_multi_get(db_conn *con, size_t n, const char *const *keys, const size_t *klens);
db_result *db_kv_scan(db_conn *con, const char *start, size_t start_len, const char *upper,
                      size_t upper_len, uint32_t limit);
int db_kv_put(db_conn *con, const char *key, size_t klen, const char *value, size_t vlen);
int db_kv_delete(db_conn *con, const char *key, size_t klen);
int db_kv_batch_put(db_conn *con, const char *key, size_t klen, const char *value, size_t vlen);
int db_kv_batch_delete(db_conn *con, const char *key, size_t klen);
int db_kv_batch_write(db_conn *con);
void db_kv_batch_clear(db_conn *con);

#endif
