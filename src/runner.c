/*
 * runner.c: the `run` command on the main thread. It makes the run (run.h) from a fixed
 * configuration, starts the workers behind a barrier, then supervises: it reads the clock and
 * does what the timeline (run_timeline.h) says -- end the warm-up, stop the workers, force a
 * shutdown -- and reacts to signals and failures, then joins the workers and makes the final
 * report. The reports are reporter.c's, the per-event API worker_events.c's.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "logger.h"
#include "output_mode.h"
#include "rand.h"
#include "report.h"
#include "results/output.h"
#include "results/recorder.h"
#include "run.h"
#include "runner.h"
#include "signals.h"
#include "thread_spawn.h"


const run_config *runner_config(void)
{
  run *r = run_active();
  return r != NULL ? &r->config : run_config_of_options();
}

void runner_fail(void)
{
  run *r = run_active();
  if (r == NULL)
    return;
  __atomic_store_n(&r->failed, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&r->flags.stop, STOP_NOW, __ATOMIC_RELEASE);
  sem_post(&r->main_wakeup);
}

bool runner_failed(void)
{
  run *r = run_active();
  return r != NULL && __atomic_load_n(&r->failed, __ATOMIC_ACQUIRE);
}

bool runner_stopping(void)
{
  run *r = run_active();
  return r != NULL &&
         (__atomic_load_n(&r->flags.stop, __ATOMIC_ACQUIRE) ||
          timeline_time_is_up(__atomic_load_n(&r->flags.deadline_ns, __ATOMIC_ACQUIRE),
                              clock_now_ns()));
}

void runner_fail_late(void)
{
  run *r = run_active();
  if (r != NULL)
    __atomic_store_n(&r->failed_late, 1, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------------------------------ */
/* Workers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static bool barrier_pass(run *r, bool init_ok)
{
  pthread_mutex_lock(&r->barrier_mutex);
  r->barrier_arrived++;
  if (!init_ok)
    r->barrier_init_failed = 1;
  pthread_cond_broadcast(&r->barrier_cond);
  while (r->barrier_release == 0)
    pthread_cond_wait(&r->barrier_cond, &r->barrier_mutex);
  int release = r->barrier_release;
  pthread_mutex_unlock(&r->barrier_mutex);
  return release > 0;
}

static void *worker_main(void *arg)
{
  worker *w = arg;
  run *r = w->run;
  sb_test_ops *ops = &r->test->ops;
  int rc = 0;

  assert(w >= r->workers && w < r->workers + r->config.threads &&
         w->id == (unsigned) (w - r->workers));
  worker_bind_thread(w);
  log_text(LOG_DEBUG, "Worker thread (#%u) started", w->id);

  bool init_ok = true;
  if (ops->thread_init != NULL && ops->thread_init(w) != 0) {
    log_text(LOG_DEBUG, "Worker thread (#%u) failed to initialize!", w->id);
    rc = 1;
    init_ok = false;
  } else {
    log_text(LOG_DEBUG, "Worker thread (#%u) initialized", w->id);
  }

  if (barrier_pass(r, rc == 0)) {
    rc = ops->thread_run != NULL ? ops->thread_run(w) : run_c_event_loop(r, w);
    if (rc != 0)
      runner_fail();
  }
  /* The measurement ends with the last event: thread_done and closing connections are not
     part of it. */
  __atomic_store_n(&r->left_ns[w->id], clock_now_ns(), __ATOMIC_RELEASE);
  __atomic_sub_fetch(&r->threads_running, 1, __ATOMIC_RELAXED);

  /* as in 1.0.20, a worker whose thread_init failed has nothing to tear down */
  if (init_ok && ops->thread_done != NULL && ops->thread_done(w) != 0)
    runner_fail_late();

  __atomic_add_fetch(&r->workers_exited, 1, __ATOMIC_RELEASE);
  sem_post(&r->main_wakeup);
  return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Main thread                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* The signal policy's graceful stop (signals.h): workers start no further event, and the
   main thread wakes up to stop the run and report what ran. */
static void stop_on_signal(int sig)
{
  run *r = run_active();
  if (r == NULL)
    return;
  if (r->interrupted_by == 0)
    r->interrupted_by = sig;
  __atomic_store_n(&r->flags.stop, STOP_NOW, __ATOMIC_RELAXED);
  sem_post(&r->main_wakeup);
}

/* Owned until the process ends: a request that comes after the run (while the result files
   are written) finds no run to stop and changes nothing. */
static const signal_owner run_signal_owner = { .stop = stop_on_signal };

/* "[ 1s ]" as in 1.0 for whole-second intervals; "[ 1.5s ]" for fractional ones. */
static int timestamp_decimals(double interval)
{
  for (int d = 0; d < 3; d++) {
    double scaled = interval * pow(10, d);
    if (fabs(scaled - round(scaled)) < 1e-9)
      return d;
  }
  return 3;
}

static void print_run_mode(const run *r)
{
  const run_config *config = &r->config;
  int decimals = timestamp_decimals(config->report_interval);
  for (size_t i = 0; i < config->checkpoint_count; i++)    /* "[ 0.5s ] Checkpoint report:" */
    if (timestamp_decimals(config->checkpoints[i]) > decimals)
      decimals = timestamp_decimals(config->checkpoints[i]);
  log_set_timestamp_decimals(decimals);
  log_text(LOG_NOTICE, "Running the test with following options:");
  log_text(LOG_NOTICE, "Number of threads: %u", config->threads);
  /* %.15g: whole numbers in full as 1.0.20's integers (1000000, not %g's 1e+06), fractions
     (ours alone) as short as they go */
  if (config->rate > 0)
    log_text(LOG_NOTICE, "Target transaction rate: %.15g/sec", config->rate);
  if (config->report_interval > 0)
    log_text(LOG_NOTICE, "Report intermediate results every %.15g second(s)",
             config->report_interval);
  if (config->checkpoint_count > 0) {
    char list[RUNNER_MAX_CHECKPOINTS * 24];
    size_t used = 0;
    for (size_t i = 0; i < config->checkpoint_count && used < sizeof(list); i++)
      used += (size_t) snprintf(list + used, sizeof(list) - used, "%s%.15g", i ? ", " : "",
                                config->checkpoints[i]);
    log_text(LOG_NOTICE, "Report checkpoint(s) at %s seconds", list);
  }
  if (config->debug)
    log_text(LOG_NOTICE, "Debug mode enabled.\n");
  if (config->validate)
    log_text(LOG_NOTICE, "Validation checks: on.\n");
  if (opt_is_set("rand-seed") && opt_int("rand-seed") != 0)
    log_text(LOG_NOTICE, "Initializing random number generator from seed (%" PRIu64 ").\n",
             rand_effective_seed());
  else
    log_text(LOG_NOTICE, "Initializing random number generator from current time\n");
  if (config->forced_shutdown && config->max_time > 0)
    log_text(LOG_NOTICE, "Forcing shutdown in %.15g seconds",
             config->warmup_time + config->max_time + config->forced_shutdown_after);
  log_text(LOG_NOTICE, "%s", "");
  if (r->test->ops.print_mode != NULL)
    r->test->ops.print_mode();
}

static void release_workers(run *r, int how)
{
  pthread_mutex_lock(&r->barrier_mutex);
  r->barrier_release = how;
  pthread_cond_broadcast(&r->barrier_cond);
  pthread_mutex_unlock(&r->barrier_mutex);
}

/* Release the workers that started with `how` (-1: they exit without running) and join them. */
static void release_and_join(run *r, int how, unsigned started)
{
  release_workers(r, how);
  threads_join(r->threads, started);
}

static int create_workers(run *r)
{
  unsigned started;
  int rc = threads_spawn(r->threads, r->config.threads, r->config.thread_stack_size,
                         worker_main, r->workers, sizeof(worker), &started);

  if (rc == THREAD_SPAWN_BAD_STACK_SIZE) {
    log_text(LOG_FATAL, "Invalid value for thread-stack-size: %zu.", r->config.thread_stack_size);
    return -1;
  }
  if (rc != 0) {
    log_text(LOG_FATAL, "Cannot create worker thread #%u of %u: %s", started + 1,
             r->config.threads, strerror(rc));
    release_and_join(r, -1, started);
    return -1;
  }
  return 0;
}

/* Wait for every worker to pass thread_init. 0 = all ready, 1 = an init failed, 2 = timeout. */
static int wait_for_workers_ready(run *r)
{
  uint64_t deadline = clock_now_ns() + units_seconds_to_ns(r->config.thread_init_timeout);
  struct timespec ts = units_timespec(deadline);
  int result = 0;

  pthread_mutex_lock(&r->barrier_mutex);
  while (r->barrier_arrived < r->config.threads && !r->barrier_init_failed) {
    if (pthread_cond_timedwait(&r->barrier_cond, &r->barrier_mutex, &ts) == ETIMEDOUT) {
      result = 2;
      break;
    }
  }
  if (result == 0 && r->barrier_init_failed)
    result = 1;
  pthread_mutex_unlock(&r->barrier_mutex);
  return result;
}

/* Workers start no further event. at: when they were stopped -- for the time limit the
   deadline itself, whoever noticed it first, so the reporter prints the tick due then. */
static void note_stop(run *r, uint64_t at, int reason)
{
  __atomic_store_n(&r->stopped_at_ns, at, __ATOMIC_RELEASE);
  __atomic_store_n(&r->flags.stop, reason, __ATOMIC_RELEASE);
  if (r->rate != NULL)
    rate_stop(r->rate);
}

/* Statistics start now: returns the measurement's start. */
static uint64_t end_warmup(run *r)
{
  uint64_t now = clock_now_ns();
  reporter_take_baseline(r, now);
  stats_new_epoch(&r->table);
  r->measure_start_ns = now;
  __atomic_store_n(&r->flags.warming_up, 0, __ATOMIC_RELEASE);
  if (results_recording())
    recorder_measurement_started();
  return now;
}

static void forced_shutdown(run *r)
{
  log_text(LOG_FATAL, "The --max-time limit has expired, forcing shutdown...");
  reporter_stop(r);
  report_cumulative(r, REPORT_FORCED, r->main);
  results_forced_exit(2);
}

/* Sleep until a deadline passes or something happens (a worker exits, a signal, a failure). */
static void main_wait(run *r, uint64_t deadline_ns)
{
  if (deadline_ns == 0) {
    while (sem_wait(&r->main_wakeup) != 0 && errno == EINTR)
      ;
    return;
  }
  struct timespec ts = units_timespec(deadline_ns);
  sem_clockwait(&r->main_wakeup, CLOCK_MONOTONIC, &ts);
}

static void start_reports(run *r)
{
  if (reporter_start(r) != 0)
    log_text(LOG_WARNING, "Cannot start the reporting thread: no intermediate reports");
}

/* The measurement starts at `start_ns`: workers see its deadline from now on. */
static void measurement_started(run *r, uint64_t start_ns)
{
  timeline_measurement_started(&r->timeline, start_ns);
  __atomic_store_n(&r->flags.deadline_ns, r->timeline.deadline_ns, __ATOMIC_RELEASE);
}

static void supervise(run *r)
{
  run_timeline *t = &r->timeline;
  const run_config *config = &r->config;

  timeline_begin(t, clock_now_ns(), config->warmup_time, config->max_time,
                 config->forced_shutdown, config->forced_shutdown_after);
  if (!t->warming) {
    measurement_started(r, r->measure_start_ns);
    start_reports(r);
  }
  while (__atomic_load_n(&r->workers_exited, __ATOMIC_ACQUIRE) < config->threads) {
    uint64_t now = clock_now_ns();
    bool broken = r->interrupted_by || runner_failed();
    timeline_action action;

    while ((action = timeline_next_action(t, now, broken)) != TIMELINE_WAIT) {
      switch (action) {
        case TIMELINE_END_WARMUP:
          measurement_started(r, end_warmup(r));
          start_reports(r);
          break;
        case TIMELINE_STOP_NOW:
        case TIMELINE_STOP_TIME_LIMIT: {
          bool warming = t->warming;
          timeline_stopped(t);
          if (action == TIMELINE_STOP_NOW)
            note_stop(r, now, STOP_NOW);
          else
            note_stop(r, t->deadline_ns, STOP_TIME_LIMIT);
          if (warming)            /* stopped during warm-up: report what ran so far */
            measurement_started(r, end_warmup(r));
          break;
        }
        case TIMELINE_FORCED_SHUTDOWN:
          forced_shutdown(r);
          break;
        case TIMELINE_WAIT:
          break;
      }
    }
    main_wait(r, timeline_wake_at(t));
  }
  /* The workers may all have stopped at the deadline before this thread looked. */
  if (!t->stopped && timeline_time_is_up(t->deadline_ns, clock_now_ns())) {
    timeline_stopped(t);
    note_stop(r, t->deadline_ns, STOP_TIME_LIMIT);
  }
}

/* --start-at: workers are connected and waiting at the barrier; release them at the given
   wall-clock time, so clients on several machines measure the same seconds. 0, or -1 when
   interrupted while waiting. */
static int wait_for_start_time(run *r)
{
  uint64_t at = r->config.start_at_unix_ns, now = clock_wall_ns();

  if (now > at) {
    log_text(LOG_WARNING, "The start time (--start-at) passed %.3f seconds ago: starting now",
             units_ns_to_seconds(now - at));
    return 0;
  }
  log_text(LOG_NOTICE, "Waiting %.3f seconds for the start time (--start-at)...\n",
           units_ns_to_seconds(at - now));
  struct timespec ts = units_timespec(at);
  while (!r->interrupted_by && clock_wall_ns() < at)
    sem_clockwait(&r->main_wakeup, CLOCK_REALTIME, &ts);
  if (r->interrupted_by) {
    log_text(LOG_FATAL, "Interrupted by signal %d while waiting for the start time",
             (int) r->interrupted_by);
    return -1;
  }
  return 0;
}

static void rate_overflowed(void *arg)
{
  (void) arg;
  runner_fail();
}

static int run_workers(run *r)
{
  const run_config *config = &r->config;

  log_text(LOG_NOTICE, "Initializing worker threads...\n");
  /* threads failing their thread_init alike say it once */
  log_once_begin(LOG_ALERT);
  if (create_workers(r) != 0) {
    log_once_end();
    return 1;
  }

  int ready = wait_for_workers_ready(r);
  if (ready == 2) {
    log_text(LOG_FATAL, "Worker threads failed to initialize within %g seconds!",
             config->thread_init_timeout);
    fflush(stdout);
    _exit(2);
  }
  if (ready == 1) {
    release_and_join(r, -1, config->threads);
    log_once_end();
    log_text(LOG_FATAL, "Thread initialization failed!");
    return 1;
  }
  /* ... and so do threads stopping on one cause (FATAL only: ALERT lines of a run are 1.0.20's
     per-event messages, printed as often as it prints them) */
  log_once_begin(LOG_FATAL);
  if (config->start_at_unix_ns != 0 && wait_for_start_time(r) != 0) {
    release_and_join(r, -1, config->threads);
    log_once_end();
    return 1;
  }

  r->measure_start_ns = clock_now_ns();
  reporter_take_baseline(r, r->measure_start_ns);
  __atomic_store_n(&r->threads_running, config->threads, __ATOMIC_RELAXED);
  r->flags.warming_up = config->warmup_time > 0;
  r->flags.rate_mode = config->rate > 0;
  if (r->flags.rate_mode) {
    int err;
    r->rate = rate_start(config->rate, r->measure_start_ns, config->threads, rate_overflowed,
                         r, &err);
    if (r->rate == NULL) {
      log_text(LOG_FATAL, "Cannot start the event generator thread: %s", strerror(err));
      release_and_join(r, -1, config->threads);
      log_once_end();
      return 1;
    }
  }
  log_text(LOG_NOTICE, "Threads started!\n");
  if (config->warmup_time > 0)
    log_text(LOG_NOTICE, "Warming up for %g seconds...\n", config->warmup_time);
  else if (results_recording())
    recorder_measurement_started();
  release_workers(r, 1);

  supervise(r);

  threads_join(r->threads, config->threads);
  log_once_end();
  if (r->rate != NULL)
    rate_stop(r->rate);
  reporter_stop(r);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The run object                                                                             */
/* ------------------------------------------------------------------------------------------ */

static run *run_new(sb_test *test, const run_config *cfg, worker *main)
{
  run *r = aligned_alloc(_Alignof(run), sizeof(run));
  if (r == NULL)
    return NULL;
  memset(r, 0, sizeof(*r));
  r->config = *cfg;
  r->layout = (report_layout) {
    .percentile = r->config.percentile,
    .percentiles = r->config.percentiles,
    .percentile_count = r->config.percentile_count,
    .queue = r->config.rate > 0,
  };
  /* As in 1.0.20, a test that limits its own events (memory: --memory-total-size) ignores
     --events. */
  r->event_limit = test->limits_own_events ? 0 : cfg->max_events;
  r->events_remaining = r->event_limit;
  r->test = test;
  r->main = main;
  r->shared = (worker) { .shared = true, .run = r };
  pthread_mutex_init(&r->barrier_mutex, NULL);
  pthread_condattr_t cattr;
  pthread_condattr_init(&cattr);
  pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
  pthread_cond_init(&r->barrier_cond, &cattr);
  pthread_condattr_destroy(&cattr);
  if (sem_init(&r->main_wakeup, 0, 0) != 0) {
    free(r);
    return NULL;
  }
  return r;
}

/* The workers and what counts for them (after the test's init, which may fail first). */
static int run_add_workers(run *r)
{
  unsigned n = r->config.threads;

  assert(n > 0);
  if (worker_stats_init(&r->shared.stats, NULL) != 0 || stats_table_init(&r->table, n) != 0 ||
      reporter_init(r) != 0)
    return -1;
  r->left_ns = calloc(n, sizeof(uint64_t));
  r->threads = calloc(n, sizeof(pthread_t));
  r->workers = aligned_alloc(_Alignof(worker), n * sizeof(worker));
  if (r->left_ns == NULL || r->threads == NULL || r->workers == NULL)
    return -1;
  memset(r->workers, 0, n * sizeof(worker));
  for (unsigned i = 0; i < n; i++) {
    if (worker_init(&r->workers[i], i, &r->table.epoch) != 0)
      return -1;
    r->workers[i].run = r;
    r->table.workers[i] = &r->workers[i].stats;
  }
  return 0;
}

static void run_free(run *r)
{
  for (unsigned i = 0; r->workers != NULL && i < r->config.threads; i++)
    worker_free(&r->workers[i]);
  free(r->workers);
  free(r->threads);
  free(r->left_ns);
  rate_free(r->rate);
  reporter_free(r);
  stats_table_free(&r->table);
  worker_free(&r->shared);
  sem_destroy(&r->main_wakeup);
  pthread_cond_destroy(&r->barrier_cond);
  pthread_mutex_destroy(&r->barrier_mutex);
  free(r);
}

/* What the run ended with: 0, 1 (an error), 128 + the signal that interrupted it. */
static int run_exit_code(const run *r, int rc)
{
  if (rc != 0 || __atomic_load_n(&r->failed, __ATOMIC_ACQUIRE) ||
      __atomic_load_n(&r->failed_late, __ATOMIC_ACQUIRE))
    return 1;
  if (r->interrupted_by)
    return 128 + r->interrupted_by;
  /* --mysql-ignore-errors=all kept the run going, but the server never came back */
  if (r->outage_failed)
    return 1;
  return 0;
}

int runner_run(sb_test *test, const run_config *cfg, worker *main)
{
  sb_test_ops *ops = &test->ops;
  int rc;

  assert(run_active() == NULL);
  run *r = run_new(test, cfg, main);
  if (r == NULL) {
    log_text(LOG_FATAL, "Out of memory preparing a run of %u threads", cfg->threads);
    return 1;
  }
  run_set_active(r);
  if (results_recording())
    recorder_begin(test->name, &r->config);
  rc = ops->init != NULL ? ops->init() : 0;
  if (rc == 0) {
    print_run_mode(r);
    rc = ops->prepare != NULL ? ops->prepare() : 0;
  }
  if (rc == 0 && run_add_workers(r) != 0) {
    log_text(LOG_FATAL, "Out of memory preparing statistics for %u threads", cfg->threads);
    rc = 1;
  }
  if (rc != 0) {
    /* Failed before it began: the result still says so, with its errors. */
    if (results_recording())
      results_run_finished(recorder_finish(1));
    run_set_active(NULL);
    run_free(r);
    return 1;
  }

  signal_policy_install();
  signal_policy_own(&run_signal_owner);
  rc = run_workers(r);
  bool stopped_by_error = runner_failed();
  if (rc == 0) {
    log_text(LOG_INFO, "Done.\n");
    if (ops->cleanup != NULL && ops->cleanup() != 0)
      runner_fail();
  }
  /* A run stopped by an error (a fatal SQL error, a full --rate queue) still reports what
     ran until then, after the error's own message; the exit code says it failed. 1.0.20
     prints no report then, nor does the exact-output mode. */
  if (rc == 0 && !(stopped_by_error && output_exact())) {
    report_cumulative(r, REPORT_FINAL, main);
    if (r->interrupted_by)
      log_text(LOG_WARNING, "The run was interrupted by signal %d; the report covers what ran "
               "until then", (int) r->interrupted_by);
  }
  if (ops->done != NULL && ops->done() != 0)
    runner_fail_late();

  int exit_code = run_exit_code(r, rc);
  if (results_recording())
    results_run_finished(recorder_finish(exit_code));
  run_set_active(NULL);
  run_free(r);
  return exit_code;
}
