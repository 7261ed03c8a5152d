/*
 * runner.h: runs a test's `run` command: worker threads, the start barrier, time / event /
 * rate limits, warm-up, intermediate and checkpoint reports, forced shutdown and Ctrl-C,
 * then the final report. Also the per-event entry points Lua reaches through FFI.
 */
#ifndef SB_RUNNER_H
#define SB_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run_config.h"
#include "stats.h"
#include "test.h"
#include "worker.h"

/* The configuration of the run in progress, or outside one the options' (read-only,
   run_config_of_options()). */
const run_config *runner_config(void);

/* Run the test's `run` command with configuration `config` (copied: the run's own); returns
   the process exit code (0, 1 error, 2 forced shutdown or thread start-up timeout,
   128+signal when interrupted). `main`: the calling (main) thread's worker, which makes the
   final report. */
int runner_run(sb_test *test, const run_config *config, worker *main);

/* A fatal error in any thread: every worker stops at its next event and the run ends with
   exit code 1. */
void runner_fail(void);
bool runner_failed(void);
/* The run is ending (time or event limit, failure, signal): workers start no new event. */
bool runner_stopping(void);
/* An error once the measurement is over (thread_done, the final report hook, done()): the
   results still stand and are reported, but the exit code is 1. */
void runner_fail_late(void);

/* A worker's per-event API: C tests call it with their worker, Lua states through FFI with
   the worker they are bound to. */
bool sb_worker_more_events(worker *w);
void sb_worker_event_start(worker *w);
void sb_worker_event_stop(worker *w);
bool sb_worker_event_next(worker *w);  /* stop the running event and start the next, if any */
void sb_worker_event_cancel(worker *w);  /* the running event ends uncounted */
void sb_worker_counter_add(worker *w, sb_counter_type type, uint64_t amount);
uint64_t sb_worker_counter_val(const worker *w, sb_counter_type type);

/* The running run's worker `thread_id`; for an id that names none (no run, a bogus id), the
   slot shared by such counts. */
worker *runner_worker(int thread_id);

/* sysbench 1.0.20's FFI names, by thread id: shims over the worker API above. */
bool sb_more_events(int thread_id);
void sb_event_start(int thread_id);
void sb_event_stop(int thread_id);
bool sb_event_next(int thread_id);     /* stop the running event and start the next, if any */
void sb_event_cancel(int thread_id);   /* the running event ends uncounted */
void sb_counter_inc(int thread_id, sb_counter_type type);
void sb_counter_add(int thread_id, sb_counter_type type, uint64_t amount);
uint64_t sb_counter_val(int thread_id, sb_counter_type type);

#endif
