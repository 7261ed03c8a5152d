/*
 * rdb_reads.c: the key-value forms of the bundled workloads' reads: a point select, id
 * ranges (plain, SUM, ORDER BY, DISTINCT), and reads through the secondary index on k (a
 * range with a LIMIT, random points, random ranges), or a table scan where the table has
 * none, as a server would. Each leaves the rows the SQL form returns in the session's result
 * and counts as one read query.
 */
#include <stdlib.h>
#include <string.h>

#include "rdb_params.h"
#include "rdb_reads.h"
#include "rdb_row.h"

static void read_done(db_result *rs, rdb_session *s)
{
  rs->stat_type = SB_CNT_READ;
  rs->nrows = s->result_rows;
  rs->nfields = s->result_fields;
}

driver_error_class rdb_point_select(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                    db_result *rs)
{
  char key[RDB_PRIMARY_KEY_LEN], *err = NULL;
  rdb_primary_key(key, st->table, rdb_param_int(stmt, 0));
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
driver_error_class rdb_id_range(rdb_session *s, rdb_stmt *st, const db_stmt *stmt, db_result *rs)
{
  int64_t lo = rdb_param_int(stmt, 0), hi = rdb_param_int(stmt, 1);
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
driver_error_class rdb_secondary_range(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                       db_result *rs)
{
  int64_t k = rdb_param_int(stmt, 0);
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
driver_error_class rdb_random_points(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                     db_result *rs)
{
  driver_error_class rc = DRIVER_ERROR_NONE;
  size_t n = 0;

  rdb_result_reset(s, 4);
  if (st->meta.flags & KV_TABLE_SECONDARY_INDEX) {
    for (size_t i = 0; i < stmt->param_count && rc == DRIVER_ERROR_NONE; i++) {
      int64_t k = rdb_param_int(stmt, i);
      bool seen = false;                  /* IN (...) lists a value once however often given */
      for (size_t j = 0; j < i && !seen; j++)
        seen = rdb_param_int(stmt, j) == k;
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
      ks[i] = rdb_param_int(stmt, i);
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
driver_error_class rdb_random_ranges(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                     db_result *rs)
{
  k_range ranges[512];
  size_t nr = 0;
  driver_error_class rc = DRIVER_ERROR_NONE;

  rdb_result_reset(s, 1);
  for (size_t i = 0; i + 1 < stmt->param_count && nr < 512; i += 2) {
    ranges[nr].lo = rdb_param_int(stmt, i);
    ranges[nr].hi = rdb_param_int(stmt, i + 1);
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
