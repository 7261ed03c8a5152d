/*
 * runner.c: the `run` command. The main thread owns the timeline (start barrier, warm-up,
 * time limit, forced shutdown, signals); a reporter thread prints intermediate and checkpoint
 * reports; workers run events and touch only their own worker_stats and their own slot of
 * worker_left_ns.
 *
 * Per event a worker reads three shared words that change at most a few times per run (the
 * stop flag, the warm-up flag and the deadline) and compares the deadline with the clock it
 * read for the event's latency anyway; the --events budget is claimed in batches, so even a
 * limited run writes a shared counter only once per batch.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "logger.h"
#include "rand.h"
#include "rate.h"
#include "report.h"
#include "results/output.h"
#include "results/recorder.h"
#include "run_timeline.h"
#include "runner.h"
#include "signals.h"

static run_config config;
static sb_test *current_test;
static worker *main_worker;            /* the main thread's: it makes the final report */

/* Why workers stop (flags.stop); 0 = they do not. */
enum { STOP_NOW = 1, STOP_TIME_LIMIT = 2 };

/* Read on every event; written a handful of times per run. Kept apart from written data. */
static struct {
  int stop;                  /* workers must not start another event: STOP_* */
  int warming_up;            /* events do not consume the --events budget yet */
  int rate_mode;
  uint64_t deadline_ns;      /* no event starts from then on (--time); 0 = none (yet) */
} __attribute__((aligned(128))) flags;

static uint64_t events_remaining __attribute__((aligned(128)));

static int failed;
static int failed_late;
static volatile sig_atomic_t interrupted_by;
static sem_t main_wakeup;

static unsigned threads_running;
static unsigned workers_exited;

/* Start barrier: workers arrive after thread_init; the main thread releases them. */
static pthread_mutex_t barrier_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t barrier_cond;
static unsigned barrier_arrived;
static int barrier_init_failed;
static int barrier_release;            /* 1 = run, -1 = abort */

/* Measurement timeline (monotonic ns). */
static uint64_t measure_start_ns;
static uint64_t stopped_at_ns;         /* when the workers were stopped (for the time limit:
                                          the deadline itself); 0 = not */
static uint64_t *worker_left_ns;       /* per worker: when it left its event loop; 0 = not */

/* The run's workers, and the slot counts go to under an id that names none of them (scripts
   may pass any number to sb_counter_inc): several threads write it, with atomic adds. */
static worker *workers;
static stats_table worker_table;
static worker background = { .shared = true };

/* Reporter state: owned by the reporter thread while it runs, by the main thread after. */
static worker reporter_worker;         /* its random numbers, its report hooks' Lua state */
static pthread_t reporter_thread;
static bool reporter_started;
static sem_t reporter_wakeup;
static int reporter_stop;
static stats_snapshot baseline;        /* start of the cumulative (checkpoint) period */
static stats_snapshot previous;        /* last intermediate report */
static stats_snapshot current;
static latency_histogram *scratch;

void runner_configure(const run_config *cfg)
{
  config = *cfg;
}

const run_config *runner_config(void)
{
  return &config;
}

void runner_fail(void)
{
  __atomic_store_n(&failed, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&flags.stop, STOP_NOW, __ATOMIC_RELEASE);
  sem_post(&main_wakeup);
}

bool runner_failed(void)
{
  return __atomic_load_n(&failed, __ATOMIC_ACQUIRE);
}

bool runner_stopping(void)
{
  return __atomic_load_n(&flags.stop, __ATOMIC_ACQUIRE) ||
         timeline_time_is_up(__atomic_load_n(&flags.deadline_ns, __ATOMIC_ACQUIRE),
                             clock_now_ns());
}

void runner_fail_late(void)
{
  __atomic_store_n(&failed_late, 1, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------------------------------ */
/* Per-event API                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* Take the next batch of the --events budget: big while plenty is left, single events near
   the end so the total is exact and no thread idles holding a large unused batch. */
static bool claim_events(worker_stats *w)
{
  uint64_t left = __atomic_load_n(&events_remaining, __ATOMIC_RELAXED);
  uint64_t take;

  do {
    if (left == 0)
      return false;
    take = left / ((uint64_t) config.threads * 16);
    if (take < 1)
      take = 1;
    if (take > 256)
      take = 256;
  } while (!__atomic_compare_exchange_n(&events_remaining, &left, left - take, true,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  w->events_quota = take;
  return true;
}

/* May the worker start another event? now_ns: the clock the caller read, 0 = not read. */
static bool more_events(worker *wk, uint64_t now_ns)
{
  int stop = __atomic_load_n(&flags.stop, __ATOMIC_RELAXED);
  if (__builtin_expect(stop, 0)) {
    if (stop == STOP_TIME_LIMIT)
      log_text(LOG_INFO, "Time limit exceeded, exiting...");
    return false;
  }
  /* Each worker watches the deadline itself: waiting for the main thread to be scheduled
     and raise the stop flag would let events start late on a busy machine. */
  uint64_t deadline = __atomic_load_n(&flags.deadline_ns, __ATOMIC_RELAXED);
  if (deadline != 0 && timeline_time_is_up(deadline, now_ns ? now_ns : clock_now_ns())) {
    log_text(LOG_INFO, "Time limit exceeded, exiting...");
    return false;
  }

  worker_stats *w = &wk->stats;
  /* Acquire pairs with end_warmup(): an event started after this load sees the warm-up
     over, and its record cannot have been in the baseline snapshot taken before. */
  int warming = __atomic_load_n(&flags.warming_up, __ATOMIC_ACQUIRE);
  w->warmup_event = (uint32_t) warming;
  if (config.max_events > 0 && !warming) {
    if (w->events_quota == 0 && !claim_events(w)) {
      log_text(LOG_INFO, "Event limit exceeded, exiting...");
      return false;
    }
    w->events_quota--;
  }
  if (flags.rate_mode && !rate_next_event(&w->scheduled_ns))
    return false;
  return true;
}

bool sb_worker_more_events(worker *w)
{
  return more_events(w, 0);
}

void sb_worker_event_start(worker *wk)
{
  worker_stats *w = &wk->stats;
  w->event_start_ns = flags.rate_mode ? w->scheduled_ns : clock_now_ns();
  __atomic_store_n(&w->in_event, 1, __ATOMIC_RELAXED);
}

void sb_worker_event_stop(worker *wk)
{
  worker_stats *w = &wk->stats;
  uint64_t now = clock_now_ns();
  uint64_t latency = now > w->event_start_ns ? now - w->event_start_ns : 0;

  /* An event begun during warm-up is not measured even if it ends after it. */
  if (!w->warmup_event)
    stats_record_event(w, latency);
  __atomic_store_n(&w->in_event, 0, __ATOMIC_RELAXED);
}

/* End the running event and start the next one, if any, reading the clock once: the end of
   one event is the start of the next (outside --rate, where the next starts when scheduled). */
bool sb_worker_event_next(worker *wk)
{
  worker_stats *w = &wk->stats;
  uint64_t now = clock_now_ns();

  if (!w->warmup_event)
    stats_record_event(w, now > w->event_start_ns ? now - w->event_start_ns : 0);
  if (!more_events(wk, now)) {
    __atomic_store_n(&w->in_event, 0, __ATOMIC_RELAXED);
    return false;
  }
  w->event_start_ns = flags.rate_mode ? w->scheduled_ns : now;
  return true;
}

void sb_worker_event_cancel(worker *w)
{
  __atomic_store_n(&w->stats.in_event, 0, __ATOMIC_RELAXED);
}

void sb_worker_counter_add(worker *w, sb_counter_type type, uint64_t amount)
{
  if ((unsigned) type < SB_CNT_MAX)
    worker_counter_add(w, type, amount);
}

uint64_t sb_worker_counter_val(const worker *w, sb_counter_type type)
{
  if ((unsigned) type >= SB_CNT_MAX)
    return 0;
  return __atomic_load_n(&w->stats.counters[type], __ATOMIC_RELAXED);
}

worker *runner_worker(int thread_id)
{
  return worker_by_id(workers, config.threads, thread_id, &background);
}

/* sysbench 1.0.20's names, by thread id, which scripts may declare and call themselves. */
bool sb_more_events(int thread_id) { return sb_worker_more_events(runner_worker(thread_id)); }
void sb_event_start(int thread_id) { sb_worker_event_start(runner_worker(thread_id)); }
void sb_event_stop(int thread_id) { sb_worker_event_stop(runner_worker(thread_id)); }
bool sb_event_next(int thread_id) { return sb_worker_event_next(runner_worker(thread_id)); }
void sb_event_cancel(int thread_id) { sb_worker_event_cancel(runner_worker(thread_id)); }

void sb_counter_inc(int thread_id, sb_counter_type type)
{
  sb_worker_counter_add(runner_worker(thread_id), type, 1);
}

void sb_counter_add(int thread_id, sb_counter_type type, uint64_t amount)
{
  sb_worker_counter_add(runner_worker(thread_id), type, amount);
}

uint64_t sb_counter_val(int thread_id, sb_counter_type type)
{
  return sb_worker_counter_val(runner_worker(thread_id), type);
}

/* ------------------------------------------------------------------------------------------ */
/* Workers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static int c_event_loop(worker *w)
{
  while (sb_worker_more_events(w)) {
    sb_worker_event_start(w);
    int rc = current_test->ops.event(w);
    sb_worker_event_stop(w);
    if (rc != 0)
      return rc;
  }
  return 0;
}

static bool barrier_pass(bool init_ok)
{
  pthread_mutex_lock(&barrier_mutex);
  barrier_arrived++;
  if (!init_ok)
    barrier_init_failed = 1;
  pthread_cond_broadcast(&barrier_cond);
  while (barrier_release == 0)
    pthread_cond_wait(&barrier_cond, &barrier_mutex);
  int release = barrier_release;
  pthread_mutex_unlock(&barrier_mutex);
  return release > 0;
}

static void *worker_main(void *arg)
{
  worker *w = arg;
  sb_test_ops *ops = &current_test->ops;
  int rc = 0;

  assert(w >= workers && w < workers + config.threads && w->id == (unsigned) (w - workers));
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

  if (barrier_pass(rc == 0)) {
    rc = ops->thread_run != NULL ? ops->thread_run(w) : c_event_loop(w);
    if (rc != 0)
      runner_fail();
  }
  /* The measurement ends with the last event: thread_done and closing connections are not
     part of it. */
  __atomic_store_n(&worker_left_ns[w->id], clock_now_ns(), __ATOMIC_RELEASE);
  __atomic_sub_fetch(&threads_running, 1, __ATOMIC_RELAXED);

  /* as in 1.0.20, a worker whose thread_init failed has nothing to tear down */
  if (init_ok && ops->thread_done != NULL && ops->thread_done(w) != 0)
    runner_fail_late();

  __atomic_add_fetch(&workers_exited, 1, __ATOMIC_RELEASE);
  sem_post(&main_wakeup);
  return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Reports                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static double seconds_since_start(uint64_t ns)
{
  return ns > measure_start_ns ? units_ns_to_seconds(ns - measure_start_ns) : 0;
}

/* The report for the tick due at `tick_ns`, stamped with that time rather than the moment
   the reporter woke (so 0.5 s intervals read [ 0.5s ], [ 1.0s ] even on a busy machine).
   `running`: the thread count to report (the one at the tick, for a tick reported late). */
static void report_intermediate(uint64_t tick_ns, unsigned running)
{
  sb_stat_t stat = {0};

  current.taken_ns = clock_now_ns();
  stats_take(&worker_table, &current);
  stats_compute(&stat, &previous, &current, scratch, config.percentile, 0, UINT64_MAX);
  stat.threads_running = running;
  stat.time_total = seconds_since_start(tick_ns);
  if (flags.rate_mode) {
    stat.queue_length = rate_queue_length();
    stat.concurrency = stats_in_flight(&worker_table);
  }
  /* Without --report-interval, a recorded run still keeps an interval every second, silently. */
  if (config.report_interval > 0) {
    if (current_test->ops.report_intermediate != NULL)
      current_test->ops.report_intermediate(&reporter_worker, &stat);
    else
      report_intermediate_default(&stat);
  }
  if (results_recording())
    recorder_interval(&stat, flags.rate_mode);
  stats_copy(&previous, &current);
}

/* --debug: each worker's share of the period the cumulative report covers, as 1.0 prints it. */
static void report_threads_debug(void)
{
  log_text(LOG_DEBUG, "Verbose per-thread statistics:\n");
  for (unsigned i = 0; i < config.threads; i++) {
    uint64_t events = current.thread_events[i] - baseline.thread_events[i];
    double busy = (double) (current.thread_latency_ns[i] - baseline.thread_latency_ns[i]) / 1e9;
    uint64_t min_ns, max_ns;
    stats_thread_latency_extremes(&worker_table, i, &min_ns, &max_ns);
    log_text(LOG_DEBUG, "    thread #%3u: min: %.4fs  avg: %.4fs  max: %.4fs  events: %" PRIu64,
             i, (double) min_ns / 1e9, events ? busy / (double) events : 0,
             (double) max_ns / 1e9, events);
    log_text(LOG_DEBUG, "                 total time taken by event execution: %.4fs", busy);
  }
  log_text(LOG_NOTICE, "%s", "");
}

typedef enum { REPORT_FINAL, REPORT_CHECKPOINT, REPORT_FORCED } cumulative_kind;

/* Everything since the last checkpoint. On a forced shutdown, events still running are not
   counted (as in 1.0.20); how many there were is said. --histogram goes with the final
   report only, as in 1.0. The final report's time is the end of the measurement (the last
   event), however long the threads then took to finish. */
static void report_cumulative(cumulative_kind kind, worker *reporter)
{
  bool forced = kind == REPORT_FORCED;
  sb_stat_t stat = {0};
  uint64_t min_ns, max_ns;
  unsigned unfinished = 0;

  current.taken_ns = clock_now_ns();
  if (kind == REPORT_FINAL)
    current.taken_ns = timeline_end(worker_left_ns, config.threads, current.taken_ns);
  if (current.taken_ns < baseline.taken_ns)     /* a checkpoint taken after the last event */
    current.taken_ns = baseline.taken_ns;
  stats_take(&worker_table, &current);
  stats_latency_extremes(&worker_table, &min_ns, &max_ns);

  if (forced)
    for (unsigned i = 0; i < config.threads; i++)
      unfinished += __atomic_load_n(&workers[i].stats.in_event, __ATOMIC_RELAXED) != 0;

  stats_compute(&stat, &baseline, &current, scratch, config.percentile, min_ns, max_ns);
  stat.threads_running = __atomic_load_n(&threads_running, __ATOMIC_RELAXED);
  stat.time_total = seconds_since_start(current.taken_ns);

  if (forced && unfinished > 0)
    report_unfinished(unfinished);
  if (config.histogram && kind == REPORT_FINAL) {
    log_flush();
    histogram_print(stat.histogram, stdout);
  }
  if (current_test->ops.report_cumulative != NULL)
    current_test->ops.report_cumulative(reporter, &stat);
  else
    report_cumulative_general(&stat);
  if (config.debug)
    report_threads_debug();
  if (results_recording())
    recorder_cumulative(&stat, &baseline, &current, kind == REPORT_CHECKPOINT);

  stats_copy(&baseline, &current);
  stats_new_epoch(&worker_table);
}

/* Threads running events at a tick (those that stopped at the deadline ran until it). */
static unsigned running_at(uint64_t tick_ns)
{
  return timeline_running_at(worker_left_ns, config.threads, tick_ns);
}

static void *reporter_main(void *arg)
{
  uint64_t interval_ns = units_seconds_to_ns(results_interval_seconds());
  uint64_t next_report = interval_ns ? measure_start_ns + interval_ns : 0;
  size_t checkpoint = 0;
  (void) arg;

  worker_bind_thread(&reporter_worker);

  for (;;) {
    uint64_t next_checkpoint = checkpoint < config.checkpoint_count
        ? measure_start_ns + units_seconds_to_ns(config.checkpoints[checkpoint]) : 0;
    uint64_t due = next_report;
    if (next_checkpoint && (due == 0 || next_checkpoint < due))
      due = next_checkpoint;
    if (due == 0)
      break;

    struct timespec ts = units_timespec(due);
    while (sem_clockwait(&reporter_wakeup, CLOCK_MONOTONIC, &ts) != 0 && errno == EINTR)
      ;
    /* Once workers are told to stop, the final report speaks for the end of the run; only a
       tick due by the moment they were stopped (--time=10 --report-interval=1: the 10th)
       is still printed, so the number of lines does not depend on who woke first. */
    uint64_t now = clock_now_ns();
    bool stopping = __atomic_load_n(&reporter_stop, __ATOMIC_ACQUIRE) ||
                    __atomic_load_n(&flags.stop, __ATOMIC_ACQUIRE);
    if (stopping) {
      uint64_t stopped_at = __atomic_load_n(&stopped_at_ns, __ATOMIC_ACQUIRE);
      if (next_report && now >= next_report && next_report <= stopped_at)
        report_intermediate(next_report, running_at(next_report));
      break;
    }
    if (next_report && now >= next_report) {
      report_intermediate(next_report, running_at(next_report));
      /* Skip ticks missed while a slow report hook ran, keeping the grid. */
      while (next_report <= now)
        next_report += interval_ns;
    }
    if (next_checkpoint && now >= next_checkpoint) {
      log_timestamped(LOG_NOTICE, seconds_since_start(next_checkpoint), "Checkpoint report:");
      report_cumulative(REPORT_CHECKPOINT, &reporter_worker);
      checkpoint++;
    }
  }
  return NULL;
}

static int start_reporter(void)
{
  if (results_interval_seconds() <= 0 && config.checkpoint_count == 0)
    return 0;
  reporter_stop = 0;
  sem_init(&reporter_wakeup, 0, 0);
  /* The reporter draws the stream the main thread has (id = threads), as in 1.0. */
  if (worker_init(&reporter_worker, config.threads, NULL) != 0)
    return ENOMEM;
  int rc = pthread_create(&reporter_thread, NULL, reporter_main, NULL);
  reporter_started = rc == 0;
  if (!reporter_started)
    worker_free(&reporter_worker);
  return rc;
}

static void stop_reporter(void)
{
  if (!reporter_started)
    return;
  __atomic_store_n(&reporter_stop, 1, __ATOMIC_RELEASE);
  sem_post(&reporter_wakeup);
  pthread_join(reporter_thread, NULL);
  reporter_started = false;
  if (current_test->ops.report_done != NULL)
    current_test->ops.report_done(&reporter_worker);
  worker_free(&reporter_worker);
}

/* ------------------------------------------------------------------------------------------ */
/* Main thread                                                                                */
/* ------------------------------------------------------------------------------------------ */

static void on_signal(int sig)
{
  interrupted_by = sig;
  __atomic_store_n(&flags.stop, STOP_NOW, __ATOMIC_RELAXED);
  sem_post(&main_wakeup);
}

static void install_signal_handlers(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  /* A second Ctrl-C kills at once, for a worker stuck on a server that never answers. */
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  signal_catch(SIGINT, &sa, NULL);
  signal_catch(SIGTERM, &sa, NULL);
}

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

static void print_run_mode(void)
{
  int decimals = timestamp_decimals(config.report_interval);
  for (size_t i = 0; i < config.checkpoint_count; i++)     /* "[ 0.5s ] Checkpoint report:" */
    if (timestamp_decimals(config.checkpoints[i]) > decimals)
      decimals = timestamp_decimals(config.checkpoints[i]);
  log_set_timestamp_decimals(decimals);
  log_text(LOG_NOTICE, "Running the test with following options:");
  log_text(LOG_NOTICE, "Number of threads: %u", config.threads);
  if (config.rate > 0)
    log_text(LOG_NOTICE, "Target transaction rate: %g/sec", config.rate);
  if (config.report_interval > 0)
    log_text(LOG_NOTICE, "Report intermediate results every %g second(s)",
             config.report_interval);
  if (config.checkpoint_count > 0) {
    char list[RUNNER_MAX_CHECKPOINTS * 24];
    size_t used = 0;
    for (size_t i = 0; i < config.checkpoint_count && used < sizeof(list); i++)
      used += (size_t) snprintf(list + used, sizeof(list) - used, "%s%g", i ? ", " : "",
                                config.checkpoints[i]);
    log_text(LOG_NOTICE, "Report checkpoint(s) at %s seconds", list);
  }
  if (config.debug)
    log_text(LOG_NOTICE, "Debug mode enabled.\n");
  if (config.validate)
    log_text(LOG_NOTICE, "Validation checks: on.\n");
  if (opt_is_set("rand-seed") && opt_int("rand-seed") != 0)
    log_text(LOG_NOTICE, "Initializing random number generator from seed (%" PRIu64 ").\n",
             rand_effective_seed());
  else
    log_text(LOG_NOTICE, "Initializing random number generator from current time\n");
  if (config.forced_shutdown && config.max_time > 0)
    log_text(LOG_NOTICE, "Forcing shutdown in %g seconds",
             config.warmup_time + config.max_time + config.forced_shutdown_after);
  log_text(LOG_NOTICE, "%s", "");
  if (current_test->ops.print_mode != NULL)
    current_test->ops.print_mode();
}

static int create_workers(pthread_t *threads)
{
  pthread_attr_t attr;
  int rc = 0;

  pthread_attr_init(&attr);
  if (config.thread_stack_size > 0 &&
      pthread_attr_setstacksize(&attr, config.thread_stack_size) != 0) {
    log_text(LOG_FATAL, "Invalid value for thread-stack-size: %zu.", config.thread_stack_size);
    pthread_attr_destroy(&attr);
    return -1;
  }
  for (unsigned i = 0; i < config.threads; i++) {
    rc = pthread_create(&threads[i], &attr, worker_main, &workers[i]);
    if (rc != 0) {
      log_text(LOG_FATAL, "Cannot create worker thread #%u of %u: %s", i + 1, config.threads,
               strerror(rc));
      /* Release the ones already waiting so they exit. */
      pthread_mutex_lock(&barrier_mutex);
      barrier_release = -1;
      pthread_cond_broadcast(&barrier_cond);
      pthread_mutex_unlock(&barrier_mutex);
      for (unsigned j = 0; j < i; j++)
        pthread_join(threads[j], NULL);
      break;
    }
  }
  pthread_attr_destroy(&attr);
  return rc == 0 ? 0 : -1;
}

/* Wait for every worker to pass thread_init. 0 = all ready, 1 = an init failed, 2 = timeout. */
static int wait_for_workers_ready(void)
{
  uint64_t deadline = clock_now_ns() + units_seconds_to_ns(config.thread_init_timeout);
  struct timespec ts = units_timespec(deadline);
  int result = 0;

  pthread_mutex_lock(&barrier_mutex);
  while (barrier_arrived < config.threads && !barrier_init_failed) {
    if (pthread_cond_timedwait(&barrier_cond, &barrier_mutex, &ts) == ETIMEDOUT) {
      result = 2;
      break;
    }
  }
  if (result == 0 && barrier_init_failed)
    result = 1;
  pthread_mutex_unlock(&barrier_mutex);
  return result;
}

static void release_workers(int how)
{
  pthread_mutex_lock(&barrier_mutex);
  barrier_release = how;
  pthread_cond_broadcast(&barrier_cond);
  pthread_mutex_unlock(&barrier_mutex);
}

static void stop_workers(int reason)
{
  __atomic_store_n(&flags.stop, reason, __ATOMIC_RELEASE);
  rate_stop();
}

/* Workers start no further event. at: when they were stopped -- for the time limit the
   deadline itself, whoever noticed it first, so the reporter prints the tick due then. */
static void note_stop(uint64_t at, int reason)
{
  __atomic_store_n(&stopped_at_ns, at, __ATOMIC_RELEASE);
  stop_workers(reason);
}

static void end_warmup(void)
{
  current.taken_ns = clock_now_ns();
  stats_take(&worker_table, &current);
  stats_copy(&baseline, &current);
  stats_copy(&previous, &current);
  stats_new_epoch(&worker_table);
  measure_start_ns = current.taken_ns;
  __atomic_store_n(&flags.warming_up, 0, __ATOMIC_RELEASE);
  if (results_recording())
    recorder_measurement_started();
}

static void forced_shutdown(void)
{
  log_text(LOG_FATAL, "The --max-time limit has expired, forcing shutdown...");
  stop_reporter();
  report_cumulative(REPORT_FORCED, main_worker);
  results_forced_exit(2);
}

/* Sleep until a deadline passes or something happens (a worker exits, a signal, a failure). */
static void main_wait(uint64_t deadline_ns)
{
  if (deadline_ns == 0) {
    while (sem_wait(&main_wakeup) != 0 && errno == EINTR)
      ;
    return;
  }
  struct timespec ts = units_timespec(deadline_ns);
  sem_clockwait(&main_wakeup, CLOCK_MONOTONIC, &ts);
}

static void supervise(void)
{
  uint64_t started = clock_now_ns();
  uint64_t warmup_end = config.warmup_time > 0 ? started + units_seconds_to_ns(config.warmup_time) : 0;
  bool warming = warmup_end != 0;
  bool stopped = false;
  uint64_t time_limit = 0, forced_at = 0;

  if (!warming && start_reporter() != 0)
    log_text(LOG_WARNING, "Cannot start the reporting thread: no intermediate reports");

  while (__atomic_load_n(&workers_exited, __ATOMIC_ACQUIRE) < config.threads) {
    uint64_t now = clock_now_ns();

    if (warming && now >= warmup_end) {
      warming = false;
      end_warmup();
      if (start_reporter() != 0)
        log_text(LOG_WARNING, "Cannot start the reporting thread: no intermediate reports");
    }
    if (!warming && time_limit == 0 && config.max_time > 0) {
      time_limit = timeline_deadline(measure_start_ns, config.max_time);
      __atomic_store_n(&flags.deadline_ns, time_limit, __ATOMIC_RELEASE);
      if (config.forced_shutdown)
        forced_at = time_limit + units_seconds_to_ns(config.forced_shutdown_after);
    }
    bool broken = interrupted_by || runner_failed();
    if (!stopped && (broken || timeline_time_is_up(time_limit, now))) {
      stopped = true;
      note_stop(broken ? now : time_limit, broken ? STOP_NOW : STOP_TIME_LIMIT);
      if (warming) {         /* stopped during warm-up: report what ran so far */
        warming = false;
        end_warmup();
      }
    }
    if (forced_at && now >= forced_at)
      forced_shutdown();

    uint64_t deadline = 0;
    if (warming)
      deadline = warmup_end;
    else if (!stopped && time_limit)
      deadline = time_limit;
    else if (forced_at)
      deadline = forced_at;
    main_wait(deadline);
  }
  /* The workers may all have stopped at the deadline before this thread looked. */
  if (!stopped && timeline_time_is_up(time_limit, clock_now_ns()))
    note_stop(time_limit, STOP_TIME_LIMIT);
}

/* --start-at: workers are connected and waiting at the barrier; release them at the given
   wall-clock time, so clients on several machines measure the same seconds. 0, or -1 when
   interrupted while waiting. */
static int wait_for_start_time(void)
{
  uint64_t at = config.start_at_unix_ns, now = clock_wall_ns();

  if (now > at) {
    log_text(LOG_WARNING, "The start time (--start-at) passed %.3f seconds ago: starting now",
             units_ns_to_seconds(now - at));
    return 0;
  }
  log_text(LOG_NOTICE, "Waiting %.3f seconds for the start time (--start-at)...\n",
           units_ns_to_seconds(at - now));
  struct timespec ts = units_timespec(at);
  while (!interrupted_by && clock_wall_ns() < at)
    sem_clockwait(&main_wakeup, CLOCK_REALTIME, &ts);
  if (interrupted_by) {
    log_text(LOG_FATAL, "Interrupted by signal %d while waiting for the start time",
             (int) interrupted_by);
    return -1;
  }
  return 0;
}

static int run_workers(void)
{
  pthread_t *threads = calloc(config.threads, sizeof(pthread_t));
  pthread_condattr_t cattr;

  if (threads == NULL) {
    log_text(LOG_FATAL, "Out of memory creating %u threads", config.threads);
    return 1;
  }
  pthread_condattr_init(&cattr);
  pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
  pthread_cond_init(&barrier_cond, &cattr);
  pthread_condattr_destroy(&cattr);

  log_text(LOG_NOTICE, "Initializing worker threads...\n");
  if (create_workers(threads) != 0) {
    free(threads);
    return 1;
  }

  int ready = wait_for_workers_ready();
  if (ready == 2) {
    log_text(LOG_FATAL, "Worker threads failed to initialize within %g seconds!",
             config.thread_init_timeout);
    fflush(stdout);
    _exit(2);
  }
  if (ready == 1) {
    release_workers(-1);
    for (unsigned i = 0; i < config.threads; i++)
      pthread_join(threads[i], NULL);
    free(threads);
    log_text(LOG_FATAL, "Thread initialization failed!");
    return 1;
  }

  if (config.start_at_unix_ns != 0 && wait_for_start_time() != 0) {
    release_workers(-1);
    for (unsigned i = 0; i < config.threads; i++)
      pthread_join(threads[i], NULL);
    free(threads);
    return 1;
  }
  measure_start_ns = clock_now_ns();
  current.taken_ns = measure_start_ns;
  stats_take(&worker_table, &current);
  stats_copy(&baseline, &current);
  stats_copy(&previous, &current);
  __atomic_store_n(&threads_running, config.threads, __ATOMIC_RELAXED);
  flags.warming_up = config.warmup_time > 0;
  flags.rate_mode = config.rate > 0;
  if (flags.rate_mode) {
    int rc = rate_start(config.rate, measure_start_ns, config.threads);
    if (rc != 0) {
      log_text(LOG_FATAL, "Cannot start the event generator thread: %s", strerror(rc));
      release_workers(-1);
      free(threads);
      return 1;
    }
  }
  log_text(LOG_NOTICE, "Threads started!\n");
  if (config.warmup_time > 0)
    log_text(LOG_NOTICE, "Warming up for %g seconds...\n", config.warmup_time);
  else if (results_recording())
    recorder_measurement_started();
  release_workers(1);

  supervise();

  for (unsigned i = 0; i < config.threads; i++)
    pthread_join(threads[i], NULL);
  free(threads);
  rate_stop();
  stop_reporter();
  return 0;
}

static int prepare_run_state(void)
{
  events_remaining = config.max_events;
  stopped_at_ns = 0;
  flags.deadline_ns = 0;
  failed = 0;
  failed_late = 0;
  interrupted_by = 0;
  flags.stop = 0;
  barrier_arrived = 0;
  barrier_init_failed = 0;
  barrier_release = 0;
  workers_exited = 0;
  if (sem_init(&main_wakeup, 0, 0) != 0)
    return -1;
  if (stats_snapshot_init(&baseline, config.threads) ||
      stats_snapshot_init(&previous, config.threads) ||
      stats_snapshot_init(&current, config.threads))
    return -1;
  if (background.stats.histogram == NULL &&
      worker_stats_init(&background.stats, NULL) != 0)
    return -1;
  if (stats_table_init(&worker_table, config.threads) != 0)
    return -1;
  workers = aligned_alloc(_Alignof(worker), config.threads * sizeof(worker));
  if (workers == NULL)
    return -1;
  memset(workers, 0, config.threads * sizeof(worker));
  for (unsigned i = 0; i < config.threads; i++) {
    if (worker_init(&workers[i], i, &worker_table.epoch) != 0)
      return -1;
    worker_table.workers[i] = &workers[i].stats;
  }
  worker_left_ns = calloc(config.threads, sizeof(uint64_t));
  scratch = histogram_new();
  return scratch == NULL || worker_left_ns == NULL ? -1 : 0;
}

static void free_run_state(void)
{
  stats_snapshot_free(&baseline);
  stats_snapshot_free(&previous);
  stats_snapshot_free(&current);
  histogram_free(scratch);
  scratch = NULL;
  free(worker_left_ns);
  worker_left_ns = NULL;
  for (unsigned i = 0; workers != NULL && i < config.threads; i++)
    worker_free(&workers[i]);
  free(workers);
  workers = NULL;
  stats_table_free(&worker_table);
}

int runner_run(sb_test *test, worker *main)
{
  sb_test_ops *ops = &test->ops;
  int rc;

  current_test = test;
  main_worker = main;
  if (results_recording())
    recorder_begin(test->name);
  if (ops->init != NULL && ops->init() != 0)
    return 1;
  print_run_mode();
  if (ops->prepare != NULL && ops->prepare() != 0)
    return 1;
  if (prepare_run_state() != 0) {
    log_text(LOG_FATAL, "Out of memory preparing statistics for %u threads", config.threads);
    return 1;
  }

  install_signal_handlers();
  rc = run_workers();
  if (rc == 0) {
    log_text(LOG_INFO, "Done.\n");
    if (ops->cleanup != NULL && ops->cleanup() != 0)
      runner_fail();
  }
  /* A run stopped by an error (a fatal SQL error, a full --rate queue) still reports what
     ran until then, after the error's own message; the exit code says it failed. */
  if (rc == 0) {
    report_cumulative(REPORT_FINAL, main_worker);
    if (interrupted_by)
      log_text(LOG_WARNING, "The run was interrupted by signal %d; the report covers what ran "
               "until then", (int) interrupted_by);
  }
  if (ops->done != NULL && ops->done() != 0)
    runner_fail_late();
  free_run_state();

  int exit_code = 0;
  if (rc != 0 || runner_failed() || __atomic_load_n(&failed_late, __ATOMIC_ACQUIRE))
    exit_code = 1;
  else if (interrupted_by)
    exit_code = 128 + interrupted_by;
  if (results_recording())
    results_run_finished(recorder_finish(exit_code));
  return exit_code;
}
