/*
 * rdb_driver.c: the embedded RocksDB driver as the database layer sees it: its definition,
 * connections (one session each over the process's single database), the few SQL words it
 * understands (BEGIN, COMMIT, ROLLBACK), key-value statements, result rows, and the report
 * it adds after a run (--rocksdb-stats).
 */
#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "logger.h"
#include "rdb.h"
#include "rdb_kv.h"
#include "rdb_load.h"
#include "rdb_bulk.h"
#include "rdb_meta.h"
#include "rdb_sbtest.h"

static int rdb_init(void)
{
  return rdb_config_load() == 0 && rdb_store_open() == 0 ? 0 : -1;
}

static int rdb_connect(db_conn *con)
{
  con->ptr = rdb_session_new(con);
  if (con->ptr == NULL) {
    log_text(LOG_FATAL, "Out of memory creating a RocksDB session");
    return -1;
  }
  return 0;
}

static int rdb_disconnect(db_conn *con)
{
  rdb_session_free(con->ptr);
  con->ptr = NULL;
  return 0;
}

static void rdb_rollback_op(db_conn *con)
{
  rdb_rollback(con->ptr);
}

/* The statement's first word, uppercased, without surrounding blanks or a final ';'. */
static void first_word(const char *q, size_t len, char *out, size_t outlen, size_t *rest)
{
  size_t i = 0, n = 0;
  while (i < len && isspace((unsigned char) q[i]))
    i++;
  while (i < len && !isspace((unsigned char) q[i]) && q[i] != ';' && n + 1 < outlen)
    out[n++] = (char) toupper((unsigned char) q[i++]);
  out[n] = '\0';
  while (i < len && (isspace((unsigned char) q[i]) || q[i] == ';'))
    i++;
  *rest = len - i;
}

static driver_error_class rdb_query(db_conn *con, const char *query, size_t len, db_result *rs)
{
  rdb_session *s = con->ptr;
  char word[16], second[16];
  size_t rest, rest2;

  first_word(query, len, word, sizeof(word), &rest);
  rs->stat_type = SB_CNT_OTHER;
  if (strcmp(word, "BEGIN") == 0 && rest == 0) {
    if (s->txn != NULL && rdb_commit(s) != 0)     /* as in MySQL, BEGIN commits an open one */
      return con->error_class;
    rdb_begin(s, true);
    return DRIVER_ERROR_NONE;
  }
  if (strcmp(word, "START") == 0) {
    first_word(query + (len - rest), rest, second, sizeof(second), &rest2);
    if (strcmp(second, "TRANSACTION") == 0 && rest2 == 0) {
      if (s->txn != NULL && rdb_commit(s) != 0)
        return con->error_class;
      rdb_begin(s, true);
      return DRIVER_ERROR_NONE;
    }
  }
  if (strcmp(word, "COMMIT") == 0 && rest == 0)
    return rdb_commit(s) == 0 ? DRIVER_ERROR_NONE : con->error_class;
  if (strcmp(word, "ROLLBACK") == 0 && rest == 0) {
    rdb_rollback(s);
    return DRIVER_ERROR_NONE;
  }
  return rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1064, "42000",
                      "the rocksdb driver runs key-value statements, not SQL (got '%.60s'): "
                      "use a bundled workload or the sysbench.kv API", query);
}

/* Statements of SQL text are only BEGIN/COMMIT/ROLLBACK: run them as queries. */
static int rdb_prepare(db_stmt *stmt, const char *query, size_t len)
{
  (void) stmt; (void) query; (void) len;
  return 1;
}

static driver_error_class rdb_execute(db_stmt *stmt, db_result *rs)
{
  rdb_session *s = stmt->connection->ptr;
  return rdb_sbtest_execute(s, stmt->ptr, stmt, rs);
}

static int rdb_fetch_row(db_result *rs, db_row_t *row)
{
  rdb_session *s = rs->connection->ptr;

  if (s->result_next >= s->result_rows)
    return 1;
  /* db.c gave room for the result's fields: the values go there */
  assert(rs->nfields == s->result_fields && row->values != NULL);
  const db_value_t *v = &s->values[(size_t) s->result_next * s->result_fields];
  for (uint32_t i = 0; i < s->result_fields; i++) {
    uintptr_t at = (uintptr_t) v[i].ptr;
    row->values[i].ptr = at == 0 ? NULL : s->arena + (at - 1);
    row->values[i].len = v[i].len;
  }
  s->result_next++;
  row->ptr = NULL;
  return 0;
}

static int rdb_free_results(db_result *rs)
{
  (void) rs;
  return 0;
}

static int rdb_close_statement(db_stmt *stmt)
{
  free(stmt->ptr);
  stmt->ptr = NULL;
  return 0;
}

/* ---- --rocksdb-stats ---- */

static uint64_t ticker(const char *stats, const char *name)
{
  const char *p = strstr(stats, name);
  if (p == NULL)
    return 0;
  p = strstr(p, "COUNT : ");
  return p != NULL ? strtoull(p + 8, NULL, 10) : 0;
}

/* RocksDB's tickers ("rocksdb.block.cache.hit COUNT : 12" lines; histograms have P50 ...
   first) for the result file, with the figures the report prints. */
static void note_statistics(const char *stats, uint64_t hits, uint64_t misses)
{
  db_note_driver_statistic("block_cache_hits", hits);
  db_note_driver_statistic("block_cache_misses", misses);
  uint64_t v;
  if (rdb_property_int("rocksdb.block-cache-usage", &v))
    db_note_driver_statistic("block_cache_usage_bytes", v);
  if (rdb_property_int("rocksdb.cur-size-all-mem-tables", &v))
    db_note_driver_statistic("memtables_bytes", v);
  if (rdb_property_int("rocksdb.total-sst-files-size", &v))
    db_note_driver_statistic("sst_files_bytes", v);
  for (const char *line = stats; *line != '\0';) {
    size_t len = strcspn(line, "\n");
    char name[128];
    unsigned long long count;
    int used = 0;
    if (len < 200 && sscanf(line, "%127s COUNT : %llu%n", name, &count, &used) == 2 &&
        (size_t) used == len)
      db_note_driver_statistic(name, count);
    line += len + (line[len] == '\n');
  }
  db_note_driver_statistics_text(stats);
}

/* After the standard report (whose "Rows returned by reads" counts the rows every read
   returned, a range or multi-get many per query): --rocksdb-stats. */
static void rdb_report(const sb_stat_t *stat)
{
  (void) stat;
  if (!rdb_cfg.stats || rdb.options == NULL)
    return;
  char *stats = rocksdb_options_statistics_get_string(rdb.options);
  if (stats == NULL)
    return;
  uint64_t hits = ticker(stats, "rocksdb.block.cache.hit "),
           misses = ticker(stats, "rocksdb.block.cache.miss ");
  log_text(LOG_NOTICE, "RocksDB statistics:");
  log_text(LOG_NOTICE, "    block cache hit rate:                %.2f%% (%" PRIu64 " hits, %"
           PRIu64 " misses)", hits + misses ? 100.0 * (double) hits / (double) (hits + misses)
           : 0.0, hits, misses);
  uint64_t v;
  if (rdb_property_int("rocksdb.block-cache-usage", &v))
    log_text(LOG_NOTICE, "    block cache usage:                   %.1f MiB", v / 1048576.0);
  if (rdb_property_int("rocksdb.cur-size-all-mem-tables", &v))
    log_text(LOG_NOTICE, "    memtables:                           %.1f MiB", v / 1048576.0);
  if (rdb_property_int("rocksdb.total-sst-files-size", &v))
    log_text(LOG_NOTICE, "    SST files:                           %.1f MiB", v / 1048576.0);
  log_text(LOG_NOTICE, "%s", "");
  note_statistics(stats, hits, misses);
  fputs(stats, stdout);
  fputs("\n", stdout);
  rocksdb_free(stats);
}

static int rdb_done(void)
{
  rdb_load_finish();
  bool remove_dir = rdb_tables_dropped() && rdb.db != NULL && rdb.mode == RDB_TXN_NONE &&
                    rdb_database_empty();
  rdb_store_close();
  if (remove_dir)
    rdb_store_remove_if_empty();
  return 0;
}

static const db_driver_ops rdb_ops = {
  .init = rdb_init,
  .connect = rdb_connect,
  .disconnect = rdb_disconnect,
  .rollback = rdb_rollback_op,
  .prepare = rdb_prepare,
  .execute = rdb_execute,
  .query = rdb_query,
  .fetch_row = rdb_fetch_row,
  .free_results = rdb_free_results,
  .close = rdb_close_statement,
  .done = rdb_done,
  .report_cumulative = rdb_report,
};

/* ---- key-value operations ---- */

static int rdb_prepare_kv(db_stmt *stmt, const char *kind, uint32_t table, uint32_t limit)
{
  rdb_session *s = stmt->connection->ptr;
  rdb_stmt *st = calloc(1, sizeof(*st));
  if (st == NULL)
    return -1;
  if (!rdb_op_parse(kind, &st->op)) {
    free(st);
    rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1064, "42000", "unknown key-value statement '%s'", kind);
    return -1;
  }
  if (!rdb_table_meta_get(s, table, &st->meta)) {
    free(st);
    if (stmt->connection->error != DB_ERROR_NONE)
      return -1;
    if (rdb_sbtest_state(s, table) == KV_TABLE_INCOMPLETE)
      rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1146, "42S02", "Table 'sbtest%u' in the RocksDB database "
                   "at '%s' was left incomplete by an interrupted prepare: run `cleanup`, or "
                   "the same `prepare` with --resume", table, rdb_cfg.path);
    else
      rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1146, "42S02", "Table 'sbtest%u' doesn't exist in the "
                   "RocksDB database at '%s' (run the prepare command first)", table,
                   rdb_cfg.path);
    return -1;
  }
  st->table = table;
  st->limit = limit;
  stmt->ptr = st;
  return 0;
}

static int rdb_create_table(db_conn *con, const db_kv_table_spec *spec)
{
  return rdb_sbtest_create(con->ptr, spec);
}

static int rdb_load_range_op(db_conn *con, const db_kv_table_spec *spec)
{
  return rdb_sbtest_load_range(con->ptr, spec);
}

static int rdb_finish_table_op(db_conn *con, uint32_t table, uint64_t rows, uint32_t flags)
{
  return rdb_sbtest_finish(con->ptr, table, rows, flags);
}

static int rdb_table_state_op(db_conn *con, uint32_t table)
{
  return rdb_sbtest_state(con->ptr, table);
}

static int rdb_table_record_op(db_conn *con, uint32_t table, db_kv_load_record *record)
{
  return rdb_sbtest_record(con->ptr, table, record);
}

static int rdb_table_sizes_op(db_conn *con, uint32_t table, int64_t *data, int64_t *index)
{
  (void) con;
  rdb_sbtest_sizes(table, data, index);
  return 0;
}

static int rdb_drop_table(db_conn *con, uint32_t table)
{
  return rdb_sbtest_drop(con->ptr, table);
}

static int rdb_check_table(db_conn *con, uint32_t table, char *report, size_t report_len)
{
  return rdb_sbtest_check(con->ptr, table, report, report_len);
}

static int rdb_bulk_add_op(db_conn *con, uint32_t table, int64_t id, int64_t k)
{
  return rdb_bulk_add(con->ptr, table, id, k);
}

static driver_error_class rdb_bulk_flush_op(db_conn *con, db_result *rs)
{
  return rdb_bulk_flush(con->ptr, rs);
}

static const db_kv_ops rdb_kv_ops = {
  .bulk_add = rdb_bulk_add_op,
  .bulk_flush = rdb_bulk_flush_op,
  .check_table = rdb_check_table,
  .load_range = rdb_load_range_op,
  .finish_table = rdb_finish_table_op,
  .table_state = rdb_table_state_op,
  .table_record = rdb_table_record_op,
  .table_sizes = rdb_table_sizes_op,
  .prepare = rdb_prepare_kv,
  .create_table = rdb_create_table,
  .drop_table = rdb_drop_table,
  .get = rdb_kv_get,
  .multi_get = rdb_kv_multi_get,
  .scan = rdb_kv_scan,
  .put = rdb_kv_put,
  .del = rdb_kv_delete,
  .batch_put = rdb_kv_batch_put,
  .batch_delete = rdb_kv_batch_delete,
  .batch_write = rdb_kv_batch_write,
  .batch_clear = rdb_kv_batch_clear,
};

const db_driver_def rocksdb_driver_def = {
  .name = "rocksdb",
  .description = "embedded RocksDB driver (no server)",
  .family = DB_FAMILY_KV,
  .options = rdb_args,
  .ops = &rdb_ops,
  .kv = &rdb_kv_ops,
  .added = true,
  DB_DRIVER_INSTANCE(rocksdb_driver_def, "rocksdb", "embedded RocksDB driver (no server)"),
};
