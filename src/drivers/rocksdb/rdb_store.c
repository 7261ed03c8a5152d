/*
 * rdb_store.c: opening and closing the process's one RocksDB database. Checks the path
 * before RocksDB touches it (never adopts a directory that is not a RocksDB database or that
 * holds another program's, never creates one except for `prepare`, never opens one without
 * room to, or while a file there named like RocksDB's is not the database's: rdb_files.c),
 * marks directories it creates so `cleanup` may remove them, builds the options (or starts
 * from a RocksDB OPTIONS file), and opens the database plain for prepare/cleanup, otherwise
 * with the transaction layer --rocksdb-txn asks for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load_state.h"
#include "logger.h"
#include "rdb.h"

rdb_store rdb;

/* rocksdb::InfoLogLevel, which the C API takes as a number */
enum { RDB_LOG_INFO = 1, RDB_LOG_HEADER = 5 };

/* Creates the directory for `prepare`, with the marker that lets `cleanup` remove it; not
   on a file system without room for a database (see rdb_dir_check_space). */
static int create_directory(const char *path)
{
  if (mkdir(path, 0755) != 0) {
    log_text(LOG_FATAL, "Cannot create the RocksDB directory '%s': %s", path, strerror(errno));
    return -1;
  }
  if (rdb_dir_check_space(path, 0) != 0) {
    rmdir(path);
    return -1;
  }
  char marker[4096];
  snprintf(marker, sizeof(marker), "%s/" RDB_MARKER_FILE, path);
  FILE *f = fopen(marker, "w");
  if (f == NULL) {
    log_text(LOG_FATAL, "Cannot write in '%s': %s", path, strerror(errno));
    rmdir(path);
    return -1;
  }
  fputs("This RocksDB directory was created by sysbench; its 'cleanup' command may remove "
        "it.\n", f);
  if (fclose(f) != 0) {
    log_text(LOG_FATAL, "Cannot write in '%s': %s", path, strerror(errno));
    unlink(marker);
    rmdir(path);
    return -1;
  }
  rdb.created_directory = true;
  rdb.fresh = true;
  return 0;
}

/* The first key of a database outside the key spaces of this driver ('m' metadata, 't'
   tables, 'u' the key-value API), shown printable in `shown`; false when there is none.
   One seek per leading byte present, so at most four seeks whatever the size. */
static bool foreign_key(rocksdb_t *db, char *shown, size_t len)
{
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_iterator_t *it = rocksdb_create_iterator(db, ro);
  bool found = false;
  for (rocksdb_iter_seek_to_first(it); rocksdb_iter_valid(it);) {
    size_t kl;
    const char *k = rocksdb_iter_key(it, &kl);
    char lead = kl > 0 ? k[0] : '\0';
    if (lead != 'm' && lead != 't' && lead != 'u') {
      size_t used = 0;
      for (size_t i = 0; i < kl && i < 24 && used + 5 < len; i++)
        used += (size_t) snprintf(shown + used, len - used,
                                  k[i] >= 0x20 && k[i] < 0x7f ? "%c" : "\\x%02x",
                                  (unsigned char) k[i]);
      shown[used] = '\0';
      found = true;
      break;
    }
    char next = (char) (lead + 1);
    rocksdb_iter_seek(it, &next, 1);
  }
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_destroy(ro);
  return found;
}

/* Only the default column family (read from CURRENT and the MANIFEST: nothing written);
   otherwise a FATAL line and -1. */
static int check_column_families(const rocksdb_options_t *o, const char *path)
{
  char *err = NULL;
  size_t n = 0;
  char **families = rocksdb_list_column_families(o, path, &n, &err);
  if (err != NULL) {
    log_text(LOG_FATAL, "'%s' has a CURRENT file but RocksDB cannot read it as a database "
             "(%s): choose another --rocksdb-path", path, err);
    rocksdb_free(err);
    return -1;
  }
  const char *other = NULL;
  for (size_t i = 0; i < n && other == NULL; i++)
    if (strcmp(families[i], "default") != 0)
      other = families[i];
  if (other != NULL)
    log_text(LOG_FATAL, "'%s' is a RocksDB database sysbench did not create (it has the "
             "column family '%s'): choose another --rocksdb-path", path, other);
  rocksdb_list_column_families_destroy(families, n);
  return other != NULL ? -1 : 0;
}

/* Only keys of ours, read in RocksDB's read-only mode (no LOCK taken, no LOG written);
   otherwise a FATAL line and -1. */
static int check_keys(const rocksdb_options_t *o, const char *path)
{
  char *err = NULL, key[128];
  rocksdb_t *db = rocksdb_open_for_read_only(o, path, 0, &err);
  if (err != NULL) {
    log_text(LOG_FATAL, "Cannot read the RocksDB database at '%s': %s", path, err);
    rocksdb_free(err);
    return -1;
  }
  bool foreign = foreign_key(db, key, sizeof(key));
  if (foreign)
    log_text(LOG_FATAL, "'%s' is a RocksDB database sysbench did not create (it holds the key "
             "'%s'): choose another --rocksdb-path", path, key);
  rocksdb_close(db);
  return foreign ? -1 : 0;
}

/* A database without our marker is used only when this tool could have written it (a
   `prepare` into a directory that existed, or an older version's): the default column
   family alone, and keys of ours only. Both are found out without writing there, so a
   directory refused here stays exactly as it was. */
static int check_unmarked_database(const char *path)
{
  rocksdb_options_t *o = rocksdb_options_create();
  int rc = check_column_families(o, path) == 0 && check_keys(o, path) == 0 ? 0 : -1;
  rocksdb_options_destroy(o);
  return rc;
}

static void report_in_use(const char *path)
{
  log_text(LOG_FATAL, "The RocksDB database at '%s' is in use by another process (its LOCK "
           "file is held); stop that process or use another --rocksdb-path", path);
}

/* Decide whether the path may be used, creating it for prepare. Every refusal comes before
   RocksDB writes anything there (its LOCK, LOG, OPTIONS files). */
static int check_path(const char *path, bool may_create)
{
  struct stat st;
  rdb_dir_contents c;

  if (stat(path, &st) != 0) {
    if (may_create)
      return create_directory(path);
    log_text(LOG_FATAL, "No RocksDB database at '%s': run the 'prepare' command first, or "
             "point --rocksdb-path at one", path);
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    log_text(LOG_FATAL, "--rocksdb-path '%s' exists and is not a directory", path);
    return -1;
  }
  if (access(path, W_OK) != 0) {
    log_text(LOG_FATAL, "Cannot write in the RocksDB directory '%s': %s", path, strerror(errno));
    return -1;
  }
  if (rdb_dir_scan(path, &c) != 0) {
    log_text(LOG_FATAL, "Cannot read the RocksDB directory '%s': %s", path, strerror(errno));
    return -1;
  }
  /* Without CURRENT: empty, or only what a database of ours left before it had one. */
  if (!c.has_current && c.entries > 0 && (c.foreign > 0 || !(c.has_marker || c.has_record))) {
    log_text(LOG_FATAL, "'%s' is not a RocksDB database (no CURRENT file) and not empty (it "
             "holds '%s'): choose another --rocksdb-path", path,
             c.foreign > 0 ? c.first_foreign : c.first_entry);
    return -1;
  }
  if (!c.has_current && !may_create) {
    log_text(LOG_FATAL, "No RocksDB database at '%s': run the 'prepare' command first", path);
    return -1;
  }
  /* Another process's command is under way: its files are not ours to judge. */
  if (rdb_dir_lock_held(path)) {
    report_in_use(path);
    return -1;
  }
  if (c.has_current && !c.has_marker && !c.has_record && check_unmarked_database(path) != 0)
    return -1;
  rdb.created_directory = c.has_marker;
  rdb.fresh = !c.has_current && c.entries == 0;
  return rdb_dir_check_space(path, c.replay_bytes);
}

/* Apply a RocksDB OPTIONS file (INI: [DBOptions], [CFOptions "default"],
   [TableOptions/BlockBasedTable "default"]) through rocksdb_get_options_from_string. */
static int apply_options_file(rocksdb_options_t **options, const char *file)
{
  FILE *f = fopen(file, "r");
  if (f == NULL) {
    log_text(LOG_FATAL, "Cannot read --rocksdb-options-file '%s': %s", file, strerror(errno));
    return -1;
  }
  size_t cap = 4096, used = 0, table_start = 0;
  char *spec = malloc(cap);
  char line[4096];
  enum { SKIP, PLAIN, TABLE } section = SKIP;
  bool in_table = false;

  spec[0] = '\0';
  while (spec != NULL && fgets(line, sizeof(line), f) != NULL) {
    char *s = line;
    while (*s == ' ' || *s == '\t')
      s++;
    s[strcspn(s, "\r\n")] = '\0';
    if (*s == '#' || *s == '\0')
      continue;
    if (*s == '[') {
      if (in_table) {
        used += (size_t) snprintf(spec + used, cap - used, "};");
        in_table = false;
      }
      if (strncmp(s, "[DBOptions]", 11) == 0 || strncmp(s, "[CFOptions \"default\"]", 21) == 0)
        section = PLAIN;
      else if (strncmp(s, "[TableOptions/BlockBasedTable \"default\"]", 40) == 0)
        section = TABLE;
      else
        section = SKIP;
      continue;
    }
    if (section == SKIP || strchr(s, '=') == NULL)
      continue;
    if (used + strlen(s) + 64 > cap) {
      cap = (used + strlen(s) + 64) * 2;
      char *grown = realloc(spec, cap);
      if (grown == NULL) {
        free(spec);
        spec = NULL;
        break;
      }
      spec = grown;
    }
    if (section == TABLE && !in_table) {
      table_start = used;
      used += (size_t) snprintf(spec + used, cap - used, "block_based_table_factory={");
      in_table = true;
    }
    /* Strip spaces around '=' as RocksDB writes "key=value". */
    char *eq = strchr(s, '=');
    char *k_end = eq;
    while (k_end > s && (k_end[-1] == ' ' || k_end[-1] == '\t'))
      k_end--;
    char *v = eq + 1;
    while (*v == ' ' || *v == '\t')
      v++;
    used += (size_t) snprintf(spec + used, cap - used, "%.*s=%s;", (int) (k_end - s), s, v);
  }
  fclose(f);
  (void) table_start;
  if (spec == NULL)
    return -1;
  if (in_table)
    used += (size_t) snprintf(spec + used, cap - used, "};");

  char *err = NULL;
  rocksdb_options_t *parsed = rocksdb_options_create();
  rocksdb_get_options_from_string(*options, spec, parsed, &err);
  free(spec);
  if (err != NULL) {
    log_text(LOG_FATAL, "--rocksdb-options-file '%s' is not a usable RocksDB OPTIONS file: %s",
             file, err);
    rocksdb_free(err);
    rocksdb_options_destroy(parsed);
    return -1;
  }
  rocksdb_options_destroy(*options);
  *options = parsed;
  return 0;
}

static int build_options(bool create)
{
  rdb_config *c = &rdb_cfg;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);

  rdb.options = rocksdb_options_create();
  rocksdb_options_increase_parallelism(rdb.options, cpus > 1 ? (int) cpus : 2);
  rocksdb_options_set_max_background_jobs(rdb.options, cpus > 2 ? (int) cpus : 2);
  rocksdb_options_set_level_compaction_dynamic_level_bytes(rdb.options, 1);
  rocksdb_options_set_bytes_per_sync(rdb.options, 1 << 20);
  if (c->options_file != NULL && apply_options_file(&rdb.options, c->options_file) != 0)
    return -1;
  rocksdb_options_set_create_if_missing(rdb.options, create);
  /* RocksDB's LOG file, unless --rocksdb-log asks for it, stays empty: a librocksdb built
     with assertions (Debian's is) aborts the process when it writes to its LOG after a write
     to it failed, which is what a disk that fills up does to every write. At the header
     level RocksDB writes nothing at all (its header lines go out at the info level), and
     unlike a level past it, it is one its OPTIONS file can record. */
  rocksdb_options_set_info_log_level(rdb.options, c->info_log ? RDB_LOG_INFO : RDB_LOG_HEADER);

  if (c->apply.compression)
    rocksdb_options_set_compression(rdb.options, c->compression);
  if (c->apply.write_buffer_size)
    rocksdb_options_set_write_buffer_size(rdb.options, c->write_buffer_size);
  if (c->direct_io) {
    rocksdb_options_set_use_direct_reads(rdb.options, 1);
    rocksdb_options_set_use_direct_io_for_flush_and_compaction(rdb.options, 1);
  }
  if (c->stats)
    rocksdb_options_enable_statistics(rdb.options);

  /* Index and filter blocks live in the block cache, so memory stays within
     --rocksdb-cache-size plus the memtables. */
  if (c->apply.table) {
    rdb.table_options = rocksdb_block_based_options_create();
    rdb.cache = rocksdb_cache_create_lru(c->cache_size);
    rocksdb_block_based_options_set_block_cache(rdb.table_options, rdb.cache);
    rocksdb_block_based_options_set_block_size(rdb.table_options, c->block_size);
    rocksdb_block_based_options_set_cache_index_and_filter_blocks(rdb.table_options, 1);
    rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(rdb.table_options, 1);
    rocksdb_block_based_options_set_format_version(rdb.table_options, 5);
    if (c->bloom_bits > 0) {
      rdb.filter = rocksdb_filterpolicy_create_bloom_full(c->bloom_bits);
      rocksdb_block_based_options_set_filter_policy(rdb.table_options, rdb.filter);
    }
    rocksdb_options_set_block_based_table_factory(rdb.options, rdb.table_options);
  }
  return 0;
}

/* Turn RocksDB's open errors into what the user should do about them. */
static void report_open_error(const char *path, const char *err)
{
  if (strstr(err, "LOCK") != NULL &&
      (strstr(err, "unavailable") != NULL || strstr(err, "lock hold") != NULL ||
       strstr(err, "No locks available") != NULL))
    report_in_use(path);
  else if (strncmp(err, "Corruption", 10) == 0)
    log_text(LOG_FATAL, "The RocksDB database at '%s' is damaged: %s", path, err);
  else if (strstr(err, "No space left") != NULL)
    log_text(LOG_FATAL, "No space left on the device of '%s': %s", path, err);
  else
    log_text(LOG_FATAL, "Cannot open the RocksDB database at '%s': %s", path, err);
}

/* After an interrupted prepare that could not wait for a thread, before the process ends:
   the loader's temporary files go (the reporter thread calls this; see load_state.h). */
static void remove_load_files_at_exit(void)
{
  rdb_dir_remove_load_files(rdb_cfg.path);
}

/* With the database open (its LOCK held, so no other process is loading into it): files of
   a load that was killed before it could remove them. Only after a command that did not end:
   after one that did, a file of that name is not one of ours. */
static void remove_stale_load_files(const char *path)
{
  if (!rdb_files_unclean())
    return;
  int removed = rdb_dir_remove_load_files(path);
  if (removed > 0)
    log_text(LOG_WARNING, "Removed %d temporary SST file%s an interrupted prepare left in '%s'",
             removed, removed == 1 ? "" : "s", path);
}

/* A failed open of a database this command started leaves nothing behind (every file named
   like RocksDB's there is one RocksDB just wrote: the directory was empty). */
static void open_failed(void)
{
  bool fresh = rdb.fresh, created = rdb.created_directory;
  rdb_store_close();
  if (fresh) {
    rdb_files_record(rdb_cfg.path, true);
    rdb_files_remove_database(rdb_cfg.path, created, false);
  }
  rdb.created_directory = false;
}

int rdb_store_open(void)
{
  bool prepare = rdb_cfg.prepare, cleanup = rdb_cfg.cleanup;
  char *err = NULL;

  if (check_path(rdb_cfg.path, prepare) != 0)
    return -1;
  if (build_options(prepare) != 0 || rdb_files_check(rdb_cfg.path, rdb.fresh) != 0) {
    open_failed();
    return -1;
  }

  /* Loading ingests files and cleanup deletes key ranges: both need the plain database.
     Everything else (run, custom commands) gets the transactions --rocksdb-txn asks for. */
  rdb.mode = prepare || cleanup ? RDB_TXN_NONE : rdb_cfg.txn;
  switch (rdb.mode) {
    case RDB_TXN_PESSIMISTIC:
      rdb.txn_db_options = rocksdb_transactiondb_options_create();
      rdb.txn_db = rocksdb_transactiondb_open(rdb.options, rdb.txn_db_options, rdb_cfg.path,
                                              &err);
      break;
    case RDB_TXN_OPTIMISTIC:
      rdb.otxn_db = rocksdb_optimistictransactiondb_open(rdb.options, rdb_cfg.path, &err);
      if (rdb.otxn_db != NULL)
        rdb.db = rocksdb_optimistictransactiondb_get_base_db(rdb.otxn_db);
      break;
    case RDB_TXN_NONE:
      rdb.db = rocksdb_open(rdb.options, rdb_cfg.path, &err);
      break;
  }
  if (err != NULL) {
    report_open_error(rdb_cfg.path, err);
    rocksdb_free(err);
    open_failed();
    return -1;
  }
  rdb_files_record(rdb_cfg.path, false);
  remove_stale_load_files(rdb_cfg.path);
  if (prepare)
    sb_load_on_forced_exit(remove_load_files_at_exit);
  return 0;
}

void rdb_store_close(void)
{
  bool was_open = rdb.txn_db != NULL || rdb.db != NULL;
  if (rdb.txn_db != NULL)
    rocksdb_transactiondb_close(rdb.txn_db);
  if (rdb.otxn_db != NULL) {
    rocksdb_optimistictransactiondb_close_base_db(rdb.db);
    rocksdb_optimistictransactiondb_close(rdb.otxn_db);
  } else if (rdb.db != NULL) {
    rocksdb_close(rdb.db);
  }
  if (rdb.txn_db_options != NULL)
    rocksdb_transactiondb_options_destroy(rdb.txn_db_options);
  if (rdb.table_options != NULL)
    rocksdb_block_based_options_destroy(rdb.table_options);
  if (rdb.cache != NULL)
    rocksdb_cache_destroy(rdb.cache);
  if (rdb.options != NULL)
    rocksdb_options_destroy(rdb.options);
  bool created = rdb.created_directory;
  memset(&rdb, 0, sizeof(rdb));
  rdb.created_directory = created;
  if (was_open)
    rdb_files_record(rdb_cfg.path, true);
}

bool rdb_property_int(const char *name, uint64_t *value)
{
  if (rdb.txn_db != NULL)
    return rocksdb_transactiondb_property_int(rdb.txn_db, name, value) == 0;
  return rdb.db != NULL && rocksdb_property_int(rdb.db, name, value) == 0;
}

void rdb_store_remove_if_empty(void)
{
  struct stat st;
  if (rdb_cfg.path != NULL && stat(rdb_cfg.path, &st) == 0)
    rdb_files_remove_database(rdb_cfg.path, rdb.created_directory, true);
}
