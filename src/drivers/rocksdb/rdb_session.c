/*
 * rdb_session.c: what one connection does with the database: reads and writes through its
 * transaction when one is open (BEGIN ... COMMIT, or the implicit one of a read-modify-write
 * statement), directly otherwise; turns RocksDB errors into SQL-like ones; and collects the
 * rows of the last read for fetch_row.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdb.h"

rdb_session *rdb_session_new(db_conn *con)
{
  rdb_session *s = calloc(1, sizeof(*s));
  if (s == NULL)
    return NULL;
  s->con = con;
  s->read = rocksdb_readoptions_create();
  s->scan = rocksdb_readoptions_create();
  s->write = rocksdb_writeoptions_create();
  rocksdb_writeoptions_set_sync(s->write, rdb_cfg.sync);
  rocksdb_writeoptions_disable_WAL(s->write, rdb_cfg.disable_wal);
  s->batch = rocksdb_writebatch_create();
  if (rdb.mode == RDB_TXN_PESSIMISTIC) {
    s->txn_options = rocksdb_transaction_options_create();
    rocksdb_transaction_options_set_deadlock_detect(s->txn_options, 1);
  } else if (rdb.mode == RDB_TXN_OPTIMISTIC) {
    s->otxn_options = rocksdb_optimistictransaction_options_create();
  }
  return s;
}

void rdb_session_free(rdb_session *s)
{
  if (s == NULL)
    return;
  rdb_rollback(s);
  if (s->spare_txn != NULL)
    rocksdb_transaction_destroy(s->spare_txn);
  rocksdb_readoptions_destroy(s->read);
  rocksdb_readoptions_destroy(s->scan);
  rocksdb_writeoptions_destroy(s->write);
  rocksdb_writebatch_destroy(s->batch);
  if (s->user_batch != NULL)
    rocksdb_writebatch_destroy(s->user_batch);
  if (s->bulk_batch != NULL)
    rocksdb_writebatch_destroy(s->bulk_batch);
  if (s->txn_options != NULL)
    rocksdb_transaction_options_destroy(s->txn_options);
  if (s->otxn_options != NULL)
    rocksdb_optimistictransaction_options_destroy(s->otxn_options);
  free(s->arena);
  free(s->values);
  free(s->keys);
  free(s->ids);
  free(s);
}

/* ------------------------------------------------------------------------------------------ */
/* Errors                                                                                     */
/* ------------------------------------------------------------------------------------------ */

driver_error_class rdb_fail_sql(rdb_session *s, driver_error_class cls, int sql_errno,
                                const char *state, const char *fmt, ...)
{
  char message[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof(message), fmt, ap);
  va_end(ap);
  db_set_error(s->con, cls, sql_errno, state, message);
  return cls;
}

driver_error_class rdb_fail(rdb_session *s, char *err, const char *what)
{
  driver_error_class cls;

  /* Conflicts and lock waits end like an InnoDB deadlock or lock wait timeout: the
     transaction is rolled back (the database layer calls rdb_rollback) and the event is
     retried. */
  if (strstr(err, "Busy") != NULL || strstr(err, "busy") != NULL ||
      strstr(err, "Deadlock") != NULL || strstr(err, "TryAgain") != NULL ||
      strstr(err, "Try again") != NULL) {
    cls = rdb_fail_sql(s, DRIVER_ERROR_RESTART_TRANSACTION, 1213, "40001",
                       "Deadlock or write conflict in RocksDB (%s): %s", what, err);
  } else if (strstr(err, "TimedOut") != NULL || strstr(err, "timed out") != NULL) {
    cls = rdb_fail_sql(s, DRIVER_ERROR_RESTART_TRANSACTION, 1205, "HY000",
                       "Lock wait timeout in RocksDB (%s): %s", what, err);
  } else {
    cls = rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1030, "HY000", "RocksDB error (%s): %s", what, err);
  }
  rocksdb_free(err);
  return cls;
}

/* ------------------------------------------------------------------------------------------ */
/* Transactions                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* With --rocksdb-txn=none there are no transactions: BEGIN and COMMIT do nothing and every
   statement is written on its own. */
int rdb_begin(rdb_session *s, bool explicit_txn)
{
  if (rdb.mode == RDB_TXN_PESSIMISTIC)
    s->txn = rocksdb_transaction_begin(rdb.txn_db, s->write, s->txn_options, s->spare_txn);
  else if (rdb.mode == RDB_TXN_OPTIMISTIC)
    s->txn = rocksdb_optimistictransaction_begin(rdb.otxn_db, s->write, s->otxn_options,
                                                 s->spare_txn);
  else
    return 0;
  s->spare_txn = NULL;
  s->txn_explicit = explicit_txn;
  return 0;
}

/* Keep the finished transaction object for the next begin (RocksDB reuses it). */
static void retire(rdb_session *s)
{
  if (s->spare_txn != NULL)
    rocksdb_transaction_destroy(s->spare_txn);
  s->spare_txn = s->txn;
  s->txn = NULL;
  s->txn_explicit = false;
}

int rdb_commit(rdb_session *s)
{
  char *err = NULL;

  if (s->txn == NULL)
    return 0;
  rocksdb_transaction_commit(s->txn, &err);
  if (err != NULL) {
    rdb_fail(s, err, "COMMIT");      /* a conflict: the database layer rolls back */
    return -1;
  }
  retire(s);
  return 0;
}

void rdb_rollback(rdb_session *s)
{
  rocksdb_writebatch_clear(s->batch);
  if (s->txn == NULL)
    return;
  char *err = NULL;
  rocksdb_transaction_rollback(s->txn, &err);
  if (err != NULL)
    rocksdb_free(err);
  retire(s);
}

/* ------------------------------------------------------------------------------------------ */
/* Reads and writes                                                                           */
/* ------------------------------------------------------------------------------------------ */

rocksdb_pinnableslice_t *rdb_get(rdb_session *s, const char *key, size_t klen, bool for_update,
                                 char **err)
{
  if (s->txn != NULL) {
    if (for_update)
      return rocksdb_transaction_get_pinned_for_update(s->txn, s->read, key, klen, 1, err);
    return rocksdb_transaction_get_pinned(s->txn, s->read, key, klen, err);
  }
  if (rdb.txn_db != NULL)
    return rocksdb_transactiondb_get_pinned(rdb.txn_db, s->read, key, klen, err);
  return rocksdb_get_pinned(rdb.db, s->read, key, klen, err);
}

rocksdb_iterator_t *rdb_iterator(rdb_session *s, const char *upper, size_t upper_len)
{
  rocksdb_readoptions_set_iterate_upper_bound(s->scan, upper, upper_len);
  if (s->txn != NULL)
    return rocksdb_transaction_create_iterator(s->txn, s->scan);
  if (rdb.txn_db != NULL)
    return rocksdb_transactiondb_create_iterator(rdb.txn_db, s->scan);
  return rocksdb_create_iterator(rdb.db, s->scan);
}

void rdb_multi_get(rdb_session *s, size_t n, const char *const *keys, const size_t *klens,
                   char **values, size_t *vlens, char **errs)
{
  if (s->txn != NULL)
    rocksdb_transaction_multi_get(s->txn, s->read, n, keys, klens, values, vlens, errs);
  else if (rdb.txn_db != NULL)
    rocksdb_transactiondb_multi_get(rdb.txn_db, s->read, n, keys, klens, values, vlens, errs);
  else
    rocksdb_multi_get(rdb.db, s->read, n, keys, klens, values, vlens, errs);
}

/* Inside a transaction a put may wait for a lock (pessimistic) and fail; the first error
   is kept in *err and later writes of the statement are skipped. */
void rdb_put(rdb_session *s, const char *k, size_t kl, const char *v, size_t vl, char **err)
{
  if (*err != NULL)
    return;
  if (s->txn != NULL)
    rocksdb_transaction_put(s->txn, k, kl, v, vl, err);
  else
    rocksdb_writebatch_put(s->batch, k, kl, v, vl);
}

void rdb_delete(rdb_session *s, const char *k, size_t kl, char **err)
{
  if (*err != NULL)
    return;
  if (s->txn != NULL)
    rocksdb_transaction_delete(s->txn, k, kl, err);
  else
    rocksdb_writebatch_delete(s->batch, k, kl);
}

int rdb_apply(rdb_session *s, char **err)
{
  if (*err != NULL) {
    rocksdb_writebatch_clear(s->batch);
    return -1;
  }
  if (s->txn != NULL || rocksdb_writebatch_count(s->batch) == 0)
    return 0;                          /* in a transaction: written at COMMIT */
  if (rdb.txn_db != NULL)
    rocksdb_transactiondb_write(rdb.txn_db, s->write, s->batch, err);
  else
    rocksdb_write(rdb.db, s->write, s->batch, err);
  rocksdb_writebatch_clear(s->batch);
  return *err == NULL ? 0 : -1;
}

/* ------------------------------------------------------------------------------------------ */
/* Result rows                                                                                */
/* ------------------------------------------------------------------------------------------ */

void rdb_result_reset(rdb_session *s, uint32_t fields)
{
  s->arena_used = 0;
  s->value_count = 0;
  s->result_fields = fields;
  s->result_rows = 0;
  s->result_next = 0;
}

static db_value_t *next_value(rdb_session *s)
{
  if (s->value_count == s->value_capacity) {
    size_t capacity = s->value_capacity ? s->value_capacity * 2 : 256;
    db_value_t *grown = realloc(s->values, capacity * sizeof(*grown));
    if (grown == NULL)
      return NULL;
    s->values = grown;
    s->value_capacity = capacity;
  }
  return &s->values[s->value_count++];
}

/* Values are stored as arena offsets while the arena may still move, and turned into
   pointers when fetched (see rdb_driver.c). */
void rdb_result_add(rdb_session *s, const char *value, size_t len)
{
  if (s->arena_used + len > s->arena_size) {
    size_t size = s->arena_size ? s->arena_size : 16384;
    while (size < s->arena_used + len)
      size *= 2;
    char *grown = realloc(s->arena, size);
    if (grown == NULL)
      return;
    s->arena = grown;
    s->arena_size = size;
  }
  db_value_t *v = next_value(s);
  if (v == NULL)
    return;
  memcpy(s->arena + s->arena_used, value, len);
  v->ptr = (const char *) (uintptr_t) (s->arena_used + 1);   /* offset + 1; 0 means NULL */
  v->len = (uint32_t) len;
  s->arena_used += len;
}

void rdb_result_add_null(rdb_session *s)
{
  db_value_t *v = next_value(s);
  if (v != NULL) {
    v->ptr = NULL;
    v->len = 0;
  }
}

void rdb_result_add_i64(rdb_session *s, int64_t value)
{
  char text[32];
  int n = snprintf(text, sizeof(text), "%lld", (long long) value);
  rdb_result_add(s, text, (size_t) n);
}

void rdb_result_end_row(rdb_session *s)
{
  s->result_rows++;
}
