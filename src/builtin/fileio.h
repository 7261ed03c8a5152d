/*
 * fileio.h: what the files of the `fileio` test share: its settings (read once from the
 * options, read-only afterwards), one I/O request, a worker's own state, and each part's
 * entry points. The parts, one job each:
 *
 *   fileio.c           the test object: the prepare / cleanup / help commands and run hooks
 *   fileio_options.c   the options, 1.0.20's help text for them, parsing them into settings
 *   fileio_files.c     test_file.N: creating (prepare), opening and mapping (run), removing
 *   fileio_requests.c  which request comes next: sequential or random position, fsync cadence
 *   fileio_io.c        doing one request with sync or mmap I/O; counting; fsync at the end
 *   fileio_aio.c       carrying asynchronous requests to Linux native AIO (libaio) and back
 *   fileio_aio_queue.c a worker's asynchronous requests: when each is seen complete and timed,
 *                      when a submission waits (--file-async-backlog), what rndrw's ratio sees
 *   fileio_block.c     block contents under --validate: fill and check (CRC-32 and offset)
 *   fileio_latency.c   latency of each read, write and fsync, per worker
 *   fileio_report.c    the mode lines, the intermediate line and the final report
 */
#ifndef SB_FILEIO_H
#define SB_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "worker.h"

typedef enum {
  FILEIO_SEQWR,      /* sequential write: the run creates the files anew */
  FILEIO_SEQREWR,    /* sequential rewrite of prepared files */
  FILEIO_SEQRD,
  FILEIO_RNDRD,
  FILEIO_RNDWR,
  FILEIO_RNDRW
} fileio_test_mode;

typedef enum { FILEIO_IO_SYNC, FILEIO_IO_ASYNC, FILEIO_IO_MMAP } fileio_io_mode;

/* --file-extra-flags */
enum { FILEIO_FLAG_SYNC = 1, FILEIO_FLAG_DSYNC = 2, FILEIO_FLAG_DIRECT = 4 };

/* Operation codes, as 1.0.20 prints them under --debug ("operation: 2"). */
typedef enum { FILEIO_OP_READ = 1, FILEIO_OP_WRITE = 2, FILEIO_OP_FSYNC = 3 } fileio_op;
#define FILEIO_OP_KINDS 3
/* 0, 1, 2 for read, write, fsync: the index of an operation in per-operation arrays. */
static inline unsigned fileio_op_index(fileio_op op)
{
  return (unsigned) op - 1;
}

typedef struct fileio_settings {
  unsigned file_num;
  uint64_t total_size;          /* --file-total-size as given */
  uint64_t file_size;           /* total_size / file_num: the size each file must have */
  uint64_t block_size;
  uint64_t request_size;        /* block_size x --file-merged-requests (sequential modes) */
  unsigned merged_requests;
  bool for_run;                 /* parsed for `run`: the test mode below is set */
  fileio_test_mode mode;
  fileio_io_mode io_mode;
  unsigned async_backlog;
  unsigned extra_flags;         /* FILEIO_FLAG_* */
  unsigned fsync_freq;          /* 0 = no periodic fsync */
  bool fsync_all;               /* fsync after every write (turns the other two off) */
  bool fsync_end;               /* each thread fsyncs every file when it finishes */
  bool fdatasync;               /* --file-fsync-mode=fdatasync */
  double rw_ratio;
  unsigned threads;
  bool validate;
  bool debug;
} fileio_settings;

/* Whether a test mode writes to the files (and so fsyncs them). */
static inline bool fileio_mode_writes(fileio_test_mode mode)
{
  return mode != FILEIO_SEQRD && mode != FILEIO_RNDRD;
}

static inline bool fileio_mode_sequential(fileio_test_mode mode)
{
  return mode == FILEIO_SEQWR || mode == FILEIO_SEQREWR || mode == FILEIO_SEQRD;
}

/* One request: an event of the run. An fsync request has pos 0 and size 0. */
typedef struct fileio_request {
  fileio_op op;
  unsigned file;
  uint64_t pos;
  uint64_t size;
} fileio_request;

/* The open test files of a run. */
typedef struct fileio_files {
  unsigned count;
  int *fds;
  unsigned char **maps;         /* whole-file mappings (mmap mode), else NULL */
  uint64_t map_size;
} fileio_files;

/* --file-io-mode=mmap: a SIGBUS on one of these mappings (no room left behind a sparse
   file) prints which file and where, with a HINT, and exits 1 (fileio_mapfault.c). */
void fileio_mapfault_watch(const fileio_files *files);
void fileio_mapfault_unwatch(void);

struct fileio_aio;

/* What one worker owns; only its own thread touches it during the run. */
typedef struct fileio_worker {
  int thread_id;
  worker *worker;               /* the runner's worker this one is the fileio part of */
  const fileio_settings *settings;
  const fileio_files *files;
  unsigned char *buffer;        /* request_size bytes, page aligned: sync and mmap I/O */
  /* rndrw reads while (reads + 1) / (writes + 1) of these stays below --file-rw-ratio. As in
     1.0.20 they count requests once reaped: at once in sync and mmap mode, and in async mode
     only when a full backlog is reaped (fileio_aio_queue.h). */
  uint64_t reads_counted;
  uint64_t writes_counted;
  struct fileio_aio *aio;       /* async mode only */
} __attribute__((aligned(128))) fileio_worker;

/* ---- fileio_options.c ---- */
/* Read the options into `s` with 1.0.20's checks and messages; `for_run` also reads the test
   mode and the async backlog. Returns 0, or -1 after printing why. */
int fileio_settings_read(fileio_settings *s, bool for_run);
/* Size as 1.0.20 prints it: "16KiB", "5.333KiB", "1GiB" (the caller adds the "B"). */
const char *fileio_size_text(char *buf, size_t len, double bytes);

/* ---- fileio_files.c ---- */
int fileio_files_create(const fileio_settings *s);        /* the prepare command */
int fileio_files_remove(const fileio_settings *s);        /* the cleanup command */
int fileio_files_open(const fileio_settings *s, fileio_files *files);
void fileio_files_close(fileio_files *files);
/* open(2) flags for --file-extra-flags. */
int fileio_open_flags(const fileio_settings *s);
/* "test_file.N" */
void fileio_file_name(char *buf, size_t len, unsigned index);
/* FATAL line as 1.0.20's log_errno prints it: "<message> errno = N (text)". */
void fileio_log_errno(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A "HINT: " line after a system call on `file_name` failed with `err` (opening it, or
   reading / writing it): what that means here and what to do. Nothing for the obvious cases. */
void fileio_hint_for_errno(int err, const fileio_settings *s, const char *file_name,
                           bool opening);

/* ---- fileio_requests.c ---- */
int fileio_requests_init(const fileio_settings *s);
void fileio_requests_free(void);
/* The next request for worker `w`: 0, or -1 after a fatal error while waiting for a block
   (--validate with asynchronous I/O). */
int fileio_request_next(fileio_worker *w, fileio_request *r);
/* --validate: the block of `r` is no longer in flight (see fileio_requests.c). */
void fileio_request_finished(const fileio_request *r);

/* ---- fileio_io.c ---- */
int fileio_io_thread_init(fileio_worker *w);
int fileio_io_execute(fileio_worker *w, const fileio_request *r);
int fileio_io_thread_done(fileio_worker *w);
void fileio_io_thread_free(fileio_worker *w);
/* A read or write is complete (synchronously, or reaped from the AIO queue): check the
   result, validate what was read, count it and record its latency. 0 or -1 (fatal). */
int fileio_io_completed(fileio_worker *w, const fileio_request *r, const unsigned char *buffer,
                        int64_t result, int error, uint64_t latency_ns, bool measured);

/* ---- fileio_aio.c ---- */
bool fileio_aio_available(void);
int fileio_aio_thread_init(fileio_worker *w);
void fileio_aio_thread_free(fileio_worker *w);
/* The buffer the next submitted request will use (fill it before submitting a write). */
unsigned char *fileio_aio_next_buffer(fileio_worker *w);
/* Queue a read or write whose submission began at `started_ns`; when the backlog is full,
   wait until at least one finishes. */
int fileio_aio_submit(fileio_worker *w, const fileio_request *r, uint64_t started_ns);
/* Take the requests that have finished by now, without waiting: how many, or -1. */
int fileio_aio_poll(fileio_worker *w);
/* Wait until no request of this worker is in flight. */
int fileio_aio_drain(fileio_worker *w);

/* ---- fileio_block.c ---- */
/* Fill a block with random bytes, their CRC-32 and the block's offset in its file (1.0.20's
   layout, so files of either tool validate with the other). */
void fileio_block_fill(rand_state *rand, unsigned char *block, size_t len, uint64_t offset);
/* Check a block read back; on a mismatch print 1.0.20's FATAL lines and return -1. */
int fileio_block_check(const unsigned char *block, size_t len, uint64_t offset);
/* The smallest block --validate can use: the checksum and offset fields. */
#define FILEIO_BLOCK_TRAILER 12

/* ---- fileio_latency.c ---- */
/* `kinds`: which operations the run can do (bit 1 << fileio_op_index(op)); only those get
   histograms. */
int fileio_latency_init(unsigned threads, unsigned kinds);
void fileio_latency_free(void);
/* One finished operation of the calling worker; `measured` is false for warm-up work. */
void fileio_latency_record(int thread_id, fileio_op op, uint64_t latency_ns, bool measured);
/* Whether the running event of `w` is measured (not a warm-up event). */
bool fileio_latency_measured(const worker *w);
/* When the running event of `thread_id` started: the first operation of an event starts with
   it, so it needs no clock read of its own. */
uint64_t fileio_event_started_ns(const worker *w);

typedef struct fileio_latency_summary {
  uint64_t count;
  double min, avg, max, percentile;   /* seconds */
} fileio_latency_summary;
/* Latency of each kind of operation since the previous call (the previous cumulative report,
   i.e. the last checkpoint) until now; `percentile` is --percentile (0 = none). */
void fileio_latency_summarize(fileio_latency_summary out[FILEIO_OP_KINDS], double percentile);

/* ---- fileio_report.c ---- */
struct sb_stat;
void fileio_print_extra_flags(const fileio_settings *s);
void fileio_report_mode(const fileio_settings *s);
void fileio_report_intermediate(worker *reporter, struct sb_stat *stat,
                                const report_layout *layout);
void fileio_report_cumulative(worker *reporter, struct sb_stat *stat,
                              const report_layout *layout);

#endif
