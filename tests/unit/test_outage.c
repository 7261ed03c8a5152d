/*
 * test_outage.c: unit tests for src/outage.{h,c}: a worker's record of failed reconnects
 * (when its outage began, how many attempts failed, when it ended) and the run's summary of
 * them -- the time from when to when the server was unreachable, and the rule that a run
 * failed when the server was still unreachable at its end and no event started after the
 * outage began succeeded.
 */
#include "outage.h"
#include "tap.h"

#include <stdint.h>
#include <string.h>

#define S UINT64_C(1000000000)
#define MS UINT64_C(1000000)

static outage_summary summary_of(const worker_outage *workers, unsigned n, uint64_t start,
                                 uint64_t end)
{
  outage_summary s;
  outage_summary_begin(&s, start, end);
  for (unsigned i = 0; i < n; i++)
    outage_summary_add(&s, &workers[i]);
  outage_summary_finish(&s);
  return s;
}

static void test_no_outage(void)
{
  worker_outage w[2] = {0};
  w[0].last_event_start_ns = 104 * S;
  outage_reconnected(&w[1], 103 * S);   /* a reconnect at the first attempt */
  outage_summary s = summary_of(w, 2, 100 * S, 105 * S);
  ok(!outage_summary_any(&s), "no failed reconnect: no outage");
  ok(!s.run_failed, "... and the run did not fail for one");
  ok(!outage_in_progress(&w[1]), "a reconnect that worked is no outage in progress");
}

static void test_until_the_end(void)
{
  worker_outage w[3] = {0};
  /* two workers lose the connection at 103.2 s and 103.3 s; the third never noticed */
  for (int i = 0; i < 2; i++) {
    w[i].last_event_start_ns = 103 * S;
    for (int a = 0; a < 5; a++)
      outage_reconnect_failed(&w[i], 103 * S + (uint64_t) (200 + 100 * i) * MS,
                              i == 0 ? "refused (0)" : "refused (1)");
  }
  w[2].last_event_start_ns = 103 * S + 100 * MS;
  ok(outage_in_progress(&w[0]), "a failed reconnect starts an outage");
  ok_num(w[0].since_ns, ==, 103 * S + 200 * MS, "... at the time the loss was noticed");
  ok_num(w[0].failed_now, ==, 5, "... counting each failed attempt");

  outage_summary s = summary_of(w, 3, 100 * S, 106 * S + 800 * MS);
  ok(outage_summary_any(&s), "the summary has the outage");
  ok_num(s.ongoing_threads, ==, 2, "... 2 threads still reconnecting at the end");
  ok_num(s.ongoing_failed, ==, 10, "... with 10 failed reconnects");
  ok_num(s.ongoing_from, ==, 3.2, "... since 3.2 s, the earliest loss");
  ok_num(s.end, ==, 6.8, "... to the end at 6.8 s");
  is_str(s.last_error, "refused (1)", "the reason of a thread still reconnecting is kept");
  ok(!s.events_after, "no event started after 3.2 s succeeded");
  ok(s.run_failed, "... so the run failed");

  w[2].last_event_start_ns = 103 * S + 250 * MS;
  s = summary_of(w, 3, 100 * S, 106 * S + 800 * MS);
  ok(s.events_after && !s.run_failed,
     "an event that started after the outage began succeeded (another server): not failed");
}

static void test_ended(void)
{
  worker_outage w[2] = {0};
  outage_reconnect_failed(&w[0], 101 * S, "down");
  outage_reconnect_failed(&w[0], 101 * S, "down");
  outage_reconnected(&w[0], 102 * S);
  outage_reconnect_failed(&w[0], 104 * S, "down again");
  outage_reconnected(&w[0], 104 * S + 500 * MS);
  outage_reconnect_failed(&w[1], 101 * S + 100 * MS, "down");
  outage_reconnected(&w[1], 101 * S + 900 * MS);
  ok(!outage_in_progress(&w[0]), "a reconnect ends the outage");
  ok_num(w[0].ended, ==, 2, "... each one counted");
  ok_num(w[0].failed_ended, ==, 3, "... with its failed attempts");

  outage_summary s = summary_of(w, 2, 100 * S, 110 * S);
  ok_num(s.ended_threads, ==, 2, "both threads had outages that ended");
  ok(s.ended_several, "... one of them more than one");
  ok_num(s.ended_from, ==, 1.0, "... the first began at 1 s");
  ok_num(s.ended_to, ==, 4.5, "... the last ended at 4.5 s");
  ok_num(s.ended_failed, ==, 4, "... 4 reconnects failed");
  ok(s.ongoing_threads == 0 && !s.run_failed, "none lasted to the end: the run did not fail");
  ok(strcmp(s.last_error, "down again") == 0 || strcmp(s.last_error, "down") == 0,
     "the reason of the last failure is kept");

  /* an outage over before the measurement started (in the warm-up) is not the run's */
  worker_outage warm = {0};
  outage_reconnect_failed(&warm, 99 * S, "down");
  outage_reconnected(&warm, 99 * S + 500 * MS);
  s = summary_of(&warm, 1, 100 * S, 110 * S);
  ok(!outage_summary_any(&s), "an outage that ended in the warm-up is not reported");
  worker_outage across = {0};
  outage_reconnect_failed(&across, 99 * S, "down");
  s = summary_of(&across, 1, 100 * S, 110 * S);
  ok_num(s.ongoing_from, ==, 0, "one that began in the warm-up counts from the start");
}

int main(void)
{
  test_no_outage();
  test_until_the_end();
  test_ended();
  return tap_done();
}
