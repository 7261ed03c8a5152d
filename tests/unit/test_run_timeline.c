/*
 * test_run_timeline.c: unit tests for src/run_timeline.{h,c}: the deadline a --time gives,
 * when an event may no longer start, which workers count as running at a report's tick, and
 * the end of the measurement (the last worker's last event, not the report's moment).
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

int main(void)
{
  test_deadline();
  test_time_is_up();
  test_running_at();
  test_end();
  return tap_done();
}
