/*
 * rdb_writes.c: the key-value forms of the bundled workloads' writes: index and non-index
 * updates, deletes and inserts. Each does the read-modify-write its SQL form makes a server
 * do (the row read for update, the index entry moved) atomically, in the open transaction or
 * in one of its own, and counts as a write when it changed a row, as "other" when it found
 * none -- as the MySQL driver counts them.
 */
#include <string.h>

#include "rdb_auto_id.h"
#include "rdb_params.h"
#include "rdb_row.h"
#include "rdb_writes.h"

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

/* The row of `id`, read for update into s->row_buffer and decoded: false when there is
   none, or on an error (left in *err). */
static bool row_for_update(rdb_session *s, uint32_t table, int64_t id, rdb_row *row,
                           size_t *len, char **err)
{
  bool found;
  *len = 0;
  *err = read_for_update(s, table, id, s->row_buffer, len, &found);
  return *err == NULL && found && rdb_row_decode(s->row_buffer, *len, row);
}

/* The secondary index entry (k, id), where the table has the index. */
static void index_entry_put(rdb_session *s, const rdb_stmt *st, int64_t k, int64_t id,
                            char **err)
{
  char sec[RDB_SECONDARY_KEY_LEN];
  if (!(st->meta.flags & KV_TABLE_SECONDARY_INDEX))
    return;
  rdb_secondary_key(sec, st->table, k, id);
  rdb_put(s, sec, sizeof(sec), "", 0, err);
}

static void index_entry_delete(rdb_session *s, const rdb_stmt *st, int64_t k, int64_t id,
                               char **err)
{
  char sec[RDB_SECONDARY_KEY_LEN];
  if (!(st->meta.flags & KV_TABLE_SECONDARY_INDEX))
    return;
  rdb_secondary_key(sec, st->table, k, id);
  rdb_delete(s, sec, sizeof(sec), err);
}

/* UPDATE sbtestN SET k=k+1 WHERE id=?  (row written, index entry moved) */
driver_error_class rdb_index_update(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                    db_result *rs)
{
  int64_t id = rdb_param_int(stmt, 0);
  bool own = statement_begin(s);
  size_t len;
  char *err;
  rdb_row row;
  bool found = row_for_update(s, st->table, id, &row, &len, &err);

  if (found) {
    char key[RDB_PRIMARY_KEY_LEN];
    int64_t old_k = row.k, new_k = row.k + 1;
    memcpy(s->row_buffer, &new_k, 8);
    rdb_primary_key(key, st->table, id);
    rdb_put(s, key, sizeof(key), s->row_buffer, len, &err);
    index_entry_delete(s, st, old_k, id, &err);
    index_entry_put(s, st, new_k, id, &err);
  }
  return statement_end(s, own, err, "index update", rs, found);
}

/* UPDATE sbtestN SET c=? WHERE id=? */
driver_error_class rdb_non_index_update(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                        db_result *rs)
{
  rdb_slice c = rdb_param_str(stmt, 0);
  int64_t id = rdb_param_int(stmt, 1);
  bool own = statement_begin(s), changed = false;
  size_t len;
  char *err;
  rdb_row row;

  if (row_for_update(s, st->table, id, &row, &len, &err)) {
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
driver_error_class rdb_delete_row(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                  db_result *rs)
{
  int64_t id = rdb_param_int(stmt, 0);
  bool own = statement_begin(s);
  size_t len;
  char *err;
  rdb_row row;
  bool found = row_for_update(s, st->table, id, &row, &len, &err);

  if (found) {
    char key[RDB_PRIMARY_KEY_LEN];
    rdb_primary_key(key, st->table, id);
    rdb_delete(s, key, sizeof(key), &err);
    index_entry_delete(s, st, row.k, id, &err);
  }
  return statement_end(s, own, err, "delete", rs, found);
}

/* INSERT INTO sbtestN (id, k, c, pad) VALUES (?, ?, ?, ?); id 0 takes the next
   auto-increment value; an existing id is MySQL's duplicate-key error 1062. Without
   transactions (--rocksdb-txn=none) there is no isolation to make that check meaningful:
   the row is simply written, replacing an existing one and its index entry. */
driver_error_class rdb_insert_row(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                  db_result *rs)
{
  int64_t id = rdb_param_int(stmt, 0), k = rdb_param_int(stmt, 1);
  rdb_slice c = rdb_param_str(stmt, 2), pad = rdb_param_str(stmt, 3);
  bool own, found;
  size_t len = 0;
  rdb_row old;

  if (id == 0 && (st->meta.flags & KV_TABLE_AUTO_INC))
    id = rdb_next_auto_id(s, st->table);
  own = statement_begin(s);
  char *err = read_for_update(s, st->table, id, s->row_buffer, &len, &found);
  if (err == NULL && found && rdb.mode == RDB_TXN_NONE &&
      rdb_row_decode(s->row_buffer, len, &old)) {
    index_entry_delete(s, st, old.k, id, &err);
  } else if (err == NULL && found) {
    if (own)
      rdb_rollback(s);
    return rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1062, "23000",
                        "Duplicate entry '%lld' for key 'PRIMARY'", (long long) id);
  }
  char key[RDB_PRIMARY_KEY_LEN];
  size_t n = rdb_row_encode(s->new_row_buffer, k, c.ptr, c.len, pad.ptr, pad.len);
  rdb_primary_key(key, st->table, id);
  rdb_put(s, key, sizeof(key), s->new_row_buffer, n, &err);
  index_entry_put(s, st, k, id, &err);
  return statement_end(s, own, err, "insert", rs, true);
}
