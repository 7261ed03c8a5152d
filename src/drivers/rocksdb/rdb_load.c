/*
 * rdb_load.c: `prepare` and `cleanup` of sbtest tables on RocksDB. Rows are generated in C
 * (sbtest_rows.c: from (seed, table, id), the templates and distribution of the Lua
 * workloads), written in key order into SST files and ingested, skipping the memtable and
 * compaction; the secondary index is sorted in memory chunk by chunk and ingested the same
 * way. A table can be split across threads (each loads a disjoint id range); a table is
 * recorded as existing (its metadata key) only once all its ranges are in, so a table without
 * it is one an interrupted prepare left incomplete. Cleanup deletes the tables' key ranges
 * and compacts them away. Progress and the size report are load_report.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "load_state.h"
#include "logger.h"
#include "meminfo.h"
#include "rdb.h"
#include "rdb_load.h"
#include "rdb_meta.h"
#include "rdb_row.h"
#include "sbtest_rows.h"

/* Rows per in-memory sort of secondary index entries (16 B/row): bounds that memory. */
#define CHUNK_ROWS (4u << 20)
#define MAX_TABLES 4096
/* Rows between two progress updates and looks at Ctrl-C. */
#define PROGRESS_ROWS 16384

/* Per table: who checked that it did not exist yet, and how many slices are done. */
typedef struct {
  uint32_t table;
  bool checked;
  int state;                 /* KV_TABLE_* as the first thread found it */
  uint32_t slices_done;
  uint64_t checksum;         /* sum of the slices' row checksums */
  uint64_t seed;             /* the seed of the rows the slices loaded */
} table_state;

static pthread_mutex_t load_mutex = PTHREAD_MUTEX_INITIALIZER;
static table_state tables[MAX_TABLES];
static size_t table_count;

/* For the page cache warm-up after the load, and the directory's removal after cleanup
   (all under load_mutex: every loading or dropping thread counts). */
static uint32_t tables_loaded;
static uint32_t tables_dropped;
/* Loads through sysbench.kv.create_table() (scripts of their own; the bundled workloads
   report through load_report.c): what the summary at exit says. */
static uint32_t direct_tables;
static uint64_t direct_rows, direct_logical_bytes, direct_started_ns;

static table_state *table_entry(uint32_t table)
{
  for (size_t i = 0; i < table_count; i++)
    if (tables[i].table == table)
      return &tables[i];
  if (table_count == MAX_TABLES)
    return NULL;
  tables[table_count] = (table_state) { .table = table };
  return &tables[table_count++];
}

/* Through the session: verify and scripts' commands open the database with transactions,
   where there is no plain handle (rdb.db) to read from. */
static bool table_has_keys(rdb_session *s, uint32_t table)
{
  char start[6], end[6];
  start[0] = 't';
  rdb_put_u32(start + 1, table);
  start[5] = 0;
  rdb_index_end(end, table, 'z');
  rocksdb_iterator_t *it = rdb_iterator(s, end, sizeof(end));
  rocksdb_iter_seek(it, start, sizeof(start));
  bool any = rocksdb_iter_valid(it);
  rocksdb_iter_destroy(it);
  return any;
}

/* The first thread to reach a table checks it is new; the others wait for that answer. */
static bool claim_table(rdb_session *s, uint32_t table)
{
  pthread_mutex_lock(&load_mutex);
  table_state *t = table_entry(table);
  if (t == NULL) {
    pthread_mutex_unlock(&load_mutex);
    return false;
  }
  if (!t->checked) {
    t->state = rdb_sbtest_state(s, table);
    t->checked = true;
  }
  int state = t->state;
  pthread_mutex_unlock(&load_mutex);
  if (state == KV_TABLE_INCOMPLETE)
    rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1050, "42S01", "Table 'sbtest%u' already exists: it was "
                 "left incomplete by an interrupted prepare (`cleanup` drops it)", table);
  else if (state != KV_TABLE_ABSENT)
    rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1050, "42S01", "Table 'sbtest%u' already exists", table);
  return state == KV_TABLE_ABSENT;
}

/* RocksDB's SST writer drops every file it writes from the OS page cache, so after a load
   the first `run` would read from the disk, unlike a database filled through its memtable
   (or a SQL server after its INSERTs). So the table files are read back once, within half
   of the memory available, so that a load larger than memory does not push everything else
   out; reading is best effort, a file that cannot be read is left as it is. Direct I/O
   bypasses the cache: nothing to do then. This runs after the load, not during it, so the
   load rate printed before it stays the load's own. */
static void warm_page_cache(void)
{
  if (rdb_cfg.direct_io)
    return;
  const rocksdb_livefiles_t *files = rocksdb_livefiles(rdb.db);
  if (files == NULL)
    return;
  uint64_t budget = meminfo_bytes("MemAvailable", 0) / 2, cached = 0, skipped = 0;
  uint64_t started = clock_now_ns();
  size_t buffer_size = 1u << 20;
  char *buffer = malloc(buffer_size);
  char path[4200];

  for (int i = 0, n = buffer ? rocksdb_livefiles_count(files) : 0; i < n; i++) {
    uint64_t size = rocksdb_livefiles_size(files, i);
    if (cached + size > budget) {
      skipped += size;
      continue;
    }
    snprintf(path, sizeof(path), "%s/%s", rdb_cfg.path, rocksdb_livefiles_name(files, i));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      continue;
    /* Ask for the whole file first (the kernel takes about one read-ahead window per
       call): that keeps many reads in flight, where read() alone waits for each window. */
    for (uint64_t at = 0; at < size; at += 128u << 10)
      (void) posix_fadvise(fd, (off_t) at, 128 << 10, POSIX_FADV_WILLNEED);
    ssize_t got;
    while ((got = read(fd, buffer, buffer_size)) > 0)
      cached += (uint64_t) got;
    close(fd);
  }
  free(buffer);
  rocksdb_livefiles_destroy(files);
  if (cached == 0)
    return;
  double secs = (double) (clock_now_ns() - started) / 1e9;
  if (skipped > 0)
    log_text(LOG_NOTICE, "Read %.1f MiB of table files into the OS page cache in %.1fs; "
             "%.1f MiB left out (over half of the available memory)",
             (double) cached / 1048576.0, secs, (double) skipped / 1048576.0);
  else
    log_text(LOG_NOTICE, "Read %.1f MiB of table files into the OS page cache in %.1fs",
             (double) cached / 1048576.0, secs);
}

void rdb_load_finish(void)
{
  if (direct_tables > 0) {
    uint64_t disk = 0;
    rdb_property_int("rocksdb.total-sst-files-size", &disk);
    double secs = (double) (clock_now_ns() - direct_started_ns) / 1e9;
    log_text(LOG_NOTICE, "Loaded %" PRIu64 " rows into %u table(s) in %.1fs (%.0f rows/s, "
             "%.1f MiB/s of row data)", direct_rows, direct_tables, secs,
             secs > 0 ? (double) direct_rows / secs : 0,
             secs > 0 ? (double) direct_logical_bytes / secs / 1048576.0 : 0);
    log_text(LOG_NOTICE, "Data size: %.1f MiB logical (id, k, c, pad as stored by SQL), "
             "%.1f MiB on disk, ratio %.2f", (double) direct_logical_bytes / 1048576.0,
             (double) disk / 1048576.0,
             direct_logical_bytes > 0 ? (double) disk / (double) direct_logical_bytes : 0);
  }
  if (tables_loaded > 0)
    warm_page_cache();
}

/* ------------------------------------------------------------------------------------------ */
/* Writing SST files                                                                          */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
  int64_t k;
  int64_t id;
} k_id;

static int compare_k_id(const void *a, const void *b)
{
  const k_id *x = a, *y = b;
  if (x->k != y->k)
    return x->k < y->k ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static int ingest(rdb_session *s, const char *path)
{
  char *err = NULL;
  rocksdb_ingestexternalfileoptions_t *o = rocksdb_ingestexternalfileoptions_create();
  rocksdb_ingestexternalfileoptions_set_move_files(o, 1);
  const char *files[1] = { path };
  rocksdb_ingest_external_file(rdb.db, files, 1, o, &err);
  rocksdb_ingestexternalfileoptions_destroy(o);
  if (err != NULL) {
    unlink(path);
    rdb_fail(s, err, "ingest");
    return -1;
  }
  return 0;
}

/* A stream of SST files for one key-ordered run of keys: it starts a new file every
   SST_FILE_BYTES and ingests each file as it is finished. Files stay near RocksDB's own
   target file size because a file's index and filter blocks are read whole: in one huge
   file they outgrow a block cache shard, get evicted at once, and every lookup reads them
   again (100x slower point reads). */
#define SST_FILE_BYTES (64u << 20)

typedef struct {
  rdb_session *session;
  rocksdb_sstfilewriter_t *writer;   /* NULL between files */
  const char *name;                  /* file name stem, unique per loading thread */
  unsigned files;                    /* files started so far */
  unsigned puts;                     /* puts into the current file */
  uint32_t table;                    /* a table's rows: the primary stream counts them ... */
  bool counts_rows;
  uint64_t rows;                     /* ... here, for the current file */
  char path[4200];
} sst_stream;

static int stream_finish_file(sst_stream *st)
{
  char *err = NULL;
  if (st->writer == NULL)
    return 0;
  rocksdb_sstfilewriter_finish(st->writer, &err);
  rocksdb_sstfilewriter_destroy(st->writer);
  st->writer = NULL;
  if (err != NULL) {
    unlink(st->path);
    rdb_fail(st->session, err, "SST file");
    return -1;
  }
  if (ingest(st->session, st->path) != 0)
    return -1;
  if (st->counts_rows)   /* the file's rows are in the database from now on */
    sb_load_rows_committed(st->table, st->rows);
  st->rows = 0;
  return 0;
}

static int stream_put(sst_stream *st, const char *key, size_t klen, const char *value,
                      size_t vlen)
{
  char *err = NULL;

  /* The size is known only at block boundaries; asking every 256 puts is plenty. */
  if (st->writer != NULL && (++st->puts & 255) == 0) {
    uint64_t size = 0;
    rocksdb_sstfilewriter_file_size(st->writer, &size);
    if (size >= SST_FILE_BYTES && stream_finish_file(st) != 0)
      return -1;
  }
  if (st->writer == NULL) {
    snprintf(st->path, sizeof(st->path), "%s/load-%s-%u.sst", rdb_cfg.path, st->name,
             st->files++);
    rocksdb_envoptions_t *env = rocksdb_envoptions_create();
    st->writer = rocksdb_sstfilewriter_create(env, rdb.options);
    rocksdb_envoptions_destroy(env);
    st->puts = 0;
    rocksdb_sstfilewriter_open(st->writer, st->path, &err);
    if (err != NULL) {
      rocksdb_sstfilewriter_destroy(st->writer);
      st->writer = NULL;
      rdb_fail(st->session, err, "SST file");
      return -1;
    }
  }
  rocksdb_sstfilewriter_put(st->writer, key, klen, value, vlen, &err);
  if (err != NULL) {
    rocksdb_sstfilewriter_destroy(st->writer);
    st->writer = NULL;
    unlink(st->path);
    rdb_fail(st->session, err, "SST file");
    return -1;
  }
  st->rows++;
  return 0;
}

/* After a failure: drop the unfinished file. */
static void stream_abandon(sst_stream *st)
{
  if (st->writer != NULL) {
    rocksdb_sstfilewriter_destroy(st->writer);
    st->writer = NULL;
    unlink(st->path);
  }
}

/* Load ids [first, last] of `table` in chunks; *checksum gets the sum of row hashes.
   KV_LOAD_STOPPED when the command is stopping (the unfinished files are dropped). */
static int load_range(rdb_session *s, const db_kv_table_spec *spec, int64_t first, int64_t last,
                      uint64_t *checksum)
{
  bool secondary = spec->flags & KV_TABLE_SECONDARY_INDEX;
  bool id_k = spec->flags & KV_TABLE_ID_K_ONLY;
  char key[RDB_SECONDARY_KEY_LEN], value[RDB_ROW_MAX];
  char primary_name[64], secondary_name[64];
  sbtest_rows rows;
  sbtest_row row;
  const char *why = NULL;
  k_id *pairs = NULL;
  int rc = 0;

  if (!sbtest_rows_init(&rows, spec->seed, spec->table, spec->rows, spec->c_template,
                        spec->pad_template, &why))
    return rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1406, "22001", "%s", why), -1;
  if (secondary && (pairs = malloc(CHUNK_ROWS * sizeof(k_id))) == NULL)
    return rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1037, "HY001", "Out of memory"), -1;

  /* Names unique per table and id range, so concurrent slices never share a file. */
  snprintf(primary_name, sizeof(primary_name), "%u-%" PRId64 "-p", spec->table, first);
  snprintf(secondary_name, sizeof(secondary_name), "%u-%" PRId64 "-s", spec->table, first);
  sst_stream primary = { .session = s, .name = primary_name, .table = spec->table,
                         .counts_rows = true };
  sst_stream index = { .session = s, .name = secondary_name };

  for (int64_t chunk = first; chunk <= last && rc == 0; chunk += CHUNK_ROWS) {
    int64_t end = chunk + CHUNK_ROWS - 1 < last ? chunk + CHUNK_ROWS - 1 : last;
    size_t n = 0;
    uint64_t unreported = 0;
    for (int64_t id = chunk; id <= end && rc == 0; id++) {
      size_t vlen;
      if (id_k) {
        row.k = id;
        vlen = rdb_row_encode(value, row.k, "", 0, "", 0);
      } else {
        sbtest_row_make(&rows, id, &row);
        vlen = rdb_row_encode(value, row.k, row.c, rows.c_len, row.pad, rows.pad_len);
      }
      rdb_primary_key(key, spec->table, id);
      rc = stream_put(&primary, key, RDB_PRIMARY_KEY_LEN, value, vlen);
      *checksum += rdb_row_hash(key, RDB_PRIMARY_KEY_LEN, value, vlen);
      if (secondary)
        pairs[n++] = (k_id) { row.k, id };
      if (++unreported == PROGRESS_ROWS) {
        sb_load_rows_done(spec->table, unreported);
        unreported = 0;
        if (!sb_load_test_pause())
          rc = KV_LOAD_STOPPED;
      }
    }
    sb_load_rows_done(spec->table, unreported);
    /* Each chunk's index entries are one sorted run: its own files, which overlap other
       chunks' and so go through RocksDB's compaction, not straight to the last level. */
    if (rc == 0 && secondary && n > 0) {
      qsort(pairs, n, sizeof(k_id), compare_k_id);
      for (size_t i = 0; i < n && rc == 0; i++) {
        rdb_secondary_key(key, spec->table, pairs[i].k, pairs[i].id);
        rc = stream_put(&index, key, RDB_SECONDARY_KEY_LEN, "", 0);
        /* a chunk's index takes seconds to write: a Ctrl-C must not wait for it */
        if (rc == 0 && (i + 1) % PROGRESS_ROWS == 0 && sb_load_stopping())
          rc = KV_LOAD_STOPPED;
      }
      if (rc == 0)
        rc = stream_finish_file(&index);
    }
  }
  if (rc == 0)
    rc = stream_finish_file(&primary);
  stream_abandon(&primary);
  stream_abandon(&index);
  free(pairs);
  return rc;
}

int rdb_sbtest_create(rdb_session *s, const db_kv_table_spec *spec)
{
  if (spec->slices == 0 || spec->slice >= spec->slices) {
    rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1064, "42000", "bad table slice %u of %u", spec->slice,
                 spec->slices);
    return -1;
  }
  if (!claim_table(s, spec->table) || rdb_table_meta_mark_loading(s, spec->table, NULL) != 0)
    return -1;

  int64_t rows = (int64_t) spec->rows;
  int64_t first = rows * spec->slice / spec->slices + 1;
  int64_t last = rows * (spec->slice + 1) / spec->slices;
  uint64_t checksum = 0;
  pthread_mutex_lock(&load_mutex);
  if (direct_started_ns == 0)
    direct_started_ns = clock_now_ns();
  pthread_mutex_unlock(&load_mutex);
  int rc = last >= first ? load_range(s, spec, first, last, &checksum) : 0;
  if (rc == 0 && last >= first) {
    bool id_k = spec->flags & KV_TABLE_ID_K_ONLY;
    uint64_t n = (uint64_t) (last - first + 1);
    __atomic_add_fetch(&direct_rows, n, __ATOMIC_RELAXED);
    __atomic_add_fetch(&direct_logical_bytes, n * (8 + (id_k ? 0 : strlen(spec->c_template) +
                                                        strlen(spec->pad_template))),
                       __ATOMIC_RELAXED);
  }

  /* The last slice of a table to finish records that the table exists. */
  pthread_mutex_lock(&load_mutex);
  table_state *t = table_entry(spec->table);
  bool last_slice = false;
  if (t != NULL) {
    t->checksum += checksum;
    last_slice = ++t->slices_done == spec->slices;
    checksum = t->checksum;
  }
  if (last_slice && rc == 0) {
    tables_loaded++;
    direct_tables++;
  }
  pthread_mutex_unlock(&load_mutex);
  if (last_slice && rc == 0)
    rc = rdb_table_meta_put(s, spec->table, spec->flags, spec->rows, checksum, spec->seed);
  return rc;
}

int rdb_sbtest_load_range(rdb_session *s, const db_kv_table_spec *spec)
{
  uint64_t checksum = 0;
  if (rdb_table_meta_mark_loading(s, spec->table, spec->marker) != 0)
    return -1;
  if (!sb_load_test_pause())
    return KV_LOAD_STOPPED;
  int rc = spec->last_id >= spec->first_id
           ? load_range(s, spec, spec->first_id, spec->last_id, &checksum) : 0;
  if (rc != 0)
    return rc;
  pthread_mutex_lock(&load_mutex);
  table_state *t = table_entry(spec->table);
  if (t != NULL) {
    t->checksum += checksum;
    t->seed = spec->seed;
  }
  pthread_mutex_unlock(&load_mutex);
  if (t == NULL)
    return rdb_fail_sql(s, DRIVER_ERROR_FATAL, 1037, "HY001", "more than %d tables",
                        MAX_TABLES), -1;
  return 0;
}

int rdb_sbtest_finish(rdb_session *s, uint32_t table, uint64_t rows, uint32_t flags)
{
  pthread_mutex_lock(&load_mutex);
  table_state *t = table_entry(table);
  uint64_t checksum = t != NULL ? t->checksum : 0, seed = t != NULL ? t->seed : 0;
  if (t != NULL)
    *t = (table_state) { .table = table };
  tables_loaded++;
  pthread_mutex_unlock(&load_mutex);
  return rdb_table_meta_put(s, table, flags, rows, checksum, seed);
}

int rdb_sbtest_state(rdb_session *s, uint32_t table)
{
  rdb_table_meta meta;
  if (rdb_table_meta_get(s, table, &meta))
    return KV_TABLE_COMPLETE;
  /* keys without the record: a load stopped before this version marked tables */
  return rdb_table_meta_present(s, table) || table_has_keys(s, table) ? KV_TABLE_INCOMPLETE
                                                             : KV_TABLE_ABSENT;
}

int rdb_sbtest_record(rdb_session *s, uint32_t table, db_kv_load_record *record)
{
  rdb_table_meta meta;
  memset(record, 0, sizeof(*record));
  if (rdb_table_meta_get(s, table, &meta)) {
    record->state = KV_TABLE_COMPLETE;
    record->rows = meta.rows_loaded;
    record->seed_known = meta.seed_known;
    record->seed = meta.seed;
    return 0;
  }
  if (s->con->error != DB_ERROR_NONE)
    return -1;
  record->state = rdb_sbtest_state(s, table);
  if (record->state == KV_TABLE_INCOMPLETE)
    rdb_table_meta_marker(s, table, record->marker, sizeof(record->marker));
  return record->state < 0 ? -1 : 0;
}

void rdb_sbtest_sizes(uint32_t table, int64_t *data, int64_t *index)
{
  char p_start[6], p_end[6], s_start[6], s_end[6], *err = NULL;
  uint64_t sizes[2] = { 0, 0 };

  memcpy(p_start, "t", 1);
  rdb_put_u32(p_start + 1, table);
  p_start[5] = 'p';
  rdb_index_end(p_end, table, 'p');
  memcpy(s_start, p_start, 5);
  s_start[5] = 's';
  rdb_index_end(s_end, table, 's');
  const char *starts[2] = { p_start, s_start }, *ends[2] = { p_end, s_end };
  size_t lens[2] = { 6, 6 };
  rocksdb_approximate_sizes(rdb.db, 2, starts, lens, ends, lens, sizes, &err);
  if (err != NULL) {
    rocksdb_free(err);
    *data = *index = -1;
    return;
  }
  *data = (int64_t) sizes[0];
  *index = (int64_t) sizes[1];
}

int rdb_sbtest_drop(rdb_session *s, uint32_t table)
{
  char start[6], end[6], meta[RDB_META_KEY_LEN], meta_end[RDB_META_KEY_LEN], *err = NULL;

  start[0] = 't';
  rdb_put_u32(start + 1, table);
  start[5] = 0;
  rdb_index_end(end, table, 'z');
  rdb_meta_key(meta, table);
  rdb_meta_key(meta_end, table + 1);
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_delete_range(b, start, sizeof(start), end, sizeof(end));
  rocksdb_writebatch_delete_range(b, meta, sizeof(meta), meta_end, sizeof(meta_end));
  rocksdb_write(rdb.db, s->write, b, &err);
  rocksdb_writebatch_destroy(b);
  if (err != NULL) {
    rdb_fail(s, err, "drop table");
    return -1;
  }
  pthread_mutex_lock(&load_mutex);
  tables_dropped++;
  pthread_mutex_unlock(&load_mutex);
  /* Give the space back now rather than at some later compaction. */
  rocksdb_compact_range(rdb.db, start, sizeof(start), end, sizeof(end));
  return 0;
}

bool rdb_tables_dropped(void)
{
  pthread_mutex_lock(&load_mutex);
  bool dropped = tables_dropped > 0;
  pthread_mutex_unlock(&load_mutex);
  return dropped;
}

bool rdb_database_empty(void)
{
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_iterator_t *it = rocksdb_create_iterator(rdb.db, ro);
  rocksdb_iter_seek_to_first(it);
  bool empty = !rocksdb_iter_valid(it);
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_destroy(ro);
  return empty;
}

/* Read the whole table back: rows and their checksum must equal what the load recorded, and
   the secondary index must hold exactly one entry per row, with the row's k. */
int rdb_sbtest_check(rdb_session *s, uint32_t table, char *report, size_t report_len)
{
  rdb_table_meta meta;
  char start[RDB_SECONDARY_KEY_LEN], end[6], *err = NULL;
  uint64_t rows = 0, sum = 0, index_entries = 0, index_bad = 0, gaps = 0;
  int64_t expected_id = 1, first_missing = 0;

  if (!rdb_table_meta_get(s, table, &meta)) {
    if (rdb_sbtest_state(s, table) == KV_TABLE_INCOMPLETE)
      snprintf(report, report_len, "sbtest%u: left incomplete by an interrupted prepare: "
               "`cleanup` drops it, the same prepare with --resume loads it again", table);
    else
      snprintf(report, report_len, "table sbtest%u does not exist", table);
    return 1;
  }
  rdb_primary_key(start, table, INT64_MIN);
  rdb_index_end(end, table, 'p');
  rocksdb_iterator_t *it = rdb_iterator(s, end, sizeof(end));
  for (rocksdb_iter_seek(it, start, RDB_PRIMARY_KEY_LEN); rocksdb_iter_valid(it);
       rocksdb_iter_next(it)) {
    size_t kl, vl;
    const char *k = rocksdb_iter_key(it, &kl);
    const char *v = rocksdb_iter_value(it, &vl);
    sum += rdb_row_hash(k, kl, v, vl);
    rows++;
    /* ids 1..rows in order, none missing (an id past a gap counts the gap once) */
    int64_t id = rdb_get_i64(k + 6);
    if (id != expected_id) {
      if (gaps++ == 0)
        first_missing = expected_id;
    }
    expected_id = id + 1;
  }
  if ((uint64_t) expected_id <= meta.rows_loaded && gaps++ == 0)
    first_missing = expected_id;
  rocksdb_iter_get_error(it, &err);
  rocksdb_iter_destroy(it);

  if (err == NULL && (meta.flags & KV_TABLE_SECONDARY_INDEX)) {
    rdb_secondary_key(start, table, INT64_MIN, INT64_MIN);
    rdb_index_end(end, table, 's');
    it = rdb_iterator(s, end, sizeof(end));
    for (rocksdb_iter_seek(it, start, RDB_SECONDARY_KEY_LEN); rocksdb_iter_valid(it);
         rocksdb_iter_next(it)) {
      size_t kl;
      const char *k = rocksdb_iter_key(it, &kl);
      char pk[RDB_PRIMARY_KEY_LEN], *gerr = NULL;
      index_entries++;
      rdb_primary_key(pk, table, rdb_get_i64(k + 14));
      rocksdb_pinnableslice_t *row = rdb_get(s, pk, sizeof(pk), false, &gerr);
      rdb_row r;
      size_t vl;
      const char *v = row != NULL ? rocksdb_pinnableslice_value(row, &vl) : NULL;
      if (gerr != NULL || v == NULL || !rdb_row_decode(v, vl, &r) || r.k != rdb_get_i64(k + 6))
        index_bad++;
      if (gerr != NULL)
        rocksdb_free(gerr);
      if (row != NULL)
        rocksdb_pinnableslice_destroy(row);
    }
    rocksdb_iter_get_error(it, &err);
    rocksdb_iter_destroy(it);
  }
  if (err != NULL) {
    snprintf(report, report_len, "read error: %s", err);
    rocksdb_free(err);
    return -1;
  }
  bool index_ok = !(meta.flags & KV_TABLE_SECONDARY_INDEX) ||
                  (index_entries == rows && index_bad == 0);
  bool ok = rows == meta.rows_loaded && sum == meta.checksum && index_ok && gaps == 0;
  char ids[96], loaded[64];
  if (meta.seed_known)
    snprintf(loaded, sizeof(loaded), ", from --rand-seed=%" PRIu64, meta.seed);
  else
    loaded[0] = '\0';
  if (gaps == 0)
    snprintf(ids, sizeof(ids), "ids 1..%" PRIu64 " without gaps", rows);
  else
    snprintf(ids, sizeof(ids), "ids with %" PRIu64 " GAPS (the first at id %" PRId64 ")", gaps,
             first_missing);
  snprintf(report, report_len, "sbtest%u: %" PRIu64 " rows (loaded %" PRIu64 "%s), checksum "
           "%s, secondary index %s (%" PRIu64 " entries, %" PRIu64 " wrong), %s, checksum "
           "%016" PRIx64, table, rows, meta.rows_loaded, loaded,
           sum == meta.checksum ? "matches" : "DIFFERS",
           !(meta.flags & KV_TABLE_SECONDARY_INDEX) ? "absent" : index_ok ? "consistent"
           : "INCONSISTENT", index_entries, index_bad, ids, sum);
  return ok ? 0 : 1;
}
