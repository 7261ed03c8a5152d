/*
 * clock.h: the clocks the core reads: the monotonic nanosecond clock every measurement uses,
 * and the wall clock for the times a result file records and --start-at waits for.
 */
#ifndef SB_CLOCK_H
#define SB_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "units.h"

static inline uint64_t clock_now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return units_timespec_ns(&ts);
}

/* Nanoseconds since the Unix epoch. */
static inline uint64_t clock_wall_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return units_timespec_ns(&ts);
}

/* The wall clock `ns` from now, for waits on a condition variable of the default clock. */
static inline struct timespec clock_wall_after(uint64_t ns)
{
  return units_timespec(clock_wall_ns() + ns);
}

#endif
