/*
 * db_kv.c: the key-value entry points of the database layer (see db_kv.h). They check that
 * the connection's driver speaks key-value, run the call like any statement (previous result
 * freed, this one counted, a result set kept for fetch_row) and report errors the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "db_kv.h"
#include "rand.h"
#include "logger.h"

/* The driver's KV operations, or NULL with an API error set on the connection. */
static const db_kv_ops *kv_of(db_conn *con)
{
  if (con == NULL)
    return NULL;
  const db_kv_ops *kv = con->driver->def->kv;
  if (kv == NULL) {
    db_set_error(con, DRIVER_ERROR_FATAL, 0, "HY000",
                 "the key-value API needs a key-value driver such as --db-driver=rocksdb");
    return NULL;
  }
  return kv;
}

/* The statement kind of a key-value form, so that its queries are reported by kind as the
   SQL statements they stand for. */
static sb_counter_type kind_of_workload_statement(const char *name)
{
  size_t n = strlen(name);
  if (strcmp(name, "deletes") == 0)
    return SB_CNT_STMT_DELETE;
  if (strcmp(name, "inserts") == 0 || strcmp(name, "bulk_inserts") == 0)
    return SB_CNT_STMT_INSERT;
  if (n > 8 && strcmp(name + n - 8, "_updates") == 0)
    return SB_CNT_STMT_UPDATE;
  return SB_CNT_STMT_SELECT;           /* point_selects, *_ranges, random_points */
}

/* The answer of a call that is not counted as a statement; when it failed, the database
   layer acts on the driver's error (a RocksDB conflict rolls the transaction back). */
static int uncounted(db_conn *con, int rc)
{
  if (rc < 0)
    db_statement_failed(con);
  return rc;
}

/* db_statement_start() for a statement of `kind`. */
static bool start_as(db_conn *con, sb_counter_type kind)
{
  if (!db_statement_start(con))
    return false;
  con->statement_kind = kind;
  return true;
}

db_stmt *db_prepare_kv(db_conn *con, const char *kind, uint32_t table, uint32_t limit)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv == NULL || kv->prepare == NULL || !db_statement_start(con))
    return NULL;
  db_stmt *stmt = calloc(1, sizeof(*stmt));
  if (stmt == NULL)
    return NULL;
  stmt->connection = con;
  size_t len = strlen(kind);
  stmt->query = malloc(len + 32);
  if (stmt->query == NULL) {
    free(stmt);
    return NULL;
  }
  stmt->query_len = (size_t) snprintf(stmt->query, len + 32, "%s on table %u", kind, table);
  stmt->generation = con->generation;
  stmt->kind = kind_of_workload_statement(kind);
  if (kv->prepare(stmt, kind, table, limit) != 0) {
    free(stmt->query);
    free(stmt);
    db_statement_failed(con);
    return NULL;
  }
  db_statement_attach(con, stmt);
  return stmt;
}

int db_kv_create_table(db_conn *con, uint32_t table, uint64_t rows, uint32_t flags,
                       uint32_t slice, uint32_t slices, const char *c_template,
                       const char *pad_template)
{
  const db_kv_ops *kv = kv_of(con);
  db_kv_table_spec spec = {
    .table = table, .rows = rows, .flags = flags, .slice = slice, .slices = slices,
    .c_template = c_template ? c_template : "", .pad_template = pad_template ? pad_template : "",
    .seed = rand_effective_seed(),
  };
  if (kv == NULL || !db_statement_start(con))
    return -1;
  db_clear_error(con);
  return uncounted(con, kv->create_table(con, &spec));
}

int db_kv_drop_table(db_conn *con, uint32_t table)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv == NULL || !db_statement_start(con))
    return -1;
  db_clear_error(con);
  return uncounted(con, kv->drop_table(con, table));
}

int db_kv_bulk_add(db_conn *con, uint32_t table, int64_t id, int64_t k)
{
  const db_kv_ops *kv = kv_of(con);
  return kv == NULL ? -1 : kv->bulk_add(con, table, id, k);
}

int db_kv_bulk_flush(db_conn *con)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv == NULL || !start_as(con, SB_CNT_STMT_INSERT))
    return -1;
  driver_error_class rc = kv->bulk_flush(con, &con->rs);
  db_statement_finish(con, rc);
  return rc == DRIVER_ERROR_NONE ? 0 : -1;
}

int db_kv_check_table(db_conn *con, uint32_t table, char *report, size_t report_len)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv == NULL || kv->check_table == NULL || !db_statement_start(con))
    return -1;
  db_clear_error(con);
  return uncounted(con, kv->check_table(con, table, report, report_len));
}

int db_kv_load_range(db_conn *con, uint32_t table, uint64_t rows, uint32_t flags,
                     int64_t first_id, int64_t last_id, uint64_t seed, const char *c_template,
                     const char *pad_template, const char *marker)
{
  const db_kv_ops *kv = kv_of(con);
  db_kv_table_spec spec = {
    .table = table, .rows = rows, .flags = flags, .slice = 0, .slices = 1,
    .c_template = c_template ? c_template : "", .pad_template = pad_template ? pad_template : "",
    .first_id = first_id, .last_id = last_id, .seed = seed, .marker = marker,
  };
  if (kv == NULL || kv->load_range == NULL || !db_statement_start(con))
    return -1;
  db_clear_error(con);
  return uncounted(con, kv->load_range(con, &spec));
}

int db_kv_finish_table(db_conn *con, uint32_t table, uint64_t rows, uint32_t flags)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv == NULL || kv->finish_table == NULL || !db_statement_start(con))
    return -1;
  db_clear_error(con);
  return uncounted(con, kv->finish_table(con, table, rows, flags));
}

int db_kv_table_state(db_conn *con, uint32_t table)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv == NULL || kv->table_state == NULL || !db_statement_start(con))
    return -1;
  db_clear_error(con);
  return uncounted(con, kv->table_state(con, table));
}

int db_kv_table_record(db_conn *con, uint32_t table, db_kv_load_record *record)
{
  const db_kv_ops *kv = kv_of(con);
  memset(record, 0, sizeof(*record));
  if (kv == NULL || kv->table_record == NULL || !db_statement_start(con))
    return -1;
  db_clear_error(con);
  return uncounted(con, kv->table_record(con, table, record));
}

int db_kv_table_sizes(db_conn *con, uint32_t table, int64_t *data, int64_t *index)
{
  const db_kv_ops *kv = kv_of(con);
  *data = *index = -1;
  if (kv == NULL || kv->table_sizes == NULL)
    return -1;
  return kv->table_sizes(con, table, data, index);
}

db_result *db_kv_get(db_conn *con, const char *key, size_t klen, int for_update)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv == NULL || !start_as(con, SB_CNT_STMT_SELECT))
    return NULL;
  return db_statement_finish(con, kv->get(con, key, klen, for_update, &con->rs));
}

db_result *db_kv_multi_get(db_conn *con, size_t n, const char *const *keys, const size_t *klens)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv == NULL || !start_as(con, SB_CNT_STMT_SELECT))
    return NULL;
  return db_statement_finish(con, kv->multi_get(con, n, keys, klens, &con->rs));
}

db_result *db_kv_scan(db_conn *con, const char *start, size_t start_len, const char *upper,
                      size_t upper_len, uint32_t limit)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv == NULL || !start_as(con, SB_CNT_STMT_SELECT))
    return NULL;
  return db_statement_finish(con, kv->scan(con, start, start_len, upper, upper_len, limit,
                                           &con->rs));
}

/* Writes leave no result set: 0 on success, -1 with the connection's error set. */
static int write_done(db_conn *con, driver_error_class rc)
{
  db_statement_finish(con, rc);
  return rc == DRIVER_ERROR_NONE ? 0 : -1;
}

int db_kv_put(db_conn *con, const char *key, size_t klen, const char *value, size_t vlen)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv == NULL || !start_as(con, SB_CNT_STMT_UPDATE))
    return -1;
  return write_done(con, kv->put(con, key, klen, value, vlen, &con->rs));
}

int db_kv_delete(db_conn *con, const char *key, size_t klen)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv == NULL || !start_as(con, SB_CNT_STMT_DELETE))
    return -1;
  return write_done(con, kv->del(con, key, klen, &con->rs));
}

int db_kv_batch_put(db_conn *con, const char *key, size_t klen, const char *value, size_t vlen)
{
  const db_kv_ops *kv = kv_of(con);
  return kv == NULL ? -1 : kv->batch_put(con, key, klen, value, vlen);
}

int db_kv_batch_delete(db_conn *con, const char *key, size_t klen)
{
  const db_kv_ops *kv = kv_of(con);
  return kv == NULL ? -1 : kv->batch_delete(con, key, klen);
}

int db_kv_batch_write(db_conn *con)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv == NULL || !start_as(con, SB_CNT_STMT_OTHER))
    return -1;
  return write_done(con, kv->batch_write(con, &con->rs));
}

void db_kv_batch_clear(db_conn *con)
{
  const db_kv_ops *kv = kv_of(con);
  if (kv != NULL)
    kv->batch_clear(con);
}
