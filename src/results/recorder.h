/*
 * recorder.h: what the runner tells the result file while a run goes on: when the measurement
 * started (wall clock), every interval, every checkpoint and the final figures, each with its
 * latency histogram. The runner calls these only when a result is being recorded.
 */
#ifndef SB_RESULTS_RECORDER_H
#define SB_RESULTS_RECORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "histogram.h"
#include "results/result.h"
#include "run_config.h"
#include "stats.h"

/* A new run of `test_name` with configuration `cfg` (a sweep runs several, one per thread
   count). */
void recorder_begin(const char *test_name, const run_config *cfg);
/* The measurement starts now (after the warm-up): remember the wall clock. */
void recorder_measurement_started(void);
/* An interval report; `with_queue`: --rate's queue length and concurrency are meaningful. */
void recorder_interval(const sb_stat_t *stat, bool with_queue);
/* A checkpoint or the final report, with the per-thread figures of its period. */
void recorder_cumulative(const sb_stat_t *stat, const stats_snapshot *from,
                         const stats_snapshot *to, bool checkpoint);
/* The latency of one kind of operation over the period of the cumulative report about to be
   recorded (fileio's read, write, fsync): told by the test's report, before it. */
void recorder_operation_latency(const char *name, uint64_t count, uint64_t sum_ns,
                                uint64_t min_ns, uint64_t max_ns,
                                const latency_histogram *histogram);
/* The run is over: returns it (the caller owns it), with `measured` false and no figures
   when it failed before its measurement began; NULL when no run was begun or out of memory. */
result_run *recorder_finish(int exit_code);
/* A run that failed before the runner began it (a script that does not load ...): the run
   begun with the options' configuration, then finished. */
result_run *recorder_not_started(const char *test_name, int exit_code);
/* From now on keep the FATAL and ALERT lines printed, for the next run's result. */
void recorder_watch_errors(void);

/* Forced shutdown: record and write what there is, then _exit(code). */
void results_forced_exit(int code) __attribute__((noreturn));

#endif
