/*
 * rdb_meta.c: the record each table has under its metadata key: its flags, the rows its load
 * wrote, their checksum and the seed they came from, written once the last slice of the load
 * is in; while the load runs, a mark that the table is incomplete with the seed and options
 * of the load (see rdb_meta.h).
 */
#include <string.h>

#include "rdb_meta.h"

/* What a table's metadata key holds while the table is loaded: text (an earlier version
   wrote "loading" alone, this one the marker of the load after it), where the record of a
   finished load starts with its flags, a little-endian number below 8. Until that record
   replaces the mark, the table is incomplete for every command, even when the load was
   stopped before any of its files was ingested. */
#define LOADING_MARK "loading"

static bool is_loading_mark(const char *value, size_t len)
{
  return len >= sizeof(LOADING_MARK) - 1 &&
         memcmp(value, LOADING_MARK, sizeof(LOADING_MARK) - 1) == 0;
}

/* The value of the table's metadata key, or NULL (none, or a read error: the session's). */
static rocksdb_pinnableslice_t *meta_value(rdb_session *s, uint32_t table, bool report)
{
  char key[RDB_META_KEY_LEN], *err = NULL;
  rdb_meta_key(key, table);
  rocksdb_pinnableslice_t *v = rdb_get(s, key, sizeof(key), false, &err);
  if (err != NULL) {
    if (report)
      rdb_fail(s, err, "table metadata");
    else
      rocksdb_free(err);
    return NULL;
  }
  return v;
}

bool rdb_table_meta_get(rdb_session *s, uint32_t table, rdb_table_meta *meta)
{
  rocksdb_pinnableslice_t *v = meta_value(s, table, true);
  if (v == NULL)
    return false;
  size_t len;
  const char *p = rocksdb_pinnableslice_value(v, &len);
  bool ok = len >= 12 && !is_loading_mark(p, len);
  if (ok) {
    memcpy(&meta->flags, p, 4);
    memcpy(&meta->rows_loaded, p + 4, 8);
    meta->checksum = 0;
    if (len >= 20)
      memcpy(&meta->checksum, p + 12, 8);
    meta->seed_known = len >= 28;
    meta->seed = 0;
    if (meta->seed_known)
      memcpy(&meta->seed, p + 20, 8);
  }
  rocksdb_pinnableslice_destroy(v);
  return ok;
}

int rdb_table_meta_put(rdb_session *s, uint32_t table, uint32_t flags, uint64_t rows,
                       uint64_t checksum, uint64_t seed)
{
  char key[RDB_META_KEY_LEN], value[28], *err = NULL;
  rdb_meta_key(key, table);
  memcpy(value, &flags, 4);
  memcpy(value + 4, &rows, 8);
  memcpy(value + 12, &checksum, 8);
  memcpy(value + 20, &seed, 8);
  rocksdb_put(rdb.db, s->write, key, sizeof(key), value, sizeof(value), &err);
  if (err != NULL) {
    rdb_fail(s, err, "table metadata");
    return -1;
  }
  return 0;
}

bool rdb_table_meta_present(rdb_session *s, uint32_t table)
{
  rocksdb_pinnableslice_t *v = meta_value(s, table, false);
  if (v == NULL)
    return false;
  rocksdb_pinnableslice_destroy(v);
  return true;
}

void rdb_table_meta_marker(rdb_session *s, uint32_t table, char *out, size_t len)
{
  out[0] = '\0';
  rocksdb_pinnableslice_t *v = meta_value(s, table, false);
  if (v == NULL)
    return;
  size_t vlen;
  const char *p = rocksdb_pinnableslice_value(v, &vlen);
  size_t mark = sizeof(LOADING_MARK) - 1;
  if (is_loading_mark(p, vlen) && vlen > mark + 1 && len > 0) {
    size_t n = vlen - mark - 1 < len - 1 ? vlen - mark - 1 : len - 1;
    memcpy(out, p + mark + 1, n);
    out[n] = '\0';
  }
  rocksdb_pinnableslice_destroy(v);
}

int rdb_table_meta_mark_loading(rdb_session *s, uint32_t table, const char *marker)
{
  char key[RDB_META_KEY_LEN], value[512], *err = NULL;
  rdb_meta_key(key, table);
  int len = snprintf(value, sizeof(value), "%s%s%s", LOADING_MARK,
                     marker != NULL && marker[0] != '\0' ? " " : "", marker ? marker : "");
  if (len < 0 || (size_t) len >= sizeof(value))
    len = (int) sizeof(value) - 1;
  rocksdb_put(rdb.db, s->write, key, sizeof(key), value, (size_t) len, &err);
  if (err != NULL) {
    rdb_fail(s, err, "table metadata");
    return -1;
  }
  return 0;
}
