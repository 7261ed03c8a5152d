/*
 * run.h: one execution of a test's `run` command as an object. A run owns its configuration
 * (fixed for its whole life), its workers and their stats table, the flags workers read per
 * event, the --events budget, the rate schedule, the reporter and the timeline. runner.c (the
 * main thread), reporter.c (the reports and the reporter thread) and worker_events.c (the
 * workers' per-event API) share it; the rest of the program sees only runner.h.
 *
 * Who writes what: workers write their own worker and their slot of left_ns; the main thread
 * writes the flags, the timeline and the barrier; the reporter owns the report snapshots
 * while it runs (the main thread after); the --events budget is the one counter every worker
 * writes, once per batch.
 */
#ifndef SB_RUN_H
#define SB_RUN_H

#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "rate.h"
#include "report.h"
#include "run_config.h"
#include "run_timeline.h"
#include "test.h"
#include "stats.h"
#include "worker.h"

/* Why workers stop (run_flags.stop); 0 = they do not. */
enum { STOP_NOW = 1, STOP_TIME_LIMIT = 2 };

/* Read on every event; written a handful of times per run. Kept apart from written data. */
typedef struct run_flags {
  int stop;                    /* workers must not start another event: STOP_* */
  int warming_up;              /* events are not measured and use no --events budget yet */
  int rate_mode;               /* events come from the --rate schedule */
  uint64_t deadline_ns;        /* no event starts from then on (--time); 0 = none (yet) */
} __attribute__((aligned(128))) run_flags;

/* The reporter: its thread, its worker (random numbers, the report hooks' Lua state) and the
   snapshots reports are differences of. */
typedef struct reporter {
  worker worker;
  pthread_t thread;
  bool started;
  sem_t wakeup;
  int stop;
  stats_snapshot baseline;     /* start of the cumulative (checkpoint) period */
  stats_snapshot previous;     /* last intermediate report */
  stats_snapshot current;
  latency_histogram *scratch;
} reporter;

typedef struct run {
  run_flags flags;
  uint64_t events_remaining __attribute__((aligned(128)));   /* the --events budget */

  run_config config;           /* as given: never changed during the run */
  report_layout layout;        /* its reports' percentiles and --rate queue line */
  uint64_t event_limit;        /* --events, or 0 for a test that limits its events itself */
  sb_test *test;
  worker *main;                /* the main thread's worker: it makes the final report */

  worker *workers;             /* config.threads of them */
  stats_table table;           /* their stats, for the reporter */
  worker shared;               /* counts under ids that name no worker (atomic adds) */
  pthread_t *threads;
  rate_schedule *rate;         /* NULL without --rate */
  reporter reporter;

  /* the timeline (monotonic ns) */
  run_timeline timeline;
  uint64_t measure_start_ns;
  uint64_t stopped_at_ns;      /* when the workers were stopped (for the time limit: the
                                  deadline itself); 0 = not */
  uint64_t *left_ns;           /* per worker: when it left its event loop; 0 = not yet */
  unsigned threads_running;
  unsigned workers_exited;

  int failed;
  int failed_late;
  bool outage_failed;          /* the final report found the server unreachable to the end,
                                  with no event succeeding after the outage began */
  volatile sig_atomic_t interrupted_by;
  sem_t main_wakeup;

  /* the start barrier: workers arrive after thread_init; the main thread releases them */
  pthread_mutex_t barrier_mutex;
  pthread_cond_t barrier_cond;
  unsigned barrier_arrived;
  int barrier_init_failed;
  int barrier_release;         /* 1 = run, -1 = abort */
} run;

/* The run in progress (for 1.0.20's id-based calls and the runner_* questions that name no
   run); NULL outside one. runner.c sets it for the length of runner_run(). */
run *run_active(void);
void run_set_active(run *r);

/* worker_events.c: the loop a C test's workers run (its event hook, one event at a time). */
int run_c_event_loop(run *r, worker *w);

/* reporter.c */
typedef enum { REPORT_FINAL, REPORT_CHECKPOINT, REPORT_FORCED } cumulative_kind;
int reporter_init(run *r);
void reporter_free(run *r);
/* Start the reporter thread if the run has reports to make; 0 or an errno value. */
int reporter_start(run *r);
/* Stop it, and let the test free what its reports kept (report_done). */
void reporter_stop(run *r);
/* The baseline of every report: the statistics at `now_ns` (the measurement's start). */
void reporter_take_baseline(run *r, uint64_t now_ns);
/* Everything since the last checkpoint, made by `by` (the reporter or the main worker). */
void report_cumulative(run *r, cumulative_kind kind, worker *by);

#endif
