/*
 * run_timeline.c: the timing rules of a run as functions of explicit times (run_timeline.h).
 */
#include <assert.h>

#include "run_timeline.h"
#include "units.h"

/* The --events budget is claimed in batches of at most this many events. */
#define EVENTS_BATCH_MAX 256
/* ... of about this share of what is left per worker, so near the end batches shrink to 1. */
#define EVENTS_BATCH_DIVISOR 16

uint64_t timeline_deadline(uint64_t measure_start_ns, double max_time_s)
{
  if (!(max_time_s > 0))
    return 0;
  return measure_start_ns + units_seconds_to_ns(max_time_s);
}

bool timeline_time_is_up(uint64_t deadline_ns, uint64_t now_ns)
{
  return deadline_ns != 0 && now_ns >= deadline_ns;
}

unsigned timeline_running_at(const uint64_t *left_ns, unsigned workers, uint64_t tick_ns)
{
  unsigned running = 0;
  for (unsigned i = 0; i < workers; i++) {
    uint64_t left = __atomic_load_n(&left_ns[i], __ATOMIC_ACQUIRE);
    running += left == 0 || left >= tick_ns;
  }
  return running;
}

uint64_t timeline_end(const uint64_t *left_ns, unsigned workers, uint64_t now_ns)
{
  uint64_t last = 0;
  for (unsigned i = 0; i < workers; i++) {
    uint64_t left = __atomic_load_n(&left_ns[i], __ATOMIC_ACQUIRE);
    if (left == 0)
      return now_ns;
    if (left > last)
      last = left;
  }
  return workers > 0 ? last : now_ns;
}

uint64_t timeline_events_batch(uint64_t left, unsigned workers)
{
  assert(workers > 0);
  if (left == 0)
    return 0;
  uint64_t take = left / ((uint64_t) workers * EVENTS_BATCH_DIVISOR);
  if (take < 1)
    take = 1;
  if (take > EVENTS_BATCH_MAX)
    take = EVENTS_BATCH_MAX;
  assert(take <= left);
  return take;
}

/* ---- the main thread's timeline ---------------------------------------------------------- */

void timeline_begin(run_timeline *t, uint64_t released_ns, double warmup_s, double max_time_s,
                    bool forced_shutdown, double forced_after_s)
{
  *t = (run_timeline) {
    .max_time_s = max_time_s,
    .forced_shutdown = forced_shutdown,
    .forced_after_ns = units_seconds_to_ns(forced_after_s),
    .warming = warmup_s > 0,
    .warmup_end_ns = warmup_s > 0 ? released_ns + units_seconds_to_ns(warmup_s) : 0,
  };
}

void timeline_measurement_started(run_timeline *t, uint64_t start_ns)
{
  t->warming = false;
  t->measuring = true;
  t->measure_start_ns = start_ns;
  t->deadline_ns = timeline_deadline(start_ns, t->max_time_s);
  t->forced_at_ns = t->forced_shutdown && t->deadline_ns != 0
                    ? t->deadline_ns + t->forced_after_ns : 0;
}

timeline_action timeline_next_action(const run_timeline *t, uint64_t now_ns, bool broken)
{
  if (t->warming && now_ns >= t->warmup_end_ns)
    return TIMELINE_END_WARMUP;
  if (!t->stopped && broken)
    return TIMELINE_STOP_NOW;
  if (!t->stopped && timeline_time_is_up(t->deadline_ns, now_ns))
    return TIMELINE_STOP_TIME_LIMIT;
  if (t->forced_at_ns != 0 && now_ns >= t->forced_at_ns)
    return TIMELINE_FORCED_SHUTDOWN;
  return TIMELINE_WAIT;
}

void timeline_stopped(run_timeline *t)
{
  t->stopped = true;
}

uint64_t timeline_wake_at(const run_timeline *t)
{
  if (t->warming)
    return t->warmup_end_ns;
  if (!t->stopped && t->deadline_ns != 0)
    return t->deadline_ns;
  return t->forced_at_ns;
}

/* ---- the reporter's schedule ------------------------------------------------------------- */

void report_schedule_init(report_schedule *s, uint64_t start_ns, double interval_s,
                          const double *checkpoints, size_t checkpoint_count)
{
  uint64_t interval_ns = units_seconds_to_ns(interval_s);
  *s = (report_schedule) {
    .start_ns = start_ns,
    .interval_ns = interval_ns,
    .next_tick_ns = interval_ns != 0 ? start_ns + interval_ns : 0,
    .checkpoints = checkpoints,
    .checkpoint_count = checkpoint_count,
  };
}

static uint64_t next_checkpoint(const report_schedule *s)
{
  if (s->next_checkpoint >= s->checkpoint_count)
    return 0;
  return s->start_ns + units_seconds_to_ns(s->checkpoints[s->next_checkpoint]);
}

uint64_t report_schedule_next(const report_schedule *s)
{
  uint64_t due = s->next_tick_ns, checkpoint = next_checkpoint(s);
  if (checkpoint != 0 && (due == 0 || checkpoint < due))
    due = checkpoint;
  return due;
}

report_due report_schedule_wake(report_schedule *s, uint64_t now_ns, bool stopping,
                                uint64_t stopped_at_ns)
{
  report_due due = {0};
  uint64_t checkpoint = next_checkpoint(s);

  if (stopping) {
    if (s->next_tick_ns != 0 && now_ns >= s->next_tick_ns && s->next_tick_ns <= stopped_at_ns)
      due.tick_ns = s->next_tick_ns;
    due.finished = true;
    return due;
  }
  if (s->next_tick_ns != 0 && now_ns >= s->next_tick_ns) {
    due.tick_ns = s->next_tick_ns;
    while (s->next_tick_ns <= now_ns)
      s->next_tick_ns += s->interval_ns;
  }
  if (checkpoint != 0 && now_ns >= checkpoint) {
    due.checkpoint_ns = checkpoint;
    s->next_checkpoint++;
  }
  due.finished = report_schedule_next(s) == 0;
  return due;
}
