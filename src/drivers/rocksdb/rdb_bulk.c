/*
 * rdb_bulk.c: the key-value form of a multi-row INSERT into an (id, k) table (bulk_insert.lua):
 * rows gathered in a write batch, then written atomically in one go.
 */
#include "rdb_bulk.h"
#include "rdb_row.h"

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
