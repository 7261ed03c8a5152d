/*
 * test_run_timeline.c: unit tests for src/run_timeline.{h,c}, the runner's decisions with a
 * fake clock: the deadline a --time gives, when an event may no longer start, which workers
 * count as running at a report's tick, the end of the measurement (the last worker's last
 * event, not the report's moment), the --events batches, and the main thread's and the
 * reporter's timelines -- warm-up, stop, forced shutdown, report ticks and checkpoints --
 * driven through whole runs as runner.c and reporter.c drive them.
 */
#include "run_timeline.h"
#include "tap.h"

#include <stdint.h>

#define S UINT64_C(1000000000)
#define MS UINT64_C(1000000)

static void test_deadline(void)
{
  ok_num(timeline_deadline(100 * S, 5), ==, 105 * S, "--time=5 from 100 s: the deadline is 105 s");
  ok_num(timeline_deadline(100 * S, 0.25), ==, 100 * S + 250 * MS,
         "a fractional --time counts to the nanosecond");
  ok_num(timeline_deadline(100 * S, 0), ==, 0, "--time=0: no deadline");
  ok_num(timeline_deadline(100 * S, -1), ==, 0, "a negative time: no deadline either");
}

static void test_time_is_up(void)
{
  uint64_t deadline = 105 * S;
  ok(!timeline_time_is_up(deadline, deadline - 1), "an event may start 1 ns before the deadline");
  ok(timeline_time_is_up(deadline, deadline), "... not at the deadline");
  ok(timeline_time_is_up(deadline, deadline + 3 * S), "... nor after it");
  ok(!timeline_time_is_up(0, UINT64_MAX), "without a deadline the time is never up");
}

static void test_running_at(void)
{
  /* worker 0 left at 2 s, worker 1 at the 5 s deadline, worker 2 at 5.3 s, worker 3 runs */
  uint64_t left[4] = {2 * S, 5 * S, 5 * S + 300 * MS, 0};
  ok_num(timeline_running_at(left, 4, 1 * S), ==, 4, "at 1 s all four were running");
  ok_num(timeline_running_at(left, 4, 3 * S), ==, 3, "at 3 s one had left");
  ok_num(timeline_running_at(left, 4, 5 * S), ==, 3,
         "at the deadline tick the worker that stopped at it still counts");
  ok_num(timeline_running_at(left, 4, 6 * S), ==, 1, "at 6 s only the one still running");
  ok_num(timeline_running_at(left, 0, 6 * S), ==, 0, "no workers: none running");
}

static void test_end(void)
{
  uint64_t left[3] = {4 * S, 5 * S + 40 * MS, 5 * S + 10 * MS};
  ok_num(timeline_end(left, 3, 9 * S), ==, 5 * S + 40 * MS,
         "the measurement ends with the last worker's last event, not when the report is made");
  uint64_t one_running[3] = {4 * S, 0, 5 * S};
  ok_num(timeline_end(one_running, 3, 9 * S), ==, 9 * S,
         "while a worker still runs (a forced shutdown) it ends now");
  ok_num(timeline_end(left, 0, 7 * S), ==, 7 * S, "no workers: now");
}

static void test_events_batches(void)
{
  ok_num(timeline_events_batch(0, 4), ==, 0, "no budget left: no batch");
  ok_num(timeline_events_batch(1000000, 4), ==, 256, "plenty left: batches of 256 at most");
  ok_num(timeline_events_batch(640, 4), ==, 10, "640 left for 4 workers: 640 / 64 = 10");
  ok_num(timeline_events_batch(63, 4), ==, 1, "near the end: one event at a time");

  /* Three workers take turns until the budget is gone: the events add up exactly. */
  static const uint64_t budgets[] = {1, 7, 1000, 100000, 1234567};
  bool exact = true, bounded = true;
  for (size_t b = 0; b < sizeof(budgets) / sizeof(budgets[0]); b++) {
    uint64_t left = budgets[b], taken = 0, batch;
    while ((batch = timeline_events_batch(left, 3)) != 0) {
      bounded = bounded && batch >= 1 && batch <= 256 && batch <= left;
      left -= batch;
      taken += batch;
    }
    exact = exact && taken == budgets[b] && left == 0;
  }
  ok(exact, "--events=1, 7, 1000, 100000, 1234567 over 3 workers: exactly that many taken");
  ok(bounded, "... in batches of 1 to 256, never more than is left");
}

/* The main thread's loop of runner.c on a fake clock: at `now`, do every action due and
   return them as a string ("W" end warm-up, "S" stop now, "T" stop at the time limit, "F"
   forced shutdown); `start_after_warmup`: when the baseline of an END_WARMUP is taken. */
static const char *supervise_at(run_timeline *t, uint64_t now, bool broken,
                                uint64_t *stopped_at)
{
  static char done[8];
  size_t n = 0;
  timeline_action a;

  while ((a = timeline_next_action(t, now, broken)) != TIMELINE_WAIT && n < sizeof(done) - 1) {
    switch (a) {
      case TIMELINE_END_WARMUP:
        done[n++] = 'W';
        timeline_measurement_started(t, now);
        break;
      case TIMELINE_STOP_NOW:
      case TIMELINE_STOP_TIME_LIMIT: {
        bool warming = t->warming;
        done[n++] = a == TIMELINE_STOP_NOW ? 'S' : 'T';
        timeline_stopped(t);
        *stopped_at = a == TIMELINE_STOP_NOW ? now : t->deadline_ns;
        if (warming)
          timeline_measurement_started(t, now);
        break;
      }
      case TIMELINE_FORCED_SHUTDOWN:
        done[n++] = 'F';
        done[n] = '\0';
        return done;         /* the process exits */
      case TIMELINE_WAIT:
        break;
    }
  }
  done[n] = '\0';
  return done;
}

#define ACTS(t, now, broken) supervise_at((t), (now), (broken), &stopped_at)

static void test_time_limit(void)
{
  run_timeline t;
  uint64_t stopped_at = 0;

  /* --time=10, no warm-up: released (and measuring) at 100 s */
  timeline_begin(&t, 100 * S, 0, 10, false, 0);
  ok(!t.warming, "without --warmup-time there is no warm-up");
  timeline_measurement_started(&t, 100 * S);
  ok_num(t.deadline_ns, ==, 110 * S, "--time=10: the deadline is 10 s after the start");
  ok_num(timeline_wake_at(&t), ==, 110 * S, "the main thread sleeps until the deadline");
  is_str(ACTS(&t, 110 * S - 1, false), "", "1 ns before the deadline: nothing to do");
  is_str(ACTS(&t, 110 * S, false), "T", "at the deadline: the workers stop");
  ok_num(stopped_at, ==, 110 * S, "... stopped at the deadline itself");
  is_str(ACTS(&t, 111 * S, false), "", "... once");
  ok_num(timeline_wake_at(&t), ==, 0, "then it waits for the workers, no timeout");

  /* the main thread was scheduled late: the stop is still dated at the deadline */
  timeline_begin(&t, 100 * S, 0, 10, false, 0);
  timeline_measurement_started(&t, 100 * S);
  is_str(ACTS(&t, 113 * S, false), "T", "woken 3 s late, it stops the workers ...");
  ok_num(stopped_at, ==, 110 * S, "... as of the deadline (the reporter prints the tick due)");

  /* --time=0 */
  timeline_begin(&t, 100 * S, 0, 0, true, 5);
  timeline_measurement_started(&t, 100 * S);
  ok(t.deadline_ns == 0 && t.forced_at_ns == 0, "--time=0: no deadline, no forced shutdown");
  is_str(ACTS(&t, 1000000 * S, false), "", "... nothing stops the run but its events");
  ok_num(timeline_wake_at(&t), ==, 0, "... and the main thread just waits for the workers");
}

static void test_signals_and_failures(void)
{
  run_timeline t;
  uint64_t stopped_at = 0;

  timeline_begin(&t, 0, 0, 30, false, 0);
  timeline_measurement_started(&t, 0);
  is_str(ACTS(&t, 1500 * MS, true), "S", "Ctrl-C (or a failure) at 1.5 s of 30: stop now");
  ok_num(stopped_at, ==, 1500 * MS, "... dated when it was seen, not at the deadline");
  is_str(ACTS(&t, 1600 * MS, true), "", "... once");
  is_str(ACTS(&t, 30 * S, true), "", "the deadline passing after that stops nothing more");
}

static void test_forced_shutdown(void)
{
  run_timeline t;
  uint64_t stopped_at = 0;

  /* --time=1 --forced-shutdown=1 */
  timeline_begin(&t, 0, 0, 1, true, 1);
  timeline_measurement_started(&t, 0);
  ok_num(t.forced_at_ns, ==, 2 * S, "--time=1 --forced-shutdown=1: forced 2 s after the start");
  is_str(ACTS(&t, 1 * S, false), "T", "the workers are told to stop at 1 s");
  ok_num(timeline_wake_at(&t), ==, 2 * S, "a worker that does not stop: wake at the shutdown");
  is_str(ACTS(&t, 2 * S - 1, false), "", "1 ns before it: nothing");
  is_str(ACTS(&t, 2 * S, false), "F", "at 2 s: the forced shutdown");

  /* a stop by signal does not cancel it */
  timeline_begin(&t, 0, 0, 10, true, 0.5);
  timeline_measurement_started(&t, 0);
  is_str(ACTS(&t, 1 * S, true), "S", "a signal at 1 s of --time=10 --forced-shutdown=0.5");
  ok_num(timeline_wake_at(&t), ==, 10 * S + 500 * MS, "... the shutdown stays due at 10.5 s");

  /* the forced shutdown counts from the measurement, after the warm-up */
  timeline_begin(&t, 0, 2, 1, true, 1);
  ok_num(t.forced_at_ns, ==, 0, "during the warm-up no shutdown is due yet");
  is_str(ACTS(&t, 2 * S, false), "W", "");
  ok_num(t.forced_at_ns, ==, 4 * S, "--warmup-time=2 --time=1 --forced-shutdown=1: forced at 4 s");
}

static void test_warmup(void)
{
  run_timeline t;
  uint64_t stopped_at = 0;

  /* --warmup-time=1 --time=1, released at 50 s */
  timeline_begin(&t, 50 * S, 1, 1, false, 0);
  ok(t.warming && t.deadline_ns == 0, "a warm-up first: no deadline yet");
  ok_num(timeline_wake_at(&t), ==, 51 * S, "the main thread wakes at the warm-up's end");
  is_str(ACTS(&t, 51 * S - 1, false), "", "1 ns before it: still warming up");
  is_str(ACTS(&t, 51 * S, false), "W", "at 51 s: statistics start");
  ok_num(t.measure_start_ns, ==, 51 * S, "the measurement starts at the warm-up's end");
  ok_num(t.deadline_ns, ==, 52 * S, "... and --time counts from there (the warm-up excluded)");
  is_str(ACTS(&t, 52 * S, false), "T", "the workers stop at 52 s");

  /* stopped during the warm-up: what ran so far is reported (its baseline taken then) */
  timeline_begin(&t, 0, 5, 10, false, 0);
  is_str(ACTS(&t, 2 * S, true), "S", "Ctrl-C during the warm-up: stop now ...");
  ok(!t.warming && t.measure_start_ns == 2 * S, "... and the warm-up ends with it");
  is_str(ACTS(&t, 5 * S, true), "", "its planned end then does nothing");
}

/* The reporter's loop of reporter.c on a fake clock: wakes at each due time (or at `stop`
   when the workers stop first) and returns the stamps of what it reported, in seconds since
   the start, "c" before a checkpoint's. */
static const char *report_run(report_schedule *s, uint64_t stop_ns, uint64_t late_from,
                              uint64_t late_by)
{
  static char out[256];
  size_t n = 0;
  out[0] = '\0';
  for (uint64_t due = report_schedule_next(s); due != 0; due = report_schedule_next(s)) {
    uint64_t woke = due >= late_from ? due + late_by : due;
    bool stopping = woke >= stop_ns;
    if (stopping)
      woke = woke > stop_ns ? woke : stop_ns;
    report_due d = report_schedule_wake(s, woke, stopping, stop_ns);
    if (d.tick_ns != 0)
      n += (size_t) snprintf(out + n, sizeof(out) - n, "%g ",
                             (double) (d.tick_ns - s->start_ns) / 1e9);
    if (d.checkpoint_ns != 0)
      n += (size_t) snprintf(out + n, sizeof(out) - n, "c%g ",
                             (double) (d.checkpoint_ns - s->start_ns) / 1e9);
    if (d.finished)
      break;
  }
  return out;
}

static void test_report_ticks(void)
{
  report_schedule s;

  report_schedule_init(&s, 10 * S, 1, NULL, 0);
  is_str(report_run(&s, 13 * S, UINT64_MAX, 0), "1 2 3 ",
         "--time=3 --report-interval=1: 3 reports, the one at the 3 s stop included");
  report_schedule_init(&s, 10 * S, 1, NULL, 0);
  is_str(report_run(&s, 13 * S, 13 * S, 50 * MS), "1 2 3 ",
         "... also when the reporter wakes after the stop (the tick due by then)");
  report_schedule_init(&s, 10 * S, 1, NULL, 0);
  is_str(report_run(&s, 12 * S + 500 * MS, UINT64_MAX, 0), "1 2 ",
         "stopped at 2.5 s (Ctrl-C): no report for the 3 s tick");

  report_schedule_init(&s, 0, 0.5, NULL, 0);
  is_str(report_run(&s, 2 * S, UINT64_MAX, 0), "0.5 1 1.5 2 ",
         "--report-interval=0.5 over 2 s: stamped 0.5, 1.0, 1.5, 2.0 (the ticks, not wake-ups)");

  /* a report hook that took 2.7 s: the missed ticks are skipped, the grid kept */
  report_schedule_init(&s, 0, 1, NULL, 0);
  report_due d = report_schedule_wake(&s, 1 * S, false, 0);
  ok_num(d.tick_ns, ==, 1 * S, "the tick at 1 s is reported");
  d = report_schedule_wake(&s, 3 * S + 700 * MS, false, 0);
  ok_num(d.tick_ns, ==, 2 * S, "woken at 3.7 s after a slow hook: the 2 s tick, stamped 2 s");
  ok_num(report_schedule_next(&s), ==, 4 * S, "... 3 s is skipped, the next is at 4 s");

  report_schedule_init(&s, 0, 0, NULL, 0);
  ok_num(report_schedule_next(&s), ==, 0, "no interval, no checkpoints: nothing to report");

  /* after a warm-up the schedule starts at the measurement: its first tick 1 s later */
  report_schedule_init(&s, 51 * S, 1, NULL, 0);
  ok_num(report_schedule_next(&s), ==, 52 * S, "reports start after the warm-up's end");
  is_str(report_run(&s, 52 * S, UINT64_MAX, 0), "1 ",
         "--warmup-time=1 --time=1 --report-interval=1: one report, for the measured second");
}

static void test_checkpoints(void)
{
  static const double points[] = {1, 2};
  static const double half[] = {0.5};
  report_schedule s;

  report_schedule_init(&s, 0, 0, points, 2);
  is_str(report_run(&s, 3 * S, UINT64_MAX, 0), "c1 c2 ",
         "--time=3 --report-checkpoints=1,2: checkpoints at 1 s and 2 s, then none");
  report_schedule_init(&s, 0, 1, points, 1);
  is_str(report_run(&s, 2 * S, UINT64_MAX, 0), "1 c1 2 ",
         "--report-interval=1 around a checkpoint at 1 s: the tick, the checkpoint, the tick");
  report_schedule_init(&s, 0, 0, half, 1);
  is_str(report_run(&s, 1 * S, UINT64_MAX, 0), "c0.5 ",
         "a fractional checkpoint is stamped with its own time: 0.5 s");
  report_schedule_init(&s, 0, 0, points, 2);
  is_str(report_run(&s, 1 * S + 500 * MS, UINT64_MAX, 0), "c1 ",
         "a checkpoint after the stop is not made");
}

int main(void)
{
  test_deadline();
  test_time_is_up();
  test_running_at();
  test_end();
  test_events_batches();
  test_time_limit();
  test_signals_and_failures();
  test_forced_shutdown();
  test_warmup();
  test_report_ticks();
  test_checkpoints();
  return tap_done();
}
