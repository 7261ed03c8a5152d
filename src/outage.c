/*
 * outage.c: a worker's record of its connection outages, and the run's summary of them (see
 * outage.h for who writes and reads what).
 */
#include <stdio.h>
#include <string.h>

#include "outage.h"

void outage_reconnect_failed(worker_outage *o, uint64_t lost_ns, const char *why)
{
  if (__atomic_load_n(&o->since_ns, __ATOMIC_RELAXED) == 0) {
    o->failed_now = 0;
    __atomic_store_n(&o->since_ns, lost_ns != 0 ? lost_ns : 1, __ATOMIC_RELAXED);
  }
  o->failed_now++;
  snprintf(o->last_error, sizeof(o->last_error), "%s", why != NULL ? why : "");
}

void outage_reconnected(worker_outage *o, uint64_t now_ns)
{
  uint64_t since = __atomic_load_n(&o->since_ns, __ATOMIC_RELAXED);

  if (since == 0)
    return;
  if (o->ended == 0)
    o->ended_first_ns = since;
  o->ended++;
  o->ended_last_ns = now_ns;
  o->failed_ended += o->failed_now;
  o->failed_now = 0;
  __atomic_store_n(&o->since_ns, 0, __ATOMIC_RELAXED);
}

void outage_summary_begin(outage_summary *s, uint64_t start_ns, uint64_t end_ns)
{
  memset(s, 0, sizeof(*s));
  s->start_ns = start_ns;
  s->end_ns = end_ns;
}

static uint64_t earliest(uint64_t current, uint64_t candidate)
{
  return current == 0 || candidate < current ? candidate : current;
}

void outage_summary_add(outage_summary *s, const worker_outage *o)
{
  uint64_t since = __atomic_load_n(&o->since_ns, __ATOMIC_RELAXED);

  if (o->last_event_start_ns > s->last_event_start_ns)
    s->last_event_start_ns = o->last_event_start_ns;
  if (since != 0) {
    if (s->ongoing_threads == 0)     /* a reason of a thread still reconnecting comes first */
      s->last_error[0] = '\0';
    s->ongoing_threads++;
    s->ongoing_failed += o->failed_now;
    s->ongoing_since_ns = earliest(s->ongoing_since_ns, since);
    snprintf(s->last_error, sizeof(s->last_error), "%s", o->last_error);
  }
  /* outages that ended before the measurement began (in the warm-up) are not its */
  if (o->ended > 0 && o->ended_last_ns > s->start_ns) {
    s->ended_threads++;
    s->ended_several |= o->ended > 1;
    s->ended_first_ns = earliest(s->ended_first_ns, o->ended_first_ns);
    if (o->ended_last_ns > s->ended_last_ns)
      s->ended_last_ns = o->ended_last_ns;
    s->ended_failed += o->failed_ended;
    if (s->ongoing_threads == 0 && since == 0)
      snprintf(s->last_error, sizeof(s->last_error), "%s", o->last_error);
  }
}

static double seconds_after(uint64_t start_ns, uint64_t ns)
{
  return ns > start_ns ? (double) (ns - start_ns) / 1e9 : 0;
}

void outage_summary_finish(outage_summary *s)
{
  s->end = seconds_after(s->start_ns, s->end_ns);
  s->ongoing_from = seconds_after(s->start_ns, s->ongoing_since_ns);
  if (s->ongoing_threads > 0 && s->end < s->ongoing_from)   /* lost after the last event */
    s->end = s->ongoing_from;
  s->ended_from = seconds_after(s->start_ns, s->ended_first_ns);
  s->ended_to = seconds_after(s->start_ns, s->ended_last_ns);
  s->events_after = s->ongoing_threads > 0 && s->last_event_start_ns > s->ongoing_since_ns;
  s->run_failed = s->ongoing_threads > 0 && !s->events_after;
}

bool outage_summary_any(const outage_summary *s)
{
  return s->ongoing_threads > 0 || s->ended_threads > 0;
}
