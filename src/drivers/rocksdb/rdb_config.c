/*
 * rdb_config.c: the --rocksdb-* options, their defaults and checks, and what the driver needs
 * to know of the command line, read once into rdb_cfg when the driver starts: no other file
 * of the driver reads options.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "args.h"
#include "logger.h"
#include "options.h"
#include "rdb.h"

rdb_config rdb_cfg;

static const char *const compression_names[] = {"none", "snappy", "lz4", "zstd", NULL};
static const char *const txn_names[] = {"none", "optimistic", "pessimistic", NULL};

/* Given at all, an OPTIONS file must be there to read: said before anything runs. */
static bool readable_file(const char *path)
{
  return *path == '\0' || access(path, R_OK) == 0;
}

/* Ranges, words and the OPTIONS file are checked by the option registry before anything
   runs. */
const option_decl rdb_args[] = {
  {.name = "rocksdb-path", .desc = "database directory (created if missing)", .default_text = "sysbench-rocksdb", .type = SB_ARG_TYPE_STRING},
  {.name = "rocksdb-cache-size", .desc = "block cache size", .default_text = "256M", .type = SB_ARG_TYPE_SIZE},
  {.name = "rocksdb-compression", .desc = "compression of data blocks {none, snappy, lz4, zstd}", .default_text = "lz4", .type = SB_ARG_TYPE_STRING,
   .choices = compression_names, .any_case = true},
  {.name = "rocksdb-bloom-bits", .desc = "bloom filter bits per key, 0 for no filter", .default_text = "10", .type = SB_ARG_TYPE_INT,
   .ranged = true, .min = 0, .max = 64},
  {.name = "rocksdb-write-buffer-size", .desc = "memtable size", .default_text = "64M", .type = SB_ARG_TYPE_SIZE,
   .ranged = true, .min = 65536, .max = 1e15, .expect = "at least 64K"},
  {.name = "rocksdb-block-size", .desc = "data block size", .default_text = "16K", .type = SB_ARG_TYPE_SIZE,
   .ranged = true, .min = 256, .max = 256.0 * 1024 * 1024, .expect = "256 bytes to 256M"},
  {.name = "rocksdb-sync", .desc = "fsync the write-ahead log on every commit", .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = "rocksdb-disable-wal", .desc = "write without a write-ahead log (unsafe, faster)", .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = "rocksdb-direct-io", .desc = "O_DIRECT reads and flush/compaction writes", .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = "rocksdb-options-file", .desc = "a RocksDB OPTIONS file to start from (the options above then "
   "apply only where given on the command line)", .type = SB_ARG_TYPE_STRING,
   .item_ok = readable_file, .expect = "the path of a readable RocksDB OPTIONS file"},
  {.name = "rocksdb-txn", .desc = "what BEGIN/COMMIT map to {none, optimistic, pessimistic}", .default_text = "pessimistic", .type = SB_ARG_TYPE_STRING,
   .choices = txn_names, .any_case = true},
  {.name = "rocksdb-stats", .desc = "print RocksDB statistics and the block cache hit rate after the run", .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = "rocksdb-log", .desc = "write RocksDB's LOG file (off: it stays empty, as a full disk makes librocksdb abort while writing it)", .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = NULL}
};

static const struct {
  const char *name;
  int value;
} compressions[] = {
  {"none", rocksdb_no_compression},
  {"snappy", rocksdb_snappy_compression},
  {"lz4", rocksdb_lz4_compression},
  {"zstd", rocksdb_zstd_compression},
};

/* Ranges and words were checked by the declarations before anything ran. */
int rdb_config_load(void)
{
  rdb_config *c = &rdb_cfg;
  const char *value;

  memset(c, 0, sizeof(*c));
  c->path = opt_string("rocksdb-path");
  if (c->path == NULL || *c->path == '\0') {
    option_report_invalid("rocksdb-path", c->path, NULL, "a directory path");
    return -1;
  }

  c->cache_size = opt_size("rocksdb-cache-size");
  c->write_buffer_size = opt_size("rocksdb-write-buffer-size");
  c->block_size = opt_size("rocksdb-block-size");
  c->bloom_bits = (int) opt_int("rocksdb-bloom-bits");

  value = opt_string("rocksdb-compression");
  c->compression = -1;
  for (size_t i = 0; i < sizeof(compressions) / sizeof(compressions[0]); i++)
    if (value != NULL && strcasecmp(value, compressions[i].name) == 0) {
      c->compression = compressions[i].value;
      c->compression_name = compressions[i].name;
    }
  assert(c->compression >= 0);          /* one of compression_names */

  value = opt_string("rocksdb-txn");
  if (value != NULL && strcasecmp(value, "none") == 0)
    c->txn = RDB_TXN_NONE;
  else if (value != NULL && strcasecmp(value, "optimistic") == 0)
    c->txn = RDB_TXN_OPTIMISTIC;
  else
    c->txn = RDB_TXN_PESSIMISTIC;       /* the only other of txn_names */

  c->sync = opt_bool("rocksdb-sync");
  c->disable_wal = opt_bool("rocksdb-disable-wal");
  if (c->sync && c->disable_wal) {
    log_text(LOG_FATAL, "--rocksdb-sync and --rocksdb-disable-wal exclude each other: "
             "choose one");
    return -1;
  }
  c->direct_io = opt_bool("rocksdb-direct-io");
  c->options_file = opt_string("rocksdb-options-file");
  if (c->options_file != NULL && *c->options_file == '\0')
    c->options_file = NULL;
  c->stats = opt_bool("rocksdb-stats");
  c->info_log = opt_bool("rocksdb-log");

  bool all = c->options_file == NULL;
  c->apply.compression = all || opt_is_set("rocksdb-compression");
  c->apply.write_buffer_size = all || opt_is_set("rocksdb-write-buffer-size");
  c->apply.table = all || opt_is_set("rocksdb-cache-size") ||
                   opt_is_set("rocksdb-block-size") || opt_is_set("rocksdb-bloom-bits");

  const char *command = args_current_command();
  c->prepare = command != NULL && strcmp(command, "prepare") == 0;
  c->cleanup = command != NULL && strcmp(command, "cleanup") == 0;
  return 0;
}
