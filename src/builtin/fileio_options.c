/*
 * fileio_options.c: the fileio test's options: their declarations, the help text sysbench
 * 1.0.20 prints for them, and reading them into a fileio_settings with 1.0.20's checks and
 * error lines (each followed by a "HINT: " line of ours where 1.0.20's line alone would not
 * say what is accepted).
 *
 * --file-block-size and --file-total-size are sizes read the way 1.0.20 reads them: digits and
 * an optional K/M/G/T/P/E multiplier (powers of 1024, either case; anything after it ignored),
 * so "16k" and "16kb" are 16384 and anything else is 0, which the checks below reject with
 * 1.0.20's line. They are declared as strings for that reason, with 1.0.20's types (N and
 * SIZE) for the help.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fileio.h"
#include "logger.h"
#include "options.h"
#include "printable.h"
#include "runner.h"

/*
 * The ranges are checked when fileio reads its settings (checked_on_read), as 1.0.20 checks
 * them: only for the commands that use the option (not for help), in 1.0.20's order, with
 * its lines ("FATAL: Invalid value for file-num: -1" is ours in its style: 1.0.20 took -1).
 */
#define WHOLE_INT "a whole number from 0 to 2147483647"

const option_decl fileio_args[] = {
  {.name = "file-num", .desc = "number of files to create", .default_text = "128",
   .type = SB_ARG_TYPE_INT, .ranged = true, .min = 1, .max = INT_MAX, .checked_on_read = true,
   .compat_error = "FATAL: Invalid value for file-num: %s",
   .expect = "a number of files from 1 to 2147483647"},
  {.name = "file-block-size", .desc = "block size to use in all IO operations",
   .default_text = "16384", .type = SB_ARG_TYPE_STRING, .help_type = SB_ARG_TYPE_INT},
  {.name = "file-total-size", .desc = "total size of files to create", .default_text = "2G",
   .type = SB_ARG_TYPE_STRING, .help_type = SB_ARG_TYPE_SIZE},
  {.name = "file-test-mode", .desc = "test mode {seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw}", .type = SB_ARG_TYPE_STRING},
  {.name = "file-io-mode", .desc = "file operations mode {sync,async,mmap}", .default_text = "sync", .type = SB_ARG_TYPE_STRING},
  {.name = "file-async-backlog", .desc = "number of asynchronous operatons to queue per thread",
   .default_text = "128", .type = SB_ARG_TYPE_INT, .ranged = true, .min = 1, .max = INT_MAX,
   .checked_on_read = true, .compat_error = "FATAL: Invalid value of file-async-backlog: %s",
   .expect = "a number of requests in flight per thread, 1 or more, such as 128"},
  {.name = "file-extra-flags", .desc = "list of additional flags to use to open files {sync,dsync,direct}", .default_text = "", .type = SB_ARG_TYPE_LIST},
  {.name = "file-fsync-freq", .desc = "do fsync() after this number of requests (0 - don't use "
   "fsync())", .default_text = "100", .type = SB_ARG_TYPE_INT, .ranged = true, .min = 0,
   .max = INT_MAX, .checked_on_read = true,
   .compat_error = "FATAL: Invalid value for file-fsync-freq: %s.", .expect = WHOLE_INT},
  {.name = "file-fsync-all", .desc = "do fsync() after each write operation", .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = "file-fsync-end", .desc = "do fsync() at the end of test", .default_text = "on", .type = SB_ARG_TYPE_BOOL},
  {.name = "file-fsync-mode", .desc = "which method to use for synchronization {fsync, fdatasync}", .default_text = "fsync", .type = SB_ARG_TYPE_STRING},
  {.name = "file-merged-requests", .desc = "merge at most this number of IO requests if possible "
   "(0 - don't merge)", .default_text = "0", .type = SB_ARG_TYPE_INT, .ranged = true, .min = 0,
   .max = INT_MAX, .checked_on_read = true,
   .compat_error = "FATAL: Invalid value for file-merged-requests: %s.", .expect = WHOLE_INT},
  {.name = "file-rw-ratio", .desc = "reads/writes ratio for combined test", .default_text = "1.5",
   .type = SB_ARG_TYPE_DOUBLE, .ranged = true, .min = 0, .max = INFINITY,
   .checked_on_read = true, .compat_error = "FATAL: Invalid value for --file-rw-ratio: %f.",
   .expect = "a number of reads per write of 0 or more, such as 1.5"},
  {.name = NULL}
};

static const char size_multipliers[] = "KMGTPE";

const char *fileio_size_text(char *buf, size_t len, double bytes)
{
  size_t i = 0;

  while (i < sizeof(size_multipliers) - 1 && bytes >= 1024) {
    bytes /= 1024;
    i++;
  }
  if (i > 0)
    snprintf(buf, len, "%.5g%ci", bytes, size_multipliers[i - 1]);
  else
    snprintf(buf, len, "%.5g", bytes);
  return buf;
}

/* A size as 1.0.20 reads it; 0 for text it cannot read (and on overflow). */
static uint64_t size_value(const char *text)
{
  uint64_t value = 0;
  const char *c = text;

  if (text == NULL || *c < '0' || *c > '9')
    return 0;
  for (; *c >= '0' && *c <= '9'; c++) {
    if (value > (UINT64_MAX - 9) / 10)
      return 0;
    value = value * 10 + (uint64_t) (*c - '0');
  }
  if (*c == '\0')
    return value;
  char upper = (char) (*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
  const char *m = strchr(size_multipliers, upper);
  if (m == NULL || upper == '\0')
    return 0;
  for (const char *p = size_multipliers; p <= m; p++) {
    if (value > UINT64_MAX / 1024)
      return 0;
    value *= 1024;
  }
  return value;
}

static const char *const test_mode_names[] = {
  [FILEIO_SEQWR] = "seqwr", [FILEIO_SEQREWR] = "seqrewr", [FILEIO_SEQRD] = "seqrd",
  [FILEIO_RNDRD] = "rndrd", [FILEIO_RNDWR] = "rndwr", [FILEIO_RNDRW] = "rndrw",
};

static int read_test_mode(fileio_settings *s)
{
  const char *mode = opt_string("file-test-mode");

  if (mode == NULL) {
    log_text(LOG_FATAL, "Missing required argument: --file-test-mode\n");
    printf("fileio options:\n");     /* as `sysbench fileio help` prints them */
    options_print(fileio_args);
    return -1;
  }
  for (size_t i = 0; i < sizeof(test_mode_names) / sizeof(test_mode_names[0]); i++)
    if (strcmp(mode, test_mode_names[i]) == 0) {
      s->mode = (fileio_test_mode) i;
      return 0;
    }
  log_text(LOG_FATAL, "Invalid IO operations mode: %s.", mode);
  log_hint("--file-test-mode is one of seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw");
  return -1;
}

static int read_io_mode(fileio_settings *s)
{
  const char *mode = opt_string("file-io-mode");

  if (mode == NULL || strcmp(mode, "sync") == 0) {
    s->io_mode = FILEIO_IO_SYNC;
  } else if (strcmp(mode, "async") == 0) {
    if (!fileio_aio_available()) {
      log_text(LOG_FATAL, "asynchronous I/O mode is unsupported on this platform.");
      log_hint("this sysbench was built without libaio: install libaio-dev and rebuild, or use "
           "--file-io-mode=sync or mmap");
      return -1;
    }
    s->io_mode = FILEIO_IO_ASYNC;
  } else if (strcmp(mode, "mmap") == 0) {
    s->io_mode = FILEIO_IO_MMAP;
  } else {
    log_text(LOG_FATAL, "unknown I/O mode: %s", mode);
    log_hint("--file-io-mode is one of sync, async, mmap");
    return -1;
  }
  return 0;
}

/* The request buffers of all threads must fit in memory: one request is at most 1 GiB. */
#define FILEIO_MAX_REQUEST (UINT64_C(1) << 30)

static int read_block_size(fileio_settings *s)
{
  const char *text = opt_string("file-block-size");
  uint64_t block = size_value(text);

  if (block == 0 || block > INT_MAX) {
    /* 1.0.20 keeps the block size in an int and prints that int. */
    char value[32], expect[PRINTABLE_MAX + 128], given[PRINTABLE_MAX];
    snprintf(value, sizeof(value), "%d", block > INT_MAX ? INT_MAX : (int) block);
    snprintf(expect, sizeof(expect), "a size from 1 byte to 2G-1, such as 4K or 16384 "
             "(given: '%s')", printable(text ? text : "", given, sizeof(given)));
    option_report_invalid("file-block-size", value,
                          "FATAL: Invalid value for file-block-size: %s.", expect);
    return -1;
  }
  if (s->validate && block < FILEIO_BLOCK_TRAILER) {
    log_text(LOG_FATAL, "Invalid value for file-block-size: %d.", (int) block);
    log_hint("--validate keeps a checksum and the offset in each block: use a --file-block-size "
         "of at least 12 bytes (given: '%s')", text ? text : "");
    return -1;
  }
  s->block_size = block;
  s->request_size = s->merged_requests > 0 ? block * s->merged_requests : block;
  if (s->request_size > FILEIO_MAX_REQUEST) {
    log_text(LOG_FATAL, "Invalid value for file-merged-requests: %u.", s->merged_requests);
    log_hint("--file-block-size times --file-merged-requests is one request's buffer: keep it "
         "at or below 1G");
    return -1;
  }
  return 0;
}

static int read_extra_flags(fileio_settings *s)
{
  size_t count = 0;
  const char *const *items = opt_list("file-extra-flags", &count);

  s->extra_flags = 0;
  for (size_t i = 0; i < count; i++) {
    if (strcmp(items[i], "sync") == 0)
      s->extra_flags |= FILEIO_FLAG_SYNC;
    else if (strcmp(items[i], "dsync") == 0)
      s->extra_flags |= FILEIO_FLAG_DSYNC;
    else if (strcmp(items[i], "direct") == 0)
      s->extra_flags |= FILEIO_FLAG_DIRECT;
    else {
      /* 1.0.20 names the first item of the list, whichever one is wrong. */
      log_text(LOG_FATAL, "Invalid value for file-extra-flags: %s", items[0]);
      log_hint("--file-extra-flags is a list of sync, dsync, direct; '%s' is none of them",
           items[i]);
      return -1;
    }
  }
  return 0;
}

int fileio_settings_read(fileio_settings *s, bool for_run)
{
  const run_config *run = runner_config();

  memset(s, 0, sizeof(*s));
  s->threads = run->threads;
  s->validate = run->validate;
  s->debug = run->debug;
  s->for_run = for_run;

  if (option_check("file-num") != 0)
    return -1;
  s->file_num = (unsigned) opt_int("file-num");

  const char *total_text = opt_string("file-total-size");
  s->total_size = size_value(total_text);
  if (s->total_size == 0 || s->total_size > INT64_MAX) {
    /* 1.0.20 prints the size it read, as a signed number */
    char value[32], expect[PRINTABLE_MAX + 128], given[PRINTABLE_MAX];
    snprintf(value, sizeof(value), "%lld", (long long) s->total_size);
    snprintf(expect, sizeof(expect), "a size such as 2G, 512M or 1048576 (given: '%s')",
             printable(total_text ? total_text : "", given, sizeof(given)));
    option_report_invalid("file-total-size", value,
                          "FATAL: Invalid value for file-total-size: %s", expect);
    return -1;
  }
  s->file_size = s->total_size / s->file_num;

  if (for_run && read_test_mode(s) != 0)
    return -1;
  if (read_io_mode(s) != 0)
    return -1;
  if (option_check("file-merged-requests") != 0)
    return -1;
  s->merged_requests = (unsigned) opt_int("file-merged-requests");
  if (read_block_size(s) != 0 || read_extra_flags(s) != 0)
    return -1;
  if (option_check("file-fsync-freq") != 0)
    return -1;
  s->fsync_freq = (unsigned) opt_int("file-fsync-freq");

  s->fsync_end = opt_bool("file-fsync-end");
  s->fsync_all = opt_bool("file-fsync-all");
  /* --file-fsync-all replaces the periodic and the final fsync. */
  if (s->fsync_all) {
    s->fsync_end = false;
    s->fsync_freq = 0;
  }

  const char *fsync_mode = opt_string("file-fsync-mode");
  if (fsync_mode != NULL && strcmp(fsync_mode, "fdatasync") == 0) {
    s->fdatasync = true;
  } else if (fsync_mode == NULL || strcmp(fsync_mode, "fsync") != 0) {
    log_text(LOG_FATAL, "Invalid fsync mode: %s.", fsync_mode ? fsync_mode : "(null)");
    log_hint("--file-fsync-mode is fsync or fdatasync");
    return -1;
  }

  if (option_check("file-rw-ratio") != 0)
    return -1;
  s->rw_ratio = opt_double("file-rw-ratio");

  if (!for_run)
    return 0;
  if (s->file_size == 0) {
    /* 1.0.20 divides by the file size here and dies of SIGFPE. */
    log_text(LOG_FATAL, "Invalid value for file-total-size: %lld", (long long) s->total_size);
    log_hint("--file-total-size must give each of the %u files at least one byte", s->file_num);
    return -1;
  }
  if (s->io_mode == FILEIO_IO_ASYNC) {
    if (option_check("file-async-backlog") != 0)
      return -1;
    s->async_backlog = (unsigned) opt_int("file-async-backlog");
  }
  return 0;
}
