/*
 * test_stats.c: unit tests for src/stats.{h,c}: per-worker counters summed by snapshots,
 * intervals as differences of snapshots, latency sum / average / extremes, the reset epoch
 * that restarts min/max without writing into workers, thread fairness, stats no table lists
 * (the background's) kept out of reports, and snapshots taken while a worker keeps recording.
 */
#include "stats.h"
#include "tap.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#define NS_PER_MS UINT64_C(1000000)

/* Three workers' stats listed in a table, and one (the background's) that no table lists. */
static worker_stats workers[3];
static worker_stats background;
static stats_table table;

static worker_stats *stats_of(unsigned id)
{
  return &workers[id];
}

static stats_snapshot snap(uint64_t taken_ns)
{
  stats_snapshot s;
  if (stats_snapshot_init(&s, table.count) != 0) {
    printf("Bail out! stats_snapshot_init failed\n");
    exit(1);
  }
  stats_take(&table, &s);
  s.taken_ns = taken_ns;
  return s;
}

static void test_counters_and_latency(void)
{
  latency_histogram *scratch = histogram_new();
  stats_snapshot start = snap(0);
  sb_stat_t r;

  /* worker 0: 3 events of 1, 2, 3 ms; worker 1: 1 event of 10 ms; worker 2: nothing */
  for (uint64_t ms = 1; ms <= 3; ms++)
    stats_record_event(stats_of(0), ms * NS_PER_MS);
  stats_record_event(stats_of(1), 10 * NS_PER_MS);
  stats_of(0)->counters[SB_CNT_READ] += 14;
  stats_of(1)->counters[SB_CNT_WRITE] += 4;
  stats_of(1)->counters[SB_CNT_OTHER] += 2;
  stats_of(0)->counters[SB_CNT_ERROR] += 1;
  stats_of(1)->counters[SB_CNT_RECONNECT] += 1;
  stats_of(0)->counters[SB_CNT_ROWS] += 140;
  /* the background's stats are in no table: reports leave them out */
  background.counters[SB_CNT_READ] += 1000;
  stats_record_event(&background, 1);

  stats_snapshot end = snap(2 * UINT64_C(1000000000));
  uint64_t mn, mx;
  stats_latency_extremes(&table, &mn, &mx);
  stats_compute(&r, &start, &end, scratch, 95, mn, mx);

  ok_num(r.events, ==, 4, "events summed over workers");
  ok_num(r.reads, ==, 14, "reads (the background slot's 1000 left out)");
  ok_num(r.writes, ==, 4, "writes");
  ok_num(r.other, ==, 2, "other");
  ok_num(r.errors, ==, 1, "ignored errors");
  ok_num(r.reconnects, ==, 1, "reconnects");
  ok_num(r.rows, ==, 140, "rows");
  ok_num(r.time_interval, ==, 2.0, "interval from the snapshots' times");
  ok_num(fabs(r.latency_sum - 0.016), <, 1e-12, "latency sum 16 ms, exact");
  ok_num(fabs(r.latency_avg - 0.004), <, 1e-12, "latency average 4 ms, exact");
  ok_num(r.latency_min, ==, 0.001, "min 1 ms, exact");
  ok_num(r.latency_max, ==, 0.010, "max 10 ms, exact");
  ok(r.latency_pct >= r.latency_min && r.latency_pct <= r.latency_max,
     "the 95th percentile lies within [min, max] (%g)", r.latency_pct);
  ok_num(fabs(r.latency_pct - 0.010), <=, 0.010 * 0.01, "... and is the 10 ms event, within 1 %");

  /* fairness over 3 workers: events 3, 1, 0 -> avg 4/3; times 6, 10, 0 ms -> avg 16/3 ms */
  double ev_avg = 4.0 / 3, t_avg = 0.016 / 3;
  double ev_sd = sqrt(((3 - ev_avg) * (3 - ev_avg) + (1 - ev_avg) * (1 - ev_avg) +
                       ev_avg * ev_avg) / 3);
  double t_sd = sqrt(((0.006 - t_avg) * (0.006 - t_avg) + (0.010 - t_avg) * (0.010 - t_avg) +
                      t_avg * t_avg) / 3);
  ok_num(fabs(r.events_avg - ev_avg), <, 1e-12, "fairness: events per thread average");
  ok_num(fabs(r.events_stddev - ev_sd), <, 1e-12, "fairness: events stddev (population)");
  ok_num(fabs(r.time_avg - t_avg), <, 1e-12, "fairness: execution time average");
  ok_num(fabs(r.time_stddev - t_sd), <, 1e-12, "fairness: execution time stddev");

  /* A reset: new baseline and epoch. The next interval holds only what follows it. */
  stats_snapshot base = snap(end.taken_ns);
  stats_new_epoch(&table);
  ok(!stats_thread_latency_extremes(&table, 0, &mn, &mx) && mn == 0 && mx == 0,
     "after a reset a worker has no extremes until its next event");
  stats_record_event(stats_of(0), 5 * NS_PER_MS);
  stats_record_event(stats_of(2), 7 * NS_PER_MS);
  stats_of(2)->counters[SB_CNT_READ] += 3;
  stats_snapshot later = snap(end.taken_ns + 500000000);
  stats_latency_extremes(&table, &mn, &mx);
  stats_compute(&r, &base, &later, scratch, 95, mn, mx);
  ok_num(r.events, ==, 2, "after the reset: 2 events");
  ok_num(r.reads, ==, 3, "... 3 reads");
  ok_num(r.latency_min, ==, 0.005, "... min restarted: 5 ms, not the old 1 ms");
  ok_num(r.latency_max, ==, 0.007, "... max restarted: 7 ms, not the old 10 ms");
  ok_num(fabs(r.latency_sum - 0.012), <, 1e-12, "... latency sum 12 ms");
  ok_num(r.time_interval, ==, 0.5, "... a half-second interval");

  /* An interval without events reports zeros, not garbage. */
  stats_snapshot idle = snap(later.taken_ns + 1000000000);
  stats_latency_extremes(&table, &mn, &mx);
  stats_compute(&r, &later, &idle, scratch, 95, UINT64_MAX, 0);
  ok(r.events == 0 && r.latency_min == 0 && r.latency_max == 0 && r.latency_avg == 0 &&
     r.latency_pct == 0, "an idle interval reports zero latencies");

  stats_snapshot copy;
  stats_snapshot_init(&copy, table.count);
  stats_copy(&copy, &later);
  ok(copy.counters[SB_CNT_EVENT] == later.counters[SB_CNT_EVENT] &&
     copy.thread_events[2] == 1 && histogram_total(copy.histogram) == 6,
     "stats_copy copies counters, per-thread figures and the histogram");

  stats_snapshot_free(&copy);
  stats_snapshot_free(&idle);
  stats_snapshot_free(&later);
  stats_snapshot_free(&base);
  stats_snapshot_free(&end);
  stats_snapshot_free(&start);
  histogram_free(scratch);
}

/* One worker records while the reporter snapshots: counts only grow and end exact. */
#define RECORDS 2000000
static int writer_done;

static void *writer(void *arg)
{
  worker_stats *w = arg;
  for (uint64_t i = 0; i < RECORDS; i++) {
    stats_record_event(w, 1000 + i % 5000);
    __atomic_store_n(&w->counters[SB_CNT_READ], w->counters[SB_CNT_READ] + 1,
                     __ATOMIC_RELAXED);
  }
  __atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void test_live_snapshots(void)
{
  pthread_t t;
  stats_snapshot s = snap(0);
  uint64_t before = s.counters[SB_CNT_EVENT], last = before;
  bool monotonic = true, consistent = true;
  unsigned taken = 0;

  pthread_create(&t, NULL, writer, stats_of(1));
  while (!__atomic_load_n(&writer_done, __ATOMIC_ACQUIRE)) {
    stats_take(&table, &s);
    taken++;
    monotonic &= s.counters[SB_CNT_EVENT] >= last;
    last = s.counters[SB_CNT_EVENT];
    /* The histogram is read after the counters, so it holds at least as many events. */
    consistent &= histogram_total(s.histogram) + 64 >= s.counters[SB_CNT_EVENT];
  }
  pthread_join(t, NULL);
  stats_take(&table, &s);
  ok(monotonic, "event counts never go back while a worker records (%u snapshots)", taken);
  ok(consistent, "the histogram keeps up with the counters in every snapshot");
  ok_num(s.counters[SB_CNT_EVENT] - before, ==, RECORDS, "the final snapshot has every event");
  ok_num(histogram_total(s.histogram), ==, s.counters[SB_CNT_EVENT],
         "... and the histogram every latency");
  stats_snapshot_free(&s);
}

int main(void)
{
  if (stats_table_init(&table, 3) != 0 || worker_stats_init(&background, NULL) != 0) {
    printf("Bail out! out of memory\n");
    return 1;
  }
  for (unsigned i = 0; i < 3; i++) {
    if (worker_stats_init(&workers[i], &table.epoch) != 0) {
      printf("Bail out! out of memory\n");
      return 1;
    }
    table.workers[i] = &workers[i];
  }
  ok(table.count == 3, "three workers");
  test_counters_and_latency();
  test_live_snapshots();
  for (unsigned i = 0; i < 3; i++)
    worker_stats_free(&workers[i]);
  worker_stats_free(&background);
  stats_table_free(&table);
  return tap_done();
}
