/*
 * run_timeline.h: the decisions of a run's timeline as functions of explicit times: when the
 * warm-up ends, when workers stop, when a forced shutdown comes, which report ticks and
 * checkpoints are due, how many workers ran at a tick, when the measurement ended, and how
 * the --events budget is handed out. The runner reads the clock and acts; the rules live here,
 * where tests/unit/test_run_timeline.c drives them with a fake clock.
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
#include <stddef.h>
#include <stdint.h>

/* ---- stopping ---------------------------------------------------------------------------- */

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

/* How many events of the --events budget a worker takes at once when `left` remain for
   `workers` workers: many while plenty is left, one at a time near the end, so the total is
   exact and no worker idles on a large unused batch. 0 when none is left. */
uint64_t timeline_events_batch(uint64_t left, unsigned workers);

/* ---- the main thread's timeline ---------------------------------------------------------- */

/* What the main thread does next. */
typedef enum {
  TIMELINE_WAIT,                /* nothing now: sleep until timeline_wake_at() */
  TIMELINE_END_WARMUP,          /* statistics start: take the baseline, start the reports */
  TIMELINE_STOP_NOW,            /* a signal or a failure: workers start no further event */
  TIMELINE_STOP_TIME_LIMIT,     /* --time is up: workers stop at the deadline */
  TIMELINE_FORCED_SHUTDOWN      /* --forced-shutdown: report and exit without the workers */
} timeline_action;

typedef struct run_timeline {
  /* from the configuration */
  double max_time_s;            /* --time; 0 = none */
  bool forced_shutdown;
  uint64_t forced_after_ns;     /* after the deadline */
  /* where the run is */
  bool warming;
  uint64_t warmup_end_ns;
  bool measuring;               /* the measurement started (its deadline is known) */
  uint64_t measure_start_ns;
  uint64_t deadline_ns;         /* no event starts from then on; 0 = none */
  uint64_t forced_at_ns;        /* 0 = no forced shutdown */
  bool stopped;
} run_timeline;

/* The workers were released at `released_ns`: a warm-up of warmup_s seconds (0 = none)
   runs first; the measurement starts after it (timeline_measurement_started()). */
void timeline_begin(run_timeline *t, uint64_t released_ns, double warmup_s, double max_time_s,
                    bool forced_shutdown, double forced_after_s);

/* The measurement started at `start_ns` (the workers' release, or the warm-up's end): the
   deadline and the forced shutdown count from it. */
void timeline_measurement_started(run_timeline *t, uint64_t start_ns);

/* The next thing to do at `now_ns`; `broken`: a signal came or something failed. Actions
   come in the order the main thread takes them: end the warm-up, stop, force the shutdown. */
timeline_action timeline_next_action(const run_timeline *t, uint64_t now_ns, bool broken);

/* The main thread did what timeline_next_action() said (END_WARMUP is followed by
   timeline_measurement_started() with the time it took its baseline). */
void timeline_stopped(run_timeline *t);

/* When the main thread must look again if nothing wakes it first (a worker leaving, a
   signal): the warm-up's end, the deadline, the forced shutdown; 0 = not before an event. */
uint64_t timeline_wake_at(const run_timeline *t);

/* ---- the reporter's schedule ------------------------------------------------------------- */

typedef struct report_schedule {
  uint64_t start_ns;            /* the measurement's start: ticks count from it */
  uint64_t interval_ns;         /* 0 = no intermediate reports */
  uint64_t next_tick_ns;        /* 0 = none */
  const double *checkpoints;    /* seconds, ascending */
  size_t checkpoint_count;
  size_t next_checkpoint;
} report_schedule;

/* What the reporter does on waking. */
typedef struct report_due {
  uint64_t tick_ns;             /* an intermediate report for this tick; 0 = none */
  uint64_t checkpoint_ns;       /* a checkpoint report stamped this time; 0 = none */
  bool finished;                /* nothing more: the reporter ends */
} report_due;

void report_schedule_init(report_schedule *s, uint64_t start_ns, double interval_s,
                          const double *checkpoints, size_t checkpoint_count);

/* The next moment something is due; 0 = nothing ever again. */
uint64_t report_schedule_next(const report_schedule *s);

/* The reporter woke at `now_ns`. `stopping`: the workers were told to stop at `stopped_at_ns`
   (or the reporter to end). A tick is reported once, stamped with its own time; ticks missed
   while a slow report ran are skipped, keeping the grid. Once the workers stop, only a tick
   due by the moment they were stopped is still reported (--time=10 --report-interval=1: the
   10th), so the number of lines does not depend on who woke first. */
report_due report_schedule_wake(report_schedule *s, uint64_t now_ns, bool stopping,
                                uint64_t stopped_at_ns);

#endif
