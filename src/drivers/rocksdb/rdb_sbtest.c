/*
 * rdb_sbtest.c: the key-value forms of the bundled workloads' statements on the sbtest
 * tables. Each does the work its SQL form makes a server do (a point read, a bounded scan,
 * an index entry moved, rows fetched by secondary key ...) and reports what the SQL form
 * would: a read returns rows (counted as one read query), a write that changed a row is a
 * write, one that found nothing is "other" - so counts match the MySQL driver's.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rdb.h"
#include "rdb_sbtest.h"

static const struct {
  const char *name;
  rdb_op op;
} op_names[] = {
  {"point_selects", RDB_OP_POINT_SELECT},
  {"simple_ranges", RDB_OP_SIMPLE_RANGE},
  {"sum_ranges", RDB_OP_SUM_RANGE},
  {"order_ranges", RDB_OP_ORDER_RANGE},
  {"distinct_ranges", RDB_OP_DISTINCT_RANGE},
  {"index_updates", RDB_OP_INDEX_UPDATE},
  {"non_index_updates", RDB_OP_NON_INDEX_UPDATE},
  {"deletes", RDB_OP_DELETE},
  {"inserts", RDB_OP_INSERT},
  {"secondary_ranges", RDB_OP_SECONDARY_RANGE},
  {"random_points", RDB_OP_RANDOM_POINTS},
  {"random_ranges", RDB_OP_RANDOM_RANGES},
  {"bulk_inserts", RDB_OP_INSERT},
};

bool rdb_op_parse(const char *name, rdb_op *op)
{
  for (size_t i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++)
    if (strcmp(name, op_names[i].name) == 0) {
      *op = op_names[i].op;
      return true;
    }
  return false;
}

/* ------------------------------------------------------------------------------------------ */
/* Rows and parameters                                                                        */
/* ------------------------------------------------------------------------------------------ */

size_t rdb_row_encode(char *out, int64_t k, const char *c, size_t c_len, const char *pad,
                      size_t pad_len)
{
  size_t n = 0;
  memcpy(out, &k, 8);
  n += 8;
  out[n++] = (char) (c_len & 0xff);
  out[n++] = (char) (c_len >> 8);
  memcpy(out + n, c, c_len);
  n += c_len;
  out[n++] = (char) (pad_len & 0xff);
  out[n++] = (char) (pad_len >> 8);
  memcpy(out + n, pad, pad_len);
  return n + pad_len;
}

bool rdb_row_decode(const char *v, size_t len, rdb_row *row)
{
  if (len < 12)
    return false;
  memcpy(&row->k, v, 8);
  row->c_len = (uint16_t) ((unsigned char) v[8] | (unsigned char) v[9] << 8);
  if (10 + (size_t) row->c_len + 2 > len)
    return false;
  row->c = v + 10;
  size_t at = 10 + row->c_len;
  row->pad_len = (uint16_t) ((unsigned char) v[at] | (unsigned char) v[at + 1] << 8);
  if (at + 2 + row->pad_len > len)
    return false;
  row->pad = v + at + 2;
  return true;
}

static int64_t param_int(const db_stmt *stmt, size_t i)
{
  if (i >= stmt->param_count)
    return 0;
  const db_bind_t *p = &stmt->params[i];
  if (p->is_null != NULL && *p->is_null)
    return 0;
  switch (p->type) {
    case DB_TYPE_TINYINT:  return *(int8_t *) p->buffer;
    case DB_TYPE_SMALLINT: return *(int16_t *) p->buffer;
    case DB_TYPE_INT:      return *(int32_t *) p->buffer;
    case DB_TYPE_BIGINT:   return *(int64_t *) p->buffer;
    case DB_TYPE_FLOAT:    return (int64_t) *(float *) p->buffer;
    case DB_TYPE_DOUBLE:   return (int64_t) *(double *) p->buffer;
    case DB_TYPE_CHAR:
    case DB_TYPE_VARCHAR:  return strtoll(p->buffer, NULL, 10);
    default:               return 0;
  }
}

static rdb_slice param_str(const db_stmt *stmt, size_t i)
{
  rdb_slice s = {"", 0};
  if (i < stmt->param_count) {
    const db_bind_t *p = &stmt->params[i];
    if ((p->type == DB_TYPE_CHAR || p->type == DB_TYPE_VARCHAR) &&
        !(p->is_null != NULL && *p->is_null)) {
      s.ptr = p->buffer;
      s.len = (uint32_t) (p->data_len ? *p->data_len : 0);
      if (s.len > p->max_len)
        s.len = (uint32_t) p->max_len;
    }
  }
  return s;
}

/* ------------------------------------------------------------------------------------------ */
/* Metadata and auto-increment                                                                */
/* ------------------------------------------------------------------------------------------ */

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

#define AUTO_INC_SLOTS 4096

static struct {
  pthread_mutex_t mutex;
  int64_t next[AUTO_INC_SLOTS];        /* 0 = not read from the database yet */
} auto_inc = { PTHREAD_MUTEX_INITIALIZER, {0} };

/* The highest id in the table + 1 (1 for an empty table). */
static int64_t first_free_id(rdb_session *s, uint32_t table)
{
  char end[6], start[RDB_PRIMARY_KEY_LEN];
  rdb_index_end(end, table, 'p');
  rdb_primary_key(start, table, INT64_MIN);
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_iterator_t *it = rdb.txn_db != NULL ? rocksdb_transactiondb_create_iterator(rdb.txn_db,
                                                                                      ro)
                                              : rocksdb_create_iterator(rdb.db, ro);
  int64_t next = 1;
  (void) s;
  rocksdb_iter_seek_for_prev(it, end, sizeof(end));
  if (rocksdb_iter_valid(it)) {
    size_t kl;
    const char *k = rocksdb_iter_key(it, &kl);
    if (kl == RDB_PRIMARY_KEY_LEN && memcmp(k, start, 6) == 0)
      next = rdb_get_i64(k + 6) + 1;
  }
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_destroy(ro);
  return next > 0 ? next : 1;
}

int64_t rdb_next_auto_id(rdb_session *s, uint32_t table)
{
  uint32_t slot = table % AUTO_INC_SLOTS;
  int64_t *counter = &auto_inc.next[slot];

  if (__atomic_load_n(counter, __ATOMIC_ACQUIRE) == 0) {
    pthread_mutex_lock(&auto_inc.mutex);
    if (*counter == 0)
      __atomic_store_n(counter, first_free_id(s, table), __ATOMIC_RELEASE);
    pthread_mutex_unlock(&auto_inc.mutex);
  }
  return __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------------------------------ */
/* Reads                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void read_done(db_result *rs, rdb_session *s)
{
  rs->stat_type = SB_CNT_READ;
  rs->nrows = s->result_rows;
  rs->nfields = s->result_fields;
}

static driver_error_class point_select(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                       db_result *rs)
{
  char key[RDB_PRIMARY_KEY_LEN], *err = NULL;
  rdb_primary_key(key, st->table, param_int(stmt, 0));
  rdb_result_reset(s, 1);
  rocksdb_pinnableslice_t *v = rdb_get(s, key, sizeof(key), false, &err);
  if (err != NULL)
    return rdb_fail(s, err, "point select");
  if (v != NULL) {
    size_t len;
    const char *p = rocksdb_pinnableslice_value(v, &len);
    rdb_row row;
    if (rdb_row_decode(p, len, &row)) {
      rdb_result_add(s, row.c, row.c_len);
      rdb_result_end_row(s);
    }
    rocksdb_pinnableslice_destroy(v);
  }
  read_done(rs, s);
  return DRIVER_ERROR_NONE;
}

typedef struct {
  uint32_t offset;     /* into the session arena */
  uint32_t len;
} c_ref;

/* Byte order of two staged c values (arena passed by qsort_r, so threads do not share it). */
static int compare_c(const void *a, const void *b, void *arena)
{
  const c_ref *x = a, *y = b;
  const char *base = arena;
  uint32_t n = x->len < y->len ? x->len : y->len;
  int d = memcmp(base + x->offset, base + y->offset, n);
  return d != 0 ? d : (int) x->len - (int) y->len;
}

/* id BETWEEN lo AND hi over the primary index; what is returned depends on the statement. */
static driver_error_class id_range(rdb_session *s, rdb_stmt *st, const db_stmt *stmt, db_result *rs)
{
  int64_t lo = param_int(stmt, 0), hi = param_int(stmt, 1);
  char start[RDB_PRIMARY_KEY_LEN], upper[RDB_PRIMARY_KEY_LEN];
  int64_t sum = 0;
  bool any = false;

  rdb_result_reset(s, 1);
  if (hi < lo) {
    if (st->op == RDB_OP_SUM_RANGE) {
      rdb_result_add_null(s);
      rdb_result_end_row(s);
    }
    read_done(rs, s);
    return DRIVER_ERROR_NONE;
  }
  rdb_primary_key(start, st->table, lo);
  if (hi == INT64_MAX)
    rdb_index_end(upper, st->table, 'p');
  else
    rdb_primary_key(upper, st->table, hi + 1);
  rocksdb_iterator_t *it = rdb_iterator(s, upper, hi == INT64_MAX ? 6 : sizeof(upper));

  /* ORDER BY / DISTINCT need all c values first: collected in the arena, sorted after. */
  c_ref *refs = NULL;
  size_t nrefs = 0, cap = 0;
  for (rocksdb_iter_seek(it, start, sizeof(start)); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
    size_t len;
    const char *v = rocksdb_iter_value(it, &len);
    rdb_row row;
    if (!rdb_row_decode(v, len, &row))
      continue;
    switch (st->op) {
      case RDB_OP_SUM_RANGE:
        sum += row.k;
        any = true;
        break;
      case RDB_OP_SIMPLE_RANGE:
        rdb_result_add(s, row.c, row.c_len);
        rdb_result_end_row(s);
        break;
      default:
        if (nrefs == cap) {
          cap = cap ? cap * 2 : 128;
          c_ref *grown = realloc(refs, cap * sizeof(*refs));
          if (grown == NULL)
            break;
          refs = grown;
        }
        refs[nrefs].offset = (uint32_t) s->arena_used;
        refs[nrefs].len = row.c_len;
        rdb_result_add(s, row.c, row.c_len);     /* staged in the arena, values dropped below */
        nrefs++;
        break;
    }
  }
  char *err = NULL;
  rocksdb_iter_get_error(it, &err);
  rocksdb_iter_destroy(it);
  if (err != NULL) {
    free(refs);
    return rdb_fail(s, err, "range scan");
  }

  if (st->op == RDB_OP_SUM_RANGE) {
    if (any)
      rdb_result_add_i64(s, sum);
    else
      rdb_result_add_null(s);
    rdb_result_end_row(s);
  } else if (st->op == RDB_OP_ORDER_RANGE || st->op == RDB_OP_DISTINCT_RANGE) {
    qsort_r(refs, nrefs, sizeof(*refs), compare_c, s->arena);
    s->value_count = 0;                    /* re-emit the staged values in sorted order */
    for (size_t i = 0; i < nrefs; i++) {
      if (st->op == RDB_OP_DISTINCT_RANGE && i > 0 && compare_c(&refs[i - 1], &refs[i],
          s->arena) == 0)
        continue;
      db_value_t *v = &s->values[s->value_count++];
      v->ptr = (const char *) (uintptr_t) (refs[i].offset + 1);
      v->len = refs[i].len;
    }
    s->result_rows = (uint32_t) s->value_count;
  }
  free(refs);
  read_done(rs, s);
  return DRIVER_ERROR_NONE;
}

/* ------------------------------------------------------------------------------------------ */
/* Reads through the secondary index                                                          */
/* ------------------------------------------------------------------------------------------ */

static int grow_ids(rdb_session *s, size_t need)
{
  if (need <= s->ids_capacity)
    return 0;
  size_t capacity = s->ids_capacity ? s->ids_capacity * 2 : 256;
  while (capacity < need)
    capacity *= 2;
  uint64_t *grown = realloc(s->ids, capacity * sizeof(*grown));
  if (grown == NULL)
    return -1;
  s->ids = grown;
  s->ids_capacity = capacity;
  return 0;
}

/* Ids of index entries from secondary key (k_from) on, while k <= k_to, at most `limit`
   (0 = no limit); appended to s->ids at *count. */
static char *collect_ids(rdb_session *s, uint32_t table, int64_t k_from, int64_t k_to,
                         uint32_t limit, size_t *count)
{
  char start[RDB_SECONDARY_KEY_LEN], upper[RDB_SECONDARY_KEY_LEN];
  char *err = NULL;
  size_t taken = 0;

  rdb_secondary_key(start, table, k_from, INT64_MIN);
  size_t upper_len = sizeof(upper);
  if (k_to == INT64_MAX) {
    rdb_index_end(upper, table, 's');
    upper_len = 6;
  } else {
    rdb_secondary_key(upper, table, k_to + 1, INT64_MIN);
  }
  rocksdb_iterator_t *it = rdb_iterator(s, upper, upper_len);
  for (rocksdb_iter_seek(it, start, sizeof(start));
       rocksdb_iter_valid(it) && (limit == 0 || taken < limit); rocksdb_iter_next(it)) {
    size_t kl;
    const char *key = rocksdb_iter_key(it, &kl);
    if (kl != RDB_SECONDARY_KEY_LEN || grow_ids(s, *count + 1) != 0)
      break;
    s->ids[(*count)++] = (uint64_t) rdb_get_i64(key + 14);
    taken++;
  }
  rocksdb_iter_get_error(it, &err);
  rocksdb_iter_destroy(it);
  return err;
}

/* Fetch the rows of s->ids[0..n) with one multi-get; emit the wanted columns. */
static driver_error_class fetch_rows(rdb_session *s, uint32_t table, size_t n, bool all_columns)
{
  if (n == 0)
    return DRIVER_ERROR_NONE;
  /* One scratch block: five word arrays (key pointers, key lengths, values, value lengths,
     errors), then the key bytes. */
  size_t need = n * (5 * sizeof(void *) + RDB_PRIMARY_KEY_LEN);
  if (need > s->keys_capacity) {
    char *grown = realloc(s->keys, need);
    if (grown == NULL)
      return rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1037, "HY001", "Out of memory");
    s->keys = grown;
    s->keys_capacity = need;
  }
  const char **keys = (const char **) s->keys;
  size_t *klens = (size_t *) (keys + n);
  char **values = (char **) (klens + n);
  size_t *vlens = (size_t *) (values + n);
  char **errs = (char **) (vlens + n);
  char *key_bytes = (char *) (errs + n);

  for (size_t i = 0; i < n; i++) {
    rdb_primary_key(key_bytes + i * RDB_PRIMARY_KEY_LEN, table, (int64_t) s->ids[i]);
    keys[i] = key_bytes + i * RDB_PRIMARY_KEY_LEN;
    klens[i] = RDB_PRIMARY_KEY_LEN;
  }
  rdb_multi_get(s, n, keys, klens, values, vlens, errs);

  char *first_error = NULL;
  for (size_t i = 0; i < n; i++) {
    rdb_row row;
    if (errs[i] != NULL) {
      if (first_error == NULL)
        first_error = errs[i];
      else
        rocksdb_free(errs[i]);
    } else if (values[i] != NULL && rdb_row_decode(values[i], vlens[i], &row)) {
      if (all_columns) {
        rdb_result_add_i64(s, (int64_t) s->ids[i]);
        rdb_result_add_i64(s, row.k);
        rdb_result_add(s, row.c, row.c_len);
        rdb_result_add(s, row.pad, row.pad_len);
      } else {
        rdb_result_add(s, row.c, row.c_len);
      }
      rdb_result_end_row(s);
    }
    if (values[i] != NULL)
      rocksdb_free(values[i]);
  }
  return first_error != NULL ? rdb_fail(s, first_error, "multi-get") : DRIVER_ERROR_NONE;
}

/* Without a secondary index the server scans the table: so do we. Rows with k in
   [k_from, k_to] in id order, at most `limit`, each emitted as the statement wants. */
static driver_error_class scan_by_k(rdb_session *s, uint32_t table, const int64_t *ks, size_t nks,
                                    int64_t k_from, int64_t k_to, uint32_t limit, int mode)
{
  char start[RDB_PRIMARY_KEY_LEN], upper[6], *err = NULL;
  uint32_t found = 0;
  int64_t count = 0;

  rdb_primary_key(start, table, INT64_MIN);
  rdb_index_end(upper, table, 'p');
  rocksdb_iterator_t *it = rdb_iterator(s, upper, sizeof(upper));
  for (rocksdb_iter_seek(it, start, sizeof(start));
       rocksdb_iter_valid(it) && (limit == 0 || found < limit); rocksdb_iter_next(it)) {
    size_t kl, vl;
    const char *key = rocksdb_iter_key(it, &kl);
    const char *v = rocksdb_iter_value(it, &vl);
    rdb_row row;
    if (!rdb_row_decode(v, vl, &row))
      continue;
    bool match = false;
    if (ks != NULL) {
      for (size_t i = 0; i < nks && !match; i++)
        match = ks[i] == row.k;
    } else {
      match = row.k >= k_from && row.k <= k_to;
    }
    if (!match)
      continue;
    found++;
    if (mode == 0) {                      /* SELECT c */
      rdb_result_add(s, row.c, row.c_len);
      rdb_result_end_row(s);
    } else if (mode == 1) {               /* SELECT id, k, c, pad */
      rdb_result_add_i64(s, rdb_get_i64(key + 6));
      rdb_result_add_i64(s, row.k);
      rdb_result_add(s, row.c, row.c_len);
      rdb_result_add(s, row.pad, row.pad_len);
      rdb_result_end_row(s);
    } else {                              /* count(k) */
      count++;
    }
  }
  rocksdb_iter_get_error(it, &err);
  rocksdb_iter_destroy(it);
  if (err != NULL)
    return rdb_fail(s, err, "table scan");
  if (mode == 2) {
    rdb_result_add_i64(s, count);
    rdb_result_end_row(s);
  }
  return DRIVER_ERROR_NONE;
}

/* SELECT c FROM sbtestN WHERE k >= ? LIMIT n */
static driver_error_class secondary_range(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                          db_result *rs)
{
  int64_t k = param_int(stmt, 0);
  driver_error_class rc;
  size_t n = 0;

  rdb_result_reset(s, 1);
  if (st->meta.flags & KV_TABLE_SECONDARY_INDEX) {
    char *err = collect_ids(s, st->table, k, INT64_MAX, st->limit, &n);
    rc = err != NULL ? rdb_fail(s, err, "secondary range") : fetch_rows(s, st->table, n, false);
  } else {
    rc = scan_by_k(s, st->table, NULL, 0, k, INT64_MAX, st->limit, 0);
  }
  if (rc == DRIVER_ERROR_NONE)
    read_done(rs, s);
  return rc;
}

/* SELECT id, k, c, pad FROM sbtest1 WHERE k IN (?, ...) */
static driver_error_class random_points(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                        db_result *rs)
{
  driver_error_class rc = DRIVER_ERROR_NONE;
  size_t n = 0;

  rdb_result_reset(s, 4);
  if (st->meta.flags & KV_TABLE_SECONDARY_INDEX) {
    for (size_t i = 0; i < stmt->param_count && rc == DRIVER_ERROR_NONE; i++) {
      int64_t k = param_int(stmt, i);
      bool seen = false;                  /* IN (...) lists a value once however often given */
      for (size_t j = 0; j < i && !seen; j++)
        seen = param_int(stmt, j) == k;
      char *err = seen ? NULL : collect_ids(s, st->table, k, k, 0, &n);
      if (err != NULL)
        rc = rdb_fail(s, err, "random points");
    }
    if (rc == DRIVER_ERROR_NONE)
      rc = fetch_rows(s, st->table, n, true);
  } else {
    int64_t ks[1024];
    size_t nks = stmt->param_count < 1024 ? stmt->param_count : 1024;
    for (size_t i = 0; i < nks; i++)
      ks[i] = param_int(stmt, i);
    rc = scan_by_k(s, st->table, ks, nks, 0, 0, 0, 1);
  }
  if (rc == DRIVER_ERROR_NONE)
    read_done(rs, s);
  return rc;
}

typedef struct {
  int64_t lo, hi;
} k_range;

static int compare_range(const void *a, const void *b)
{
  const k_range *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* SELECT count(k) FROM sbtest1 WHERE k BETWEEN ? AND ? OR ... : a row in two ranges counts
   once, so the ranges are merged first. */
static driver_error_class random_ranges(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                        db_result *rs)
{
  k_range ranges[512];
  size_t nr = 0;
  driver_error_class rc = DRIVER_ERROR_NONE;

  rdb_result_reset(s, 1);
  for (size_t i = 0; i + 1 < stmt->param_count && nr < 512; i += 2) {
    ranges[nr].lo = param_int(stmt, i);
    ranges[nr].hi = param_int(stmt, i + 1);
    if (ranges[nr].lo <= ranges[nr].hi)
      nr++;
  }
  qsort(ranges, nr, sizeof(ranges[0]), compare_range);
  size_t merged = 0;
  for (size_t i = 0; i < nr; i++) {
    if (merged > 0 && ranges[i].lo <= ranges[merged - 1].hi + 1) {
      if (ranges[i].hi > ranges[merged - 1].hi)
        ranges[merged - 1].hi = ranges[i].hi;
    } else {
      ranges[merged++] = ranges[i];
    }
  }

  if (!(st->meta.flags & KV_TABLE_SECONDARY_INDEX)) {
    int64_t total = 0;
    for (size_t i = 0; i < merged && rc == DRIVER_ERROR_NONE; i++) {
      rdb_result_reset(s, 1);
      rc = scan_by_k(s, st->table, NULL, 0, ranges[i].lo, ranges[i].hi, 0, 2);
      if (rc == DRIVER_ERROR_NONE && s->value_count > 0)
        total += strtoll(s->arena + ((uintptr_t) s->values[0].ptr - 1), NULL, 10);
    }
    rdb_result_reset(s, 1);
    rdb_result_add_i64(s, total);
    rdb_result_end_row(s);
  } else {
    int64_t total = 0;
    for (size_t i = 0; i < merged && rc == DRIVER_ERROR_NONE; i++) {
      size_t n = 0;
      char *err = collect_ids(s, st->table, ranges[i].lo, ranges[i].hi, 0, &n);
      if (err != NULL)
        rc = rdb_fail(s, err, "random ranges");
      total += (int64_t) n;
    }
    rdb_result_add_i64(s, total);
    rdb_result_end_row(s);
  }
  if (rc == DRIVER_ERROR_NONE)
    read_done(rs, s);
  return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Writes                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* A write statement runs in the open transaction, or in one of its own when the database
   has transactions, so its read-modify-write is atomic. */
static bool statement_begin(rdb_session *s)
{
  if (s->txn != NULL || rdb.mode == RDB_TXN_NONE)
    return false;
  rdb_begin(s, false);
  return true;
}

/* Finish: write the batch (no transaction) or commit the statement's own transaction. */
static driver_error_class statement_end(rdb_session *s, bool own_txn, char *err, const char *what,
                                        db_result *rs, bool changed)
{
  if (err == NULL)
    rdb_apply(s, &err);
  if (err != NULL) {
    if (own_txn)
      rdb_rollback(s);
    return rdb_fail(s, err, what);
  }
  if (own_txn && rdb_commit(s) != 0)
    return s->con->error_class;
  rs->stat_type = changed ? SB_CNT_WRITE : SB_CNT_OTHER;
  rs->nrows = changed ? 1 : 0;
  return DRIVER_ERROR_NONE;
}

/* Read the row of `id` for update; *found false if there is none. */
static char *read_for_update(rdb_session *s, uint32_t table, int64_t id, char *value,
                             size_t *vlen, bool *found)
{
  char key[RDB_PRIMARY_KEY_LEN], *err = NULL;
  rdb_primary_key(key, table, id);
  rocksdb_pinnableslice_t *v = rdb_get(s, key, sizeof(key), true, &err);
  *found = false;
  if (v != NULL) {
    size_t len;
    const char *p = rocksdb_pinnableslice_value(v, &len);
    if (len <= RDB_ROW_MAX) {
      memcpy(value, p, len);
      *vlen = len;
      *found = true;
    }
    rocksdb_pinnableslice_destroy(v);
  }
  return err;
}

/* UPDATE sbtestN SET k=k+1 WHERE id=?  (row written, index entry moved) */
static driver_error_class index_update(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                       db_result *rs)
{
  int64_t id = param_int(stmt, 0);
  bool own = statement_begin(s), found;
  size_t len = 0;
  char *err = read_for_update(s, st->table, id, s->row_buffer, &len, &found);
  rdb_row row;

  if (err == NULL && found && rdb_row_decode(s->row_buffer, len, &row)) {
    char key[RDB_PRIMARY_KEY_LEN], sec[RDB_SECONDARY_KEY_LEN];
    int64_t old_k = row.k, new_k = row.k + 1;
    memcpy(s->row_buffer, &new_k, 8);
    rdb_primary_key(key, st->table, id);
    rdb_put(s, key, sizeof(key), s->row_buffer, len, &err);
    if (st->meta.flags & KV_TABLE_SECONDARY_INDEX) {
      rdb_secondary_key(sec, st->table, old_k, id);
      rdb_delete(s, sec, sizeof(sec), &err);
      rdb_secondary_key(sec, st->table, new_k, id);
      rdb_put(s, sec, sizeof(sec), "", 0, &err);
    }
  } else {
    found = false;
  }
  return statement_end(s, own, err, "index update", rs, found);
}

/* UPDATE sbtestN SET c=? WHERE id=? */
static driver_error_class non_index_update(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                           db_result *rs)
{
  rdb_slice c = param_str(stmt, 0);
  int64_t id = param_int(stmt, 1);
  bool own = statement_begin(s), found, changed = false;
  size_t len = 0;
  char *err = read_for_update(s, st->table, id, s->row_buffer, &len, &found);
  rdb_row row;

  if (err == NULL && found && rdb_row_decode(s->row_buffer, len, &row)) {
    /* As in MySQL, setting the value a row already has changes nothing. */
    changed = !(row.c_len == c.len && memcmp(row.c, c.ptr, c.len) == 0);
    if (changed) {
      char key[RDB_PRIMARY_KEY_LEN];
      size_t n = rdb_row_encode(s->new_row_buffer, row.k, c.ptr, c.len, row.pad, row.pad_len);
      rdb_primary_key(key, st->table, id);
      rdb_put(s, key, sizeof(key), s->new_row_buffer, n, &err);
    }
  }
  return statement_end(s, own, err, "non-index update", rs, changed);
}

/* DELETE FROM sbtestN WHERE id=? */
static driver_error_class delete_row(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                     db_result *rs)
{
  int64_t id = param_int(stmt, 0);
  bool own = statement_begin(s), found;
  size_t len = 0;
  char *err = read_for_update(s, st->table, id, s->row_buffer, &len, &found);
  rdb_row row;

  if (err == NULL && found && rdb_row_decode(s->row_buffer, len, &row)) {
    char key[RDB_PRIMARY_KEY_LEN], sec[RDB_SECONDARY_KEY_LEN];
    rdb_primary_key(key, st->table, id);
    rdb_delete(s, key, sizeof(key), &err);
    if (st->meta.flags & KV_TABLE_SECONDARY_INDEX) {
      rdb_secondary_key(sec, st->table, row.k, id);
      rdb_delete(s, sec, sizeof(sec), &err);
    }
  } else {
    found = false;
  }
  return statement_end(s, own, err, "delete", rs, found);
}

/* INSERT INTO sbtestN (id, k, c, pad) VALUES (?, ?, ?, ?); id 0 takes the next
   auto-increment value; an existing id is MySQL's duplicate-key error 1062. Without
   transactions (--rocksdb-txn=none) there is no isolation to make that check meaningful:
   the row is simply written, replacing an existing one and its index entry. */
static driver_error_class insert_row(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                     db_result *rs)
{
  int64_t id = param_int(stmt, 0), k = param_int(stmt, 1);
  rdb_slice c = param_str(stmt, 2), pad = param_str(stmt, 3);
  bool own, found;
  size_t len = 0;
  rdb_row old;

  if (id == 0 && (st->meta.flags & KV_TABLE_AUTO_INC))
    id = rdb_next_auto_id(s, st->table);
  own = statement_begin(s);
  char *err = read_for_update(s, st->table, id, s->row_buffer, &len, &found);
  if (err == NULL && found && rdb.mode == RDB_TXN_NONE &&
      rdb_row_decode(s->row_buffer, len, &old) && (st->meta.flags & KV_TABLE_SECONDARY_INDEX)) {
    char sec[RDB_SECONDARY_KEY_LEN];
    rdb_secondary_key(sec, st->table, old.k, id);
    rdb_delete(s, sec, sizeof(sec), &err);
  } else if (err == NULL && found) {
    if (own)
      rdb_rollback(s);
    return rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1062, "23000",
                        "Duplicate entry '%lld' for key 'PRIMARY'", (long long) id);
  }
  char key[RDB_PRIMARY_KEY_LEN], sec[RDB_SECONDARY_KEY_LEN];
  size_t n = rdb_row_encode(s->new_row_buffer, k, c.ptr, c.len, pad.ptr, pad.len);
  rdb_primary_key(key, st->table, id);
  rdb_put(s, key, sizeof(key), s->new_row_buffer, n, &err);
  if (st->meta.flags & KV_TABLE_SECONDARY_INDEX) {
    rdb_secondary_key(sec, st->table, k, id);
    rdb_put(s, sec, sizeof(sec), "", 0, &err);
  }
  return statement_end(s, own, err, "insert", rs, true);
}

/* ------------------------------------------------------------------------------------------ */

driver_error_class rdb_sbtest_execute(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                      db_result *rs)
{
  switch (st->op) {
    case RDB_OP_POINT_SELECT:     return point_select(s, st, stmt, rs);
    case RDB_OP_SIMPLE_RANGE:
    case RDB_OP_SUM_RANGE:
    case RDB_OP_ORDER_RANGE:
    case RDB_OP_DISTINCT_RANGE:   return id_range(s, st, stmt, rs);
    case RDB_OP_INDEX_UPDATE:     return index_update(s, st, stmt, rs);
    case RDB_OP_NON_INDEX_UPDATE: return non_index_update(s, st, stmt, rs);
    case RDB_OP_DELETE:           return delete_row(s, st, stmt, rs);
    case RDB_OP_INSERT:           return insert_row(s, st, stmt, rs);
    case RDB_OP_SECONDARY_RANGE:  return secondary_range(s, st, stmt, rs);
    case RDB_OP_RANDOM_POINTS:    return random_points(s, st, stmt, rs);
    case RDB_OP_RANDOM_RANGES:    return random_ranges(s, st, stmt, rs);
  }
  return rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1064, "42000", "unknown key-value statement");
}

/* ------------------------------------------------------------------------------------------ */
/* Multi-row inserts into (id, k) tables                                                      */
/* ------------------------------------------------------------------------------------------ */

int rdb_bulk_add(rdb_session *s, uint32_t table, int64_t id, int64_t k)
{
  char key[RDB_PRIMARY_KEY_LEN], value[16];
  size_t n = rdb_row_encode(value, k, "", 0, "", 0);
  if (s->bulk_batch == NULL)
    s->bulk_batch = rocksdb_writebatch_create();
  rdb_primary_key(key, table, id);
  rocksdb_writebatch_put(s->bulk_batch, key, sizeof(key), value, n);
  return 0;
}

/* Write the gathered rows atomically, like one multi-row INSERT statement. */
driver_error_class rdb_bulk_flush(rdb_session *s, db_result *rs)
{
  char *err = NULL;
  int rows = s->bulk_batch != NULL ? rocksdb_writebatch_count(s->bulk_batch) : 0;
  if (rows > 0) {
    if (rdb.txn_db != NULL)
      rocksdb_transactiondb_write(rdb.txn_db, s->write, s->bulk_batch, &err);
    else
      rocksdb_write(rdb.db, s->write, s->bulk_batch, &err);
    rocksdb_writebatch_clear(s->bulk_batch);
    if (err != NULL)
      return rdb_fail(s, err, "multi-row insert");
  }
  rs->stat_type = rows > 0 ? SB_CNT_WRITE : SB_CNT_OTHER;
  rs->nrows = (uint32_t) rows;
  return DRIVER_ERROR_NONE;
}
