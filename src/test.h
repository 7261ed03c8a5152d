/*
 * test.h: what a benchmark (a compiled-in test or a Lua script) gives the runner.
 *
 * A test names itself, declares its options, implements the commands it supports, and for
 * `run` provides the per-thread hooks the runner calls. A C test supplies `event`, which the
 * runner calls in its own tight loop; a Lua test supplies `thread_run`, a whole loop that
 * calls back into sb_worker_more_events / _event_start / _event_stop through FFI. The hooks
 * get the worker they act for (worker.h).
 */
#ifndef SB_TEST_H
#define SB_TEST_H

#include <stdbool.h>

#include "options.h"
#include "report.h"
#include "stats.h"
#include "worker.h"

typedef struct sb_test_ops {
  int (*init)(void);                   /* main thread, before the run mode is printed */
  void (*print_mode)(void);            /* test lines after "Running the test with..." */
  int (*prepare)(void);                /* main thread, after the run mode is printed */
  int (*thread_init)(worker *w);       /* in each worker, before the start barrier */
  int (*event)(worker *w);             /* one event (C tests); non-zero = fatal error */
  int (*thread_run)(worker *w);        /* the whole loop (Lua tests); non-zero = error */
  int (*thread_done)(worker *w);       /* in each worker, after its loop */
  /* Reports, made by `reporter`: the reporter thread's worker, or the main thread's for the
     final report; `layout`: the percentiles to show, the --rate queue line (report.h). */
  void (*report_intermediate)(worker *reporter, sb_stat_t *stat, const report_layout *layout);
  void (*report_cumulative)(worker *reporter, sb_stat_t *stat, const report_layout *layout);
  /* The reporter thread ends (before the final report): what the test kept in its worker
     for the reports goes. */
  void (*report_done)(worker *reporter);
  int (*cleanup)(void);                /* main thread, after workers stopped */
  int (*done)(void);                   /* main thread, last */
} sb_test_ops;

typedef struct sb_test {
  const char *name;                    /* what the user types: "cpu", "oltp_read_only" */
  /* The test ends its workers' loops itself and --events is ignored, as in 1.0.20 (memory:
     --memory-total-size is the limit). */
  bool limits_own_events;
  const char *description;             /* listed by --help for compiled-in tests */
  const option_decl *options;          /* test options (NULL = none declared) */
  int (*cmd_prepare)(void);            /* NULL: "does not implement the 'prepare' command" */
  int (*cmd_cleanup)(void);
  int (*cmd_help)(void);
  sb_test_ops ops;
} sb_test;

/* Compiled-in tests, NULL-terminated, in --help order. */
extern sb_test *const builtin_tests[];

#endif
