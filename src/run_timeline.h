/*
 * run_timeline.h: when a run's workers stop and how long its measurement lasted, as pure
 * functions of the clock; the runner holds the state, tests/unit/test_run_timeline.c the rules.
 *
 * The measurement starts when the workers are released (after any warm-up) and ends when the
 * last worker has finished its last event: the report's total time is that span, neither the
 * nominal --time nor the time thread_done(), the joins and closing connections take after it.
 * Workers compare the clock with the deadline themselves before each event, as 1.0.20's do,
 * so a run ends as soon as its events allow, however late the main thread is scheduled.
 */
#ifndef SB_RUN_TIMELINE_H
#define SB_RUN_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

/* The moment after which no event starts: the measurement's start plus --time; 0 (none) when
   --time is 0. */
uint64_t timeline_deadline(uint64_t measure_start_ns, double max_time_s);

/* True when an event about to start at now_ns would begin at or after the deadline. */
bool timeline_time_is_up(uint64_t deadline_ns, uint64_t now_ns);

/* The workers still running events at tick_ns, given when each left its event loop
   (left_ns[i] == 0: worker i has not left). A worker that left at the tick ran until it. */
unsigned timeline_running_at(const uint64_t *left_ns, unsigned workers, uint64_t tick_ns);

/* The end of the measurement: when the last worker left its event loop, or now_ns while one
   is still running (a forced shutdown reports without waiting for it). */
uint64_t timeline_end(const uint64_t *left_ns, unsigned workers, uint64_t now_ns);

#endif
