/*
 * reporter.c: a run's reports. The reporter thread prints the intermediate report of each
 * --report-interval tick and the checkpoint reports (run_timeline.h decides which are due);
 * the main thread makes the final (or forced) cumulative report after it has stopped. Every
 * report is the difference of two snapshots of the workers' stats (stats.h); nothing here
 * writes into a worker.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "clock.h"
#include "logger.h"
#include "report.h"
#include "results/output.h"
#include "results/recorder.h"
#include "run.h"
#include "runner.h"
#include "thread_spawn.h"

int reporter_init(run *r)
{
  reporter *rep = &r->reporter;
  unsigned n = r->config.threads;

  if (stats_snapshot_init(&rep->baseline, n) || stats_snapshot_init(&rep->previous, n) ||
      stats_snapshot_init(&rep->current, n))
    return -1;
  rep->scratch = histogram_new();
  return rep->scratch == NULL ? -1 : 0;
}

void reporter_free(run *r)
{
  reporter *rep = &r->reporter;
  stats_snapshot_free(&rep->baseline);
  stats_snapshot_free(&rep->previous);
  stats_snapshot_free(&rep->current);
  histogram_free(rep->scratch);
  rep->scratch = NULL;
}

static double seconds_since_start(const run *r, uint64_t ns)
{
  return ns > r->measure_start_ns ? units_ns_to_seconds(ns - r->measure_start_ns) : 0;
}

void reporter_take_baseline(run *r, uint64_t now_ns)
{
  reporter *rep = &r->reporter;
  rep->current.taken_ns = now_ns;
  stats_take(&r->table, &rep->current);
  stats_copy(&rep->baseline, &rep->current);
  stats_copy(&rep->previous, &rep->current);
}

/* The report for the tick due at `tick_ns`, stamped with that time rather than the moment
   the reporter woke (so 0.5 s intervals read [ 0.5s ], [ 1.0s ] even on a busy machine).
   `running`: the thread count to report (the one at the tick, for a tick reported late). */
static void report_intermediate(run *r, uint64_t tick_ns, unsigned running)
{
  reporter *rep = &r->reporter;
  sb_stat_t stat = {0};
  bool rate_mode = r->flags.rate_mode;

  rep->current.taken_ns = clock_now_ns();
  stats_take(&r->table, &rep->current);
  stats_compute(&stat, &rep->previous, &rep->current, rep->scratch, r->config.percentile, 0,
                UINT64_MAX);
  stat.threads_running = running;
  stat.time_total = seconds_since_start(r, tick_ns);
  stat.unreachable_threads = stats_unreachable(&r->table);
  if (rate_mode) {
    stat.queue_length = rate_queue_length(r->rate);
    stat.concurrency = stats_in_flight(&r->table);
  }
  /* Without --report-interval, a recorded run still keeps an interval every second, silently. */
  if (r->config.report_interval > 0) {
    if (r->test->ops.report_intermediate != NULL)
      r->test->ops.report_intermediate(&rep->worker, &stat, &r->layout);
    else
      report_intermediate_default(&stat, &r->layout);
  }
  if (results_recording())
    recorder_interval(&stat, rate_mode);
  stats_copy(&rep->previous, &rep->current);
}

/* --debug: each worker's share of the period the cumulative report covers, as 1.0 prints it. */
static void report_threads_debug(run *r)
{
  const reporter *rep = &r->reporter;

  log_text(LOG_DEBUG, "Verbose per-thread statistics:\n");
  for (unsigned i = 0; i < r->config.threads; i++) {
    uint64_t events = rep->current.thread_events[i] - rep->baseline.thread_events[i];
    double busy = units_ns_to_seconds(rep->current.thread_latency_ns[i] -
                                      rep->baseline.thread_latency_ns[i]);
    uint64_t min_ns, max_ns;
    stats_thread_latency_extremes(&r->table, i, &min_ns, &max_ns);
    log_text(LOG_DEBUG, "    thread #%3u: min: %.4fs  avg: %.4fs  max: %.4fs  events: %" PRIu64,
             i, units_ns_to_seconds(min_ns), events ? busy / (double) events : 0,
             units_ns_to_seconds(max_ns), events);
    log_text(LOG_DEBUG, "                 total time taken by event execution: %.4fs", busy);
  }
  log_text(LOG_NOTICE, "%s", "");
}

/* Everything since the last checkpoint. On a forced shutdown, events still running are not
   counted (as in 1.0.20); how many there were is said. --histogram goes with the final
   report only, as in 1.0. The final report's time is the end of the measurement (the last
   event), however long the threads then took to finish. */
void report_cumulative(run *r, cumulative_kind kind, worker *by)
{
  reporter *rep = &r->reporter;
  assert(by != NULL && rep->baseline.threads == r->config.threads);
  bool forced = kind == REPORT_FORCED;
  sb_stat_t stat = {0};
  uint64_t min_ns, max_ns;
  unsigned unfinished = 0;

  rep->current.taken_ns = clock_now_ns();
  if (kind == REPORT_FINAL)
    rep->current.taken_ns = timeline_end(r->left_ns, r->config.threads, rep->current.taken_ns);
  if (rep->current.taken_ns < rep->baseline.taken_ns)  /* a checkpoint after the last event */
    rep->current.taken_ns = rep->baseline.taken_ns;
  stats_take(&r->table, &rep->current);
  stats_latency_extremes(&r->table, &min_ns, &max_ns);

  if (forced)
    for (unsigned i = 0; i < r->config.threads; i++)
      unfinished += __atomic_load_n(&r->workers[i].stats.in_event, __ATOMIC_RELAXED) != 0;

  stats_compute(&stat, &rep->baseline, &rep->current, rep->scratch, r->config.percentile,
                min_ns, max_ns);
  stat.threads_running = __atomic_load_n(&r->threads_running, __ATOMIC_RELAXED);
  stat.time_total = seconds_since_start(r, rep->current.taken_ns);
  /* The final report is made after the workers were joined: their outage records are
     complete and no longer written. */
  outage_summary outages;
  if (kind == REPORT_FINAL) {
    outage_summary_begin(&outages, r->measure_start_ns, rep->current.taken_ns);
    for (unsigned i = 0; i < r->config.threads; i++)
      outage_summary_add(&outages, &r->workers[i].stats.outage);
    outage_summary_finish(&outages);
    if (outage_summary_any(&outages))
      stat.outage = &outages;
    r->outage_failed = outages.run_failed;
  }

  if (forced && unfinished > 0)
    report_unfinished(unfinished);
  if (r->config.histogram && kind == REPORT_FINAL) {
    log_flush();
    histogram_print(stat.histogram, stdout);
  }
  if (r->test->ops.report_cumulative != NULL)
    r->test->ops.report_cumulative(by, &stat, &r->layout);
  else
    report_cumulative_general(&stat, &r->layout);
  if (r->config.debug)
    report_threads_debug(r);
  if (results_recording())
    recorder_cumulative(&stat, &rep->baseline, &rep->current, kind == REPORT_CHECKPOINT);

  stats_copy(&rep->baseline, &rep->current);
  stats_new_epoch(&r->table);
}

static void *reporter_main(void *arg)
{
  run *r = arg;
  reporter *rep = &r->reporter;
  report_schedule schedule;

  worker_bind_thread(&rep->worker);
  report_schedule_init(&schedule, r->measure_start_ns, results_interval_seconds(),
                       r->config.checkpoints, r->config.checkpoint_count);
  for (uint64_t due = report_schedule_next(&schedule); due != 0;
       due = report_schedule_next(&schedule)) {
    struct timespec ts = units_timespec(due);
    while (sem_clockwait(&rep->wakeup, CLOCK_MONOTONIC, &ts) != 0 && errno == EINTR)
      ;
    /* The clock first: a stop seen after it cannot let a tick later than the stop through. */
    uint64_t now_ns = clock_now_ns();
    bool stopping = __atomic_load_n(&rep->stop, __ATOMIC_ACQUIRE) ||
                    __atomic_load_n(&r->flags.stop, __ATOMIC_ACQUIRE);
    uint64_t stopped_at = __atomic_load_n(&r->stopped_at_ns, __ATOMIC_ACQUIRE);
    report_due now = report_schedule_wake(&schedule, now_ns, stopping, stopped_at);
    /* Threads running at the tick: those that stopped at the deadline ran until it. */
    if (now.tick_ns != 0)
      report_intermediate(r, now.tick_ns,
                          timeline_running_at(r->left_ns, r->config.threads, now.tick_ns));
    if (now.checkpoint_ns != 0) {
      log_timestamped(LOG_NOTICE, seconds_since_start(r, now.checkpoint_ns),
                      "Checkpoint report:");
      report_cumulative(r, REPORT_CHECKPOINT, &rep->worker);
    }
    if (now.finished)
      break;
  }
  return NULL;
}

int reporter_start(run *r)
{
  reporter *rep = &r->reporter;
  unsigned started;

  if (results_interval_seconds() <= 0 && r->config.checkpoint_count == 0)
    return 0;
  rep->stop = 0;
  if (sem_init(&rep->wakeup, 0, 0) != 0)
    return errno;
  /* The reporter draws the stream the main thread has (id = threads), as in 1.0. */
  if (worker_init(&rep->worker, r->config.threads, NULL) != 0)
    return ENOMEM;
  int rc = threads_spawn(&rep->thread, 1, 0, reporter_main, r, 0, &started);
  rep->started = started == 1;
  if (!rep->started)
    worker_free(&rep->worker);
  return rc;
}

void reporter_stop(run *r)
{
  reporter *rep = &r->reporter;

  if (!rep->started)
    return;
  __atomic_store_n(&rep->stop, 1, __ATOMIC_RELEASE);
  sem_post(&rep->wakeup);
  pthread_join(rep->thread, NULL);
  rep->started = false;
  if (r->test->ops.report_done != NULL)
    r->test->ops.report_done(&rep->worker);
  worker_free(&rep->worker);
  sem_destroy(&rep->wakeup);
}
