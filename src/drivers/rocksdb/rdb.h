/*
 * rdb.h: what the files of the embedded RocksDB driver share: its configuration, the one
 * database handle of the process (plain, pessimistic or optimistic transactions), the
 * per-connection session, and the key layout of the sbtest tables.
 *
 * Key layout (order-preserving, big-endian, signed numbers with the sign bit flipped):
 *   primary    't' table:u32 'p' id:i64          -> k:i64, c, pad
 *   secondary  't' table:u32 's' k:i64 id:i64    -> (empty)
 *   metadata   'm' table:u32                     -> table flags and row count at load
 *   user keys  'u' <bytes>                       (the generic key-value Lua API)
 */
#ifndef SB_RDB_H
#define SB_RDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <sys/stat.h>

#include <rocksdb/c.h>

#include "db.h"
#include "db_kv.h"

/* ---- configuration (--rocksdb-* options) ---- */

typedef enum { RDB_TXN_NONE, RDB_TXN_OPTIMISTIC, RDB_TXN_PESSIMISTIC } rdb_txn_mode;

typedef struct {
  const char *path;
  uint64_t cache_size;
  int compression;            /* rocksdb_*_compression */
  const char *compression_name;
  int bloom_bits;
  uint64_t write_buffer_size;
  uint64_t block_size;
  bool sync;
  bool disable_wal;
  bool direct_io;
  const char *options_file;
  rdb_txn_mode txn;
  bool stats;
  bool info_log;              /* --rocksdb-log: RocksDB writes its LOG file */
  /* The options above that apply: all of them, or with --rocksdb-options-file only those
     given on the command line (the file says the rest). */
  struct {
    bool compression;
    bool write_buffer_size;
    bool table;               /* the block cache, block size and bloom filter */
  } apply;
  bool prepare;               /* the command: prepare creates the database, loads plainly */
  bool cleanup;               /* ... cleanup drops tables plainly */
} rdb_config;

extern rdb_config rdb_cfg;
extern const option_decl rdb_args[];
/* Read the --rocksdb-* options and the command into rdb_cfg (once, at the driver's start);
   -1 after a FATAL line. */
int rdb_config_load(void);

/* ---- the database of the process ---- */

typedef struct {
  rdb_txn_mode mode;              /* how it was opened (NONE for prepare/cleanup) */
  rocksdb_t *db;                  /* plain DB, or the optimistic DB's base */
  rocksdb_transactiondb_t *txn_db;
  rocksdb_optimistictransactiondb_t *otxn_db;
  rocksdb_options_t *options;
  rocksdb_cache_t *cache;
  rocksdb_block_based_table_options_t *table_options;
  rocksdb_filterpolicy_t *filter;   /* owned by table_options once set */
  rocksdb_transactiondb_options_t *txn_db_options;
  bool created_directory;        /* the directory carries our marker: prepare created it */
  bool fresh;                    /* this command's prepare found the directory empty (or
                                    created it) and is starting the database there */
} rdb_store;

extern rdb_store rdb;

int rdb_store_open(void);
void rdb_store_close(void);
/* Integer property of the database (rocksdb_property_int); false if unknown. */
bool rdb_property_int(const char *name, uint64_t *value);
/* After the last table was dropped: remove the files of the database, then the directory if
   this tool created it and it holds nothing else (rdb_files.c). */
void rdb_store_remove_if_empty(void);

/* ---- the database directory as files (rdb_dir.c) ---- */

/* Written by `prepare` into a directory it creates: `cleanup` may remove such a directory. */
#define RDB_MARKER_FILE "SYSBENCH-CREATED"
/* The record of the files sysbench and RocksDB created in the directory (rdb_files.c). */
#define RDB_RECORD_FILE "SYSBENCH-FILES"

/* What RocksDB takes a name of its directory for (rdb_dir_name_kind). */
typedef enum {
  RDB_NAME_OTHER,      /* none of its names: RocksDB never touches the file */
  RDB_NAME_FIXED,      /* CURRENT, IDENTITY, LOCK, LOG: the database's by their name */
  RDB_NAME_WAL,        /* <n>.log: replayed by an open, deleted once obsolete */
  RDB_NAME_TABLE,      /* <n>.sst, <n>.ldb: deleted by an open unless the database uses it */
  RDB_NAME_MANIFEST,   /* MANIFEST-<n>: deleted unless CURRENT names it */
  RDB_NAME_OPTIONS,    /* OPTIONS-<n>: all but the newest two deleted */
  RDB_NAME_NUMBERED,   /* <n>.blob, <n>.dbtmp, OPTIONS-<n>... : numbered, deleted if unused */
  RDB_NAME_OLD_LOG,    /* LOG.old.<microseconds>: an info log an open renamed */
  RDB_NAME_ODD         /* LOG<anything else>: taken for an info log, and deleted */
} rdb_name_kind;

/* The kind of `name`, and in *number its number (the microseconds of LOG.old.<n>). Every
   kind but RDB_NAME_OTHER is one RocksDB may delete, rename or replay when it opens. All
   numbers but LOG.old's come from one counter of the database, which only grows. */
rdb_name_kind rdb_dir_name_kind(const char *name, uint64_t *number);

typedef struct {
  int entries;               /* all but . and .. */
  char first_entry[256];
  int foreign;               /* entries that are neither plain files named like RocksDB's nor
                                sysbench's own */
  char first_foreign[256];
  bool has_current, has_marker, has_record;
  uint64_t replay_bytes;     /* the write-ahead logs: what an open flushes into a table */
} rdb_dir_contents;

/* Lists `path` without following symlinks; -1 with errno when it cannot be read. */
int rdb_dir_scan(const char *path, rdb_dir_contents *contents);
/* The entries of a directory: rdb_dir_open (NULL when it cannot be read; *fd for the *at()
   calls), then rdb_dir_next for each entry but . and .. (its lstat in *st, zeroed when that
   failed), closedir at the end. */
DIR *rdb_dir_open(const char *path, int *fd);
bool rdb_dir_next(DIR *d, int fd, const char **name, struct stat *st);
/* A temporary SST file of the loader (rdb_load.c names them). */
bool rdb_dir_is_load_file(const char *name);
/* A file of sysbench itself: the marker, the record, the loader's files. */
bool rdb_dir_is_own_file(const char *name);
/* Unlinks the loader's temporary SST files in `path`; how many, or -1. */
int rdb_dir_remove_load_files(const char *path);
/* Another process has the database at `path` open (holds the lock on its LOCK file). */
bool rdb_dir_lock_held(const char *path);
/* 0 when the file system of `path` has room to open a database whose write-ahead logs take
   `replay_bytes`; otherwise -1 after a FATAL line. */
int rdb_dir_check_space(const char *path, uint64_t replay_bytes);

/* ---- which files are the database's (rdb_files.c) ---- */

/* Before RocksDB opens the database at `path` read-write (and may delete or replay any file
   named like its own): 0 when every such file there is the database's, and the record then
   says a command is under way; otherwise -1 after one FATAL line naming the others, with
   nothing written. `fresh`: prepare in a directory it found empty. */
int rdb_files_check(const char *path, bool fresh);
/* After the open and after the close: the record lists the files there now. */
void rdb_files_record(const char *path, bool closed);
/* The last command on the database did not end (killed, crashed) or left no record: what it
   left is to be removed (the loader's files). */
bool rdb_files_unclean(void);
/* With the database closed and empty: removes the files of the record, then the record and
   the marker, then the directory if prepare created it and nothing else is in it; with
   `say`, a line says what was kept and why. */
void rdb_files_remove_database(const char *path, bool created_directory, bool say);

/* ---- sessions: one per connection ---- */

#define RDB_ROW_MAX (8 + 2 + 65535 + 2 + 65535)

typedef struct {
  const char *ptr;
  uint32_t len;
} rdb_slice;

typedef struct rdb_session {
  db_conn *con;
  rocksdb_readoptions_t *read;          /* point reads */
  rocksdb_readoptions_t *scan;          /* range scans (upper bound set per scan) */
  rocksdb_writeoptions_t *write;
  rocksdb_transaction_options_t *txn_options;
  rocksdb_optimistictransaction_options_t *otxn_options;
  rocksdb_transaction_t *txn;           /* BEGIN ... COMMIT, or NULL */
  rocksdb_transaction_t *spare_txn;     /* reused by the next begin */
  bool txn_explicit;
  rocksdb_writebatch_t *batch;          /* a statement's writes outside a transaction */
  rocksdb_writebatch_t *user_batch;     /* sysbench.kv batch */
  rocksdb_writebatch_t *bulk_batch;     /* rows of a multi-row insert */
  char *replay_error;                   /* first error while replaying a user batch */

  /* Result rows of the last read statement (for fetch_row): values point into `arena`. */
  char *arena;
  size_t arena_used, arena_size;
  db_value_t *values;
  size_t value_count, value_capacity;
  uint32_t result_fields;
  uint32_t result_rows;
  uint32_t result_next;

  /* scratch: a row being rewritten, user keys of the generic API */
  char row_buffer[RDB_ROW_MAX];
  char new_row_buffer[RDB_ROW_MAX];
  char key_buffer[65536 + 1];
  char upper_buffer[65536 + 1];

  /* scratch: keys for multi-get and the secondary-index results */
  char *keys;
  size_t keys_capacity;
  uint64_t *ids;
  size_t ids_capacity;
} rdb_session;

rdb_session *rdb_session_new(db_conn *con);
void rdb_session_free(rdb_session *s);

/* Errors: set the connection's error from a RocksDB error string (freed here). Conflicts,
   busy and lock time-outs restart the transaction (as a deadlock would in SQL: the database
   layer rolls it back with rdb_rollback, and the event restarts); any other is fatal.
   Returns the error class. */
driver_error_class rdb_fail(rdb_session *s, char *err, const char *what);
/* A SQL-like error of our own (e.g. duplicate key 1062, no such table 1146). */
driver_error_class rdb_fail_sql(rdb_session *s, driver_error_class cls, int sql_errno,
                                const char *state,
                                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

int rdb_begin(rdb_session *s, bool explicit_txn);
int rdb_commit(rdb_session *s);
void rdb_rollback(rdb_session *s);

/* Reads through the session's transaction if any. `for_update` locks the key
   (pessimistic) or records it for conflict checking (optimistic). */
rocksdb_pinnableslice_t *rdb_get(rdb_session *s, const char *key, size_t klen, bool for_update,
                                 char **err);
rocksdb_iterator_t *rdb_iterator(rdb_session *s, const char *upper, size_t upper_len);
void rdb_multi_get(rdb_session *s, size_t n, const char *const *keys, const size_t *klens,
                   char **values, size_t *vlens, char **errs);
/* A statement's writes: inside a transaction they go to it, otherwise into s->batch, which
   rdb_apply writes atomically. The first error lands in *err; later writes are skipped. */
void rdb_put(rdb_session *s, const char *k, size_t kl, const char *v, size_t vl, char **err);
void rdb_delete(rdb_session *s, const char *k, size_t kl, char **err);
int rdb_apply(rdb_session *s, char **err);

/* Result building for fetch_row. */
void rdb_result_reset(rdb_session *s, uint32_t fields);
void rdb_result_add(rdb_session *s, const char *value, size_t len);   /* next field */
void rdb_result_add_null(rdb_session *s);
void rdb_result_add_i64(rdb_session *s, int64_t v);
void rdb_result_end_row(rdb_session *s);

/* ---- keys ---- */

#define RDB_PRIMARY_KEY_LEN 14
#define RDB_SECONDARY_KEY_LEN 22
#define RDB_META_KEY_LEN 5

static inline void rdb_put_u32(char *p, uint32_t v)
{
  p[0] = (char) (v >> 24); p[1] = (char) (v >> 16); p[2] = (char) (v >> 8); p[3] = (char) v;
}

static inline void rdb_put_i64(char *p, int64_t v)
{
  uint64_t u = (uint64_t) v ^ 0x8000000000000000ULL;
  for (int i = 7; i >= 0; i--, u >>= 8)
    p[i] = (char) (u & 0xff);
}

static inline int64_t rdb_get_i64(const char *p)
{
  uint64_t u = 0;
  for (int i = 0; i < 8; i++)
    u = (u << 8) | (unsigned char) p[i];
  return (int64_t) (u ^ 0x8000000000000000ULL);
}

static inline void rdb_primary_key(char *out, uint32_t table, int64_t id)
{
  out[0] = 't';
  rdb_put_u32(out + 1, table);
  out[5] = 'p';
  rdb_put_i64(out + 6, id);
}

static inline void rdb_secondary_key(char *out, uint32_t table, int64_t k, int64_t id)
{
  out[0] = 't';
  rdb_put_u32(out + 1, table);
  out[5] = 's';
  rdb_put_i64(out + 6, k);
  rdb_put_i64(out + 14, id);
}

/* The first key past every key of `index` ('p' or 's') of `table`. */
static inline void rdb_index_end(char *out, uint32_t table, char index)
{
  out[0] = 't';
  rdb_put_u32(out + 1, table);
  out[5] = (char) (index + 1);
}

static inline void rdb_meta_key(char *out, uint32_t table)
{
  out[0] = 'm';
  rdb_put_u32(out + 1, table);
}

#endif
