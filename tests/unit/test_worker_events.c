/*
 * test_worker_events.c: unit tests for src/worker_events.c, a worker's per-event API on a run
 * made by hand (no threads but the --rate generator's): the --events budget is exact over
 * several workers, warm-up events are neither measured nor charged, the stop flag and the
 * deadline end the loop, under --rate an event's latency starts at its scheduled time, a
 * worker outside a run has no events, and 1.0.20's id-based names act for the right worker.
 */
#include "run.h"
#include "runner.h"
#include "clock.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#define WORKERS 3

static run *make_run(uint64_t event_limit)
{
  run *r = aligned_alloc(_Alignof(run), sizeof(run));
  memset(r, 0, sizeof(*r));
  r->config.threads = WORKERS;
  r->event_limit = r->events_remaining = event_limit;
  r->shared = (worker) { .shared = true, .run = r };
  stats_table_init(&r->table, WORKERS);
  worker_stats_init(&r->shared.stats, NULL);
  r->workers = aligned_alloc(_Alignof(worker), WORKERS * sizeof(worker));
  for (unsigned i = 0; i < WORKERS; i++) {
    worker_init(&r->workers[i], i, &r->table.epoch);
    r->workers[i].run = r;
    r->table.workers[i] = &r->workers[i].stats;
  }
  return r;
}

static void free_run(run *r)
{
  for (unsigned i = 0; i < WORKERS; i++)
    worker_free(&r->workers[i]);
  free(r->workers);
  worker_free(&r->shared);
  stats_table_free(&r->table);
  free(r);
}

static uint64_t events_of(const run *r)
{
  uint64_t n = 0;
  for (unsigned i = 0; i < WORKERS; i++)
    n += r->workers[i].stats.counters[SB_CNT_EVENT];
  return n;
}

/* The workers take turns, one event each, until none may start another. */
static unsigned run_round_robin(run *r)
{
  bool more[WORKERS];
  unsigned active = WORKERS, started = 0;
  for (unsigned i = 0; i < WORKERS; i++)
    more[i] = true;
  while (active > 0) {
    for (unsigned i = 0; i < WORKERS; i++) {
      if (!more[i])
        continue;
      if (!sb_worker_more_events(&r->workers[i])) {
        more[i] = false;
        active--;
        continue;
      }
      sb_worker_event_start(&r->workers[i]);
      sb_worker_event_stop(&r->workers[i]);
      started++;
    }
  }
  return started;
}

static void test_event_budget(void)
{
  static const uint64_t limits[] = {1, 2, 100, 1000, 100000};
  bool exact = true;
  for (size_t k = 0; k < sizeof(limits) / sizeof(limits[0]); k++) {
    run *r = make_run(limits[k]);
    unsigned started = run_round_robin(r);
    exact = exact && started == limits[k] && events_of(r) == limits[k];
    free_run(r);
  }
  ok(exact, "--events=1, 2, 100, 1000, 100000 over 3 workers: exactly that many events");

  run *r = make_run(10);
  r->flags.warming_up = 1;
  for (int i = 0; i < 50; i++) {
    sb_worker_more_events(&r->workers[0]);
    sb_worker_event_start(&r->workers[0]);
    worker_counter_add(&r->workers[0], SB_CNT_READ, 1);
    sb_worker_event_stop(&r->workers[0]);
  }
  ok(events_of(r) == 0 && r->workers[0].stats.counters[SB_CNT_READ] == 0,
     "warm-up events and their queries are not measured");
  ok_num(r->events_remaining, ==, 10, "... nor charged to the --events budget");
  r->flags.warming_up = 0;
  ok_num(run_round_robin(r), ==, 10, "after the warm-up the budget is whole: 10 events");
  free_run(r);
}

static void test_stop_and_deadline(void)
{
  run *r = make_run(0);
  worker *w = &r->workers[1];

  ok(sb_worker_more_events(w), "no limit, no stop: the worker may start an event");
  r->flags.deadline_ns = clock_now_ns() + 3600 * NS_PER_SEC;
  ok(sb_worker_more_events(w), "before the deadline: it may");
  r->flags.deadline_ns = clock_now_ns();
  ok(!sb_worker_more_events(w), "at the deadline (seen by the worker itself): it may not");
  r->flags.deadline_ns = 0;
  r->flags.stop = STOP_NOW;
  ok(!sb_worker_more_events(w), "once the main thread says stop: it may not");
  sb_worker_event_start(w);
  ok(!sb_worker_event_next(w), "sb_worker_event_next ends the event and starts none");
  ok_num(w->stats.counters[SB_CNT_EVENT], ==, 1, "... counting the one that ended");
  ok_num(w->stats.in_event, ==, 0, "... and leaving no event in flight");
  free_run(r);

  worker loose;
  worker_init(&loose, 0, NULL);
  ok(!sb_worker_more_events(&loose), "a worker in no run (a command's) has no events to run");
  worker_free(&loose);
}

static void on_overflow(void *arg)
{
  (void) arg;
}

static void test_rate_schedule_latency(void)
{
  run *r = make_run(0);
  int err = 0;
  uint64_t start = clock_now_ns();
  worker *w = &r->workers[0];

  r->flags.rate_mode = 1;
  r->rate = rate_start(100000, start, 3, on_overflow, NULL, &err);
  ok(r->rate != NULL, "a --rate schedule starts");
  ok(sb_worker_more_events(w), "... and hands out an event");
  sb_worker_event_start(w);
  ok(w->stats.event_start_ns == w->stats.scheduled_ns && w->stats.scheduled_ns >= start,
     "under --rate an event starts at its scheduled time, not when a worker took it");
  rate_stop(r->rate);
  ok(!sb_worker_more_events(w), "once the schedule stops, no event starts");
  rate_free(r->rate);
  r->rate = NULL;
  free_run(r);
}

static void test_id_shims(void)
{
  run *r = make_run(0);
  run_set_active(r);
  sb_counter_inc(2, SB_CNT_WRITE);
  sb_counter_inc(7, SB_CNT_WRITE);
  sb_counter_inc(-1, SB_CNT_WRITE);
  ok(r->workers[2].stats.counters[SB_CNT_WRITE] == 1, "sb_counter_inc(2, ...) counts for worker 2");
  ok(r->shared.stats.counters[SB_CNT_WRITE] == 2,
     "ids that name no worker count in the run's shared slot");
  ok_num(sb_counter_val(2, SB_CNT_WRITE), ==, 1, "sb_counter_val reads worker 2's counter");
  run_set_active(NULL);
  ok(runner_worker(0) != &r->workers[0], "outside a run no id names a run's worker");
  free_run(r);
}

int main(void)
{
  rand_configure(NULL);
  test_event_budget();
  test_stop_and_deadline();
  test_rate_schedule_latency();
  test_id_shims();
  return tap_done();
}
