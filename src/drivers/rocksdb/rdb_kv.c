/*
 * rdb_kv.c: the generic key-value API of the RocksDB driver (sysbench.kv for scripts). User
 * keys live under their own prefix, apart from the sbtest tables. Reads return rows through
 * the session's result (get and multi-get: one value column; scan: key and value), and run
 * inside the session's transaction when one is open.
 */
#include <stdlib.h>
#include <string.h>

#include "rdb.h"
#include "rdb_kv.h"

#define USER_PREFIX 'u'
#define USER_KEY_MAX 65536

/* The stored form of a user key: prefix byte + key. NULL if the key is too long. */
static const char *user_key(char *buffer, const char *key, size_t klen, size_t *out_len)
{
  if (klen > USER_KEY_MAX)
    return NULL;
  buffer[0] = USER_PREFIX;
  memcpy(buffer + 1, key, klen);
  *out_len = klen + 1;
  return buffer;
}

static driver_error_class too_long(rdb_session *s)
{
  return rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1071, "42000", "key longer than %d bytes",
                      USER_KEY_MAX);
}

static void read_result(db_result *rs, rdb_session *s)
{
  rs->stat_type = SB_CNT_READ;
  rs->nrows = s->result_rows;
  rs->nfields = s->result_fields;
}

driver_error_class rdb_kv_get(db_conn *con, const char *key, size_t klen, int for_update,
                              db_result *rs)
{
  rdb_session *s = con->ptr;
  size_t len;
  char *err = NULL;
  const char *k = user_key(s->key_buffer, key, klen, &len);
  if (k == NULL)
    return too_long(s);
  rdb_result_reset(s, 1);
  rocksdb_pinnableslice_t *v = rdb_get(s, k, len, for_update != 0, &err);
  if (err != NULL)
    return rdb_fail(s, err, "get");
  if (v != NULL) {
    size_t vl;
    const char *p = rocksdb_pinnableslice_value(v, &vl);
    rdb_result_add(s, p, vl);
    rdb_result_end_row(s);
    rocksdb_pinnableslice_destroy(v);
  }
  read_result(rs, s);
  return DRIVER_ERROR_NONE;
}

driver_error_class rdb_kv_multi_get(db_conn *con, size_t n, const char *const *keys,
                                    const size_t *klens, db_result *rs)
{
  rdb_session *s = con->ptr;
  char **stored = calloc(n ? n : 1, sizeof(char *));
  size_t *stored_len = calloc(n ? n : 1, sizeof(size_t));
  char **values = calloc(n ? n : 1, sizeof(char *));
  size_t *vlens = calloc(n ? n : 1, sizeof(size_t));
  char **errs = calloc(n ? n : 1, sizeof(char *));
  driver_error_class rc = DRIVER_ERROR_NONE;

  if (stored == NULL || stored_len == NULL || values == NULL || vlens == NULL || errs == NULL) {
    rc = rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1037, "HY001", "Out of memory");
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    if (klens[i] > USER_KEY_MAX) {
      rc = too_long(s);
      goto out;
    }
    stored[i] = malloc(klens[i] + 1);
    if (stored[i] == NULL) {
      rc = rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1037, "HY001", "Out of memory");
      goto out;
    }
    user_key(stored[i], keys[i], klens[i], &stored_len[i]);
  }
  rdb_multi_get(s, n, (const char *const *) stored, stored_len, values, vlens, errs);
  rdb_result_reset(s, 1);
  for (size_t i = 0; i < n; i++) {
    if (errs[i] != NULL) {
      if (rc == DRIVER_ERROR_NONE)
        rc = rdb_fail(s, errs[i], "multi-get");
      else
        rocksdb_free(errs[i]);
    } else if (values[i] != NULL) {
      rdb_result_add(s, values[i], vlens[i]);
    } else {
      rdb_result_add_null(s);
    }
    rdb_result_end_row(s);
    if (values[i] != NULL)
      rocksdb_free(values[i]);
  }
  if (rc == DRIVER_ERROR_NONE)
    read_result(rs, s);
out:
  for (size_t i = 0; stored != NULL && i < n; i++)
    free(stored[i]);
  free(stored);
  free(stored_len);
  free(values);
  free(vlens);
  free(errs);
  return rc;
}

driver_error_class rdb_kv_scan(db_conn *con, const char *start, size_t start_len, const char *upper,
                               size_t upper_len, uint32_t limit, db_result *rs)
{
  rdb_session *s = con->ptr;
  size_t sl, ul;
  char *err = NULL;
  const char *k = user_key(s->key_buffer, start, start_len, &sl);
  const char *u;
  if (upper != NULL) {
    u = user_key(s->upper_buffer, upper, upper_len, &ul);
  } else {                               /* no bound: the end of the user key space */
    s->upper_buffer[0] = USER_PREFIX + 1;
    u = s->upper_buffer;
    ul = 1;
  }
  if (k == NULL || u == NULL)
    return too_long(s);

  rdb_result_reset(s, 2);
  rocksdb_iterator_t *it = rdb_iterator(s, u, ul);
  uint32_t n = 0;
  for (rocksdb_iter_seek(it, k, sl); rocksdb_iter_valid(it) && (limit == 0 || n < limit);
       rocksdb_iter_next(it), n++) {
    size_t kl, vl;
    const char *key = rocksdb_iter_key(it, &kl);
    const char *value = rocksdb_iter_value(it, &vl);
    rdb_result_add(s, key + 1, kl - 1);
    rdb_result_add(s, value, vl);
    rdb_result_end_row(s);
  }
  rocksdb_iter_get_error(it, &err);
  rocksdb_iter_destroy(it);
  if (err != NULL)
    return rdb_fail(s, err, "scan");
  read_result(rs, s);
  return DRIVER_ERROR_NONE;
}

/* A single put or delete: one atomic write (or part of the open transaction). */
static driver_error_class write_one(rdb_session *s, const char *key, size_t klen, const char *value,
                                    size_t vlen, bool put, db_result *rs)
{
  size_t len;
  char *err = NULL;
  const char *k = user_key(s->key_buffer, key, klen, &len);
  if (k == NULL)
    return too_long(s);
  if (put)
    rdb_put(s, k, len, value, vlen, &err);
  else
    rdb_delete(s, k, len, &err);
  if (rdb_apply(s, &err) != 0)
    return rdb_fail(s, err, put ? "put" : "delete");
  rs->stat_type = SB_CNT_WRITE;
  rs->nrows = 1;
  return DRIVER_ERROR_NONE;
}

driver_error_class rdb_kv_put(db_conn *con, const char *key, size_t klen, const char *value,
                              size_t vlen, db_result *rs)
{
  return write_one(con->ptr, key, klen, value, vlen, true, rs);
}

driver_error_class rdb_kv_delete(db_conn *con, const char *key, size_t klen, db_result *rs)
{
  return write_one(con->ptr, key, klen, NULL, 0, false, rs);
}

static rocksdb_writebatch_t *user_batch(rdb_session *s)
{
  if (s->user_batch == NULL)
    s->user_batch = rocksdb_writebatch_create();
  return s->user_batch;
}

int rdb_kv_batch_put(db_conn *con, const char *key, size_t klen, const char *value, size_t vlen)
{
  rdb_session *s = con->ptr;
  size_t len;
  const char *k = user_key(s->key_buffer, key, klen, &len);
  if (k == NULL) {
    too_long(s);
    return -1;
  }
  rocksdb_writebatch_put(user_batch(s), k, len, value, vlen);
  return 0;
}

int rdb_kv_batch_delete(db_conn *con, const char *key, size_t klen)
{
  rdb_session *s = con->ptr;
  size_t len;
  const char *k = user_key(s->key_buffer, key, klen, &len);
  if (k == NULL) {
    too_long(s);
    return -1;
  }
  rocksdb_writebatch_delete(user_batch(s), k, len);
  return 0;
}

/* Write the batch atomically; inside a transaction its operations join the transaction. */
static void replay_put(void *state, const char *k, size_t kl, const char *v, size_t vl)
{
  rdb_session *s = state;
  rdb_put(s, k, kl, v, vl, &s->replay_error);
}

static void replay_delete(void *state, const char *k, size_t kl)
{
  rdb_session *s = state;
  rdb_delete(s, k, kl, &s->replay_error);
}

driver_error_class rdb_kv_batch_write(db_conn *con, db_result *rs)
{
  rdb_session *s = con->ptr;
  rocksdb_writebatch_t *b = user_batch(s);
  char *err = NULL;
  int count = rocksdb_writebatch_count(b);

  s->replay_error = NULL;
  rocksdb_writebatch_iterate(b, s, replay_put, replay_delete);
  err = s->replay_error;
  rocksdb_writebatch_clear(b);
  if (rdb_apply(s, &err) != 0)
    return rdb_fail(s, err, "batch write");
  rs->stat_type = count > 0 ? SB_CNT_WRITE : SB_CNT_OTHER;
  rs->nrows = (uint32_t) count;
  return DRIVER_ERROR_NONE;
}

void rdb_kv_batch_clear(db_conn *con)
{
  rdb_session *s = con->ptr;
  if (s->user_batch != NULL)
    rocksdb_writebatch_clear(s->user_batch);
}
