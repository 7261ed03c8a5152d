/*
 * worker_events.c: a worker's per-event API (runner.h): may it start another event, the
 * event's start and end, its counters, and 1.0.20's id-based names over them.
 *
 * Per event a worker reads three words of its run that change at most a few times per run
 * (the stop flag, the warm-up flag and the deadline) and compares the deadline with the clock
 * it read for the event's latency anyway; the --events budget is claimed in batches, so even
 * a limited run writes a shared counter only once per batch. Everything else it writes is
 * its own.
 */
#include <assert.h>

#include "clock.h"
#include "logger.h"
#include "run.h"
#include "runner.h"

/* Take the next batch of the --events budget (run_timeline.h says how big). */
static bool claim_events(run *r, worker_stats *w)
{
  uint64_t left = __atomic_load_n(&r->events_remaining, __ATOMIC_RELAXED);
  uint64_t take;

  do {
    take = timeline_events_batch(left, r->config.threads);
    if (take == 0)
      return false;
  } while (!__atomic_compare_exchange_n(&r->events_remaining, &left, left - take, true,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  w->events_quota = take;
  return true;
}

/* Are the worker's events taken from the --rate schedule? */
static inline bool rate_mode(const worker *w)
{
  return w->run != NULL && w->run->flags.rate_mode;
}

/* May the worker start another event? now_ns: the clock the caller read, 0 = not read. A
   worker in no run (a command's, the main thread's) has none to run. */
static bool more_events(worker *wk, uint64_t now_ns)
{
  run *r = wk->run;
  if (__builtin_expect(r == NULL, 0))
    return false;
  int stop = __atomic_load_n(&r->flags.stop, __ATOMIC_RELAXED);
  if (__builtin_expect(stop, 0)) {
    if (stop == STOP_TIME_LIMIT)
      log_text(LOG_INFO, "Time limit exceeded, exiting...");
    return false;
  }
  /* Each worker watches the deadline itself: waiting for the main thread to be scheduled
     and raise the stop flag would let events start late on a busy machine. */
  uint64_t deadline = __atomic_load_n(&r->flags.deadline_ns, __ATOMIC_RELAXED);
  if (deadline != 0 && timeline_time_is_up(deadline, now_ns ? now_ns : clock_now_ns())) {
    log_text(LOG_INFO, "Time limit exceeded, exiting...");
    return false;
  }

  worker_stats *w = &wk->stats;
  /* Acquire pairs with the end of the warm-up (runner.c): an event started after this load
     sees the warm-up over, and its record cannot have been in the baseline taken before. The
     warm-up ends once per run, so a worker that saw it end reads the flag no more: every later
     event is ordered after that load, and the event path touches one shared word less
     (ThreadSanitizer serialises acquires of one released word: at 1,000 threads an event took
     seconds). */
  int warming = 0;
  if (!w->warmup_seen_over) {
    warming = __atomic_load_n(&r->flags.warming_up, __ATOMIC_ACQUIRE);
    w->warmup_seen_over = (uint32_t) !warming;
  }
  w->warmup_event = (uint32_t) warming;
  if (r->event_limit > 0 && !warming) {
    if (w->events_quota == 0 && !claim_events(r, w)) {
      log_text(LOG_INFO, "Event limit exceeded, exiting...");
      return false;
    }
    w->events_quota--;
  }
  if (r->flags.rate_mode && !rate_next_event(r->rate, &w->scheduled_ns))
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
  w->event_start_ns = rate_mode(wk) ? w->scheduled_ns : clock_now_ns();
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
  w->event_start_ns = rate_mode(wk) ? w->scheduled_ns : now;
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

int run_c_event_loop(run *r, worker *w)
{
  assert(w->run == r && w >= r->workers && w < r->workers + r->config.threads);
  while (sb_worker_more_events(w)) {
    sb_worker_event_start(w);
    int rc = r->test->ops.event(w);
    sb_worker_event_stop(w);
    if (rc != 0)
      return rc;
  }
  return 0;
}

/* ---- sysbench 1.0.20's names, by thread id --------------------------------------------- */

/* The run in progress. Set before its first thread starts and cleared after the last one is
   joined, so every thread of the run sees it; a signal handler finds its run here too. */
static run *active;

run *run_active(void)
{
  return active;
}

void run_set_active(run *r)
{
  active = r;
}

/* Outside a run (a command's threads, the main thread), and for ids that name no worker,
   counts go to this slot, which no report reads; several threads may write it. */
static worker no_run_slot = { .shared = true };

worker *runner_worker(int thread_id)
{
  run *r = run_active();
  if (r == NULL)
    return &no_run_slot;
  return worker_by_id(r->workers, r->config.threads, thread_id, &r->shared);
}

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
