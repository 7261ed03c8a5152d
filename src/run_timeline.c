/*
 * run_timeline.c: the stop and duration rules of a run (see run_timeline.h).
 */
#include "run_timeline.h"
#include "units.h"

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
