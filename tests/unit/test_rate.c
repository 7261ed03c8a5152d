/*
 * test_rate.c: unit tests for src/rate.{h,c}, the --rate schedule: Poisson arrivals at the
 * target rate from a seeded stream (what a run at --rate=200 for 2 s schedules), when the
 * generator sleeps, and the queue: arrivals handed out in order, and a full queue reported.
 */
#include "rate.h"
#include "logger.h"
#include "rand.h"
#include "tap.h"

#include <math.h>
#include <unistd.h>

#define MS UINT64_C(1000000)
#define S UINT64_C(1000000000)

static void test_arrivals(void)
{
  rand_state r;
  rand_state_seed(&r, 2);

  ok_num(rate_next_arrival(7 * S, 5e6, 0.0), ==, 7 * S, "a draw of 0 is an arrival at once");
  ok_num(rate_next_arrival(0, 5e6, 0.5), ==, (uint64_t) (log(2.0) * 5e6),
         "a draw of 0.5 is ln 2 mean gaps later (the exponential's median)");

  /* --rate=200 for 2 s from 100 s on: about 400 arrivals (Poisson: sd 20) */
  uint64_t t = 100 * S, count = 0;
  bool ordered = true;
  for (;;) {
    uint64_t next = rate_next_arrival(t, 1e9 / 200, rand_double(&r));
    ordered = ordered && next >= t;
    t = next;
    if (t > 102 * S)
      break;
    count++;
  }
  ok_num(count, >=, 340, "--rate=200 for 2 s schedules about 400 events (at least 340)");
  ok_num(count, <=, 460, "... (at most 460)");
  ok(ordered, "arrivals never go back in time");

  double sum = 0;
  enum { N = 200000 };
  for (int i = 0; i < N; i++)
    sum += (double) rate_next_arrival(0, 1e9 / 200, rand_double(&r));
  ok_num(fabs(sum / N / 5e6 - 1), <, 0.01, "the mean gap is 1/rate (5 ms at 200/s) within 1%");

  ok(!rate_sleeps_until(1 * S + 10000, 1 * S), "an arrival 10 us ahead is queued at once");
  ok(rate_sleeps_until(1 * S + 2 * MS, 1 * S), "an arrival 2 ms ahead is slept for");
}

static int overflows;
static void on_overflow(void *arg)
{
  (void) arg;
  __atomic_add_fetch(&overflows, 1, __ATOMIC_RELEASE);
}

static void test_queue(void)
{
  int err = 0;
  /* Every arrival is long past due: the generator fills the queue as fast as it can. */
  rate_schedule *q = rate_start(1e9, 1, 5, on_overflow, NULL, &err);
  ok(q != NULL, "a schedule starts");
  uint64_t last = 0, at;
  bool ordered = true;
  for (int i = 0; i < 1000; i++) {
    ordered = ordered && rate_next_event(q, &at) && at >= last;
    last = at;
  }
  ok(ordered, "workers get the arrivals in order");
  for (int i = 0; i < 2000 && !__atomic_load_n(&overflows, __ATOMIC_ACQUIRE); i++)
    usleep(1000);
  ok_num(overflows, ==, 1, "a queue nobody empties overflows, reported once");
  ok_num(rate_queue_length(q), ==, RATE_QUEUE_CAPACITY - 1,
         "... at 131071 waiting events (the 131072-slot ring keeps one free, as 1.0.20's)");
  rate_stop(q);
  ok(!rate_next_event(q, &at), "a stopped schedule hands out nothing more");
  rate_free(q);
}

int main(void)
{
  log_set_verbosity(-1);            /* the queue-full FATAL line is expected */
  rand_configure(NULL);
  test_arrivals();
  test_queue();
  return tap_done();
}
