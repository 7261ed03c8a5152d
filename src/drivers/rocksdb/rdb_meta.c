/*
 * rdb_meta.c: the record each table has under its metadata key: its flags, the rows its load
 * wrote and their checksum, written once the last slice of the load is in; "loading" while
 * the load runs (see rdb_meta.h).
 */
#include <string.h>

#include "rdb_meta.h"

bool rdb_table_meta_get(rdb_session *s, uint32_t table, rdb_table_meta *meta)
{
  char key[RDB_META_KEY_LEN], *err = NULL;
  rdb_meta_key(key, table);
  rocksdb_pinnableslice_t *v = rdb_get(s, key, sizeof(key), false, &err);
  if (err != NULL) {
    rdb_fail(s, err, "table metadata");
    return false;
  }
  if (v == NULL)
    return false;
  size_t len;
  const char *p = rocksdb_pinnableslice_value(v, &len);
  bool ok = len >= 12;
  if (ok) {
    memcpy(&meta->flags, p, 4);
    memcpy(&meta->rows_loaded, p + 4, 8);
    meta->checksum = 0;
    if (len >= 20)
      memcpy(&meta->checksum, p + 12, 8);
  }
  rocksdb_pinnableslice_destroy(v);
  return ok;
}

int rdb_table_meta_put(rdb_session *s, uint32_t table, uint32_t flags, uint64_t rows,
                       uint64_t checksum)
{
  char key[RDB_META_KEY_LEN], value[20], *err = NULL;
  rdb_meta_key(key, table);
  memcpy(value, &flags, 4);
  memcpy(value + 4, &rows, 8);
  memcpy(value + 12, &checksum, 8);
  rocksdb_put(rdb.db, s->write, key, sizeof(key), value, sizeof(value), &err);
  if (err != NULL) {
    rdb_fail(s, err, "table metadata");
    return -1;
  }
  return 0;
}

/* What a table's metadata key holds while the table is loaded: shorter than the record of a
   finished load (the only value rdb_table_meta_get takes), so until that record replaces it
   the table is incomplete for every command, even when the load was stopped before any of
   its files was ingested. */
#define LOADING_MARK "loading"

bool rdb_table_meta_present(rdb_session *s, uint32_t table)
{
  char key[RDB_META_KEY_LEN], *err = NULL;
  rdb_meta_key(key, table);
  rocksdb_pinnableslice_t *v = rdb_get(s, key, sizeof(key), false, &err);
  if (err != NULL)
    rocksdb_free(err);
  if (v == NULL)
    return false;
  rocksdb_pinnableslice_destroy(v);
  return true;
}

int rdb_table_meta_mark_loading(rdb_session *s, uint32_t table)
{
  char key[RDB_META_KEY_LEN], *err = NULL;
  rdb_meta_key(key, table);
  rocksdb_put(rdb.db, s->write, key, sizeof(key), LOADING_MARK, sizeof(LOADING_MARK) - 1,
              &err);
  if (err != NULL) {
    rdb_fail(s, err, "table metadata");
    return -1;
  }
  return 0;
}
