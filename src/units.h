/*
 * units.h: conversions between the units the core mixes: seconds (as options give them),
 * nanoseconds (as the clock counts), struct timespec (as the waits take them) and bytes.
 * Written once here so that every deadline is rounded the same way.
 */
#ifndef SB_UNITS_H
#define SB_UNITS_H

#include <stdint.h>
#include <time.h>

#define NS_PER_SEC 1000000000ULL
#define NS_PER_MS  1000000ULL
#define BYTES_PER_MIB (1024.0 * 1024.0)

/* Seconds to nanoseconds, to the nearest one; 0 for zero, negative or NaN durations. The
   options keep durations far below the 584 years where this would overflow. */
static inline uint64_t units_seconds_to_ns(double seconds)
{
  if (!(seconds > 0))
    return 0;
  return (uint64_t) (seconds * 1e9 + 0.5);
}

static inline double units_ns_to_seconds(uint64_t ns)
{
  return (double) ns / 1e9;
}

/* A clock reading in nanoseconds as the timespec the timed waits take. */
static inline struct timespec units_timespec(uint64_t ns)
{
  struct timespec ts = { .tv_sec = (time_t) (ns / NS_PER_SEC),
                         .tv_nsec = (long) (ns % NS_PER_SEC) };
  return ts;
}

static inline uint64_t units_timespec_ns(const struct timespec *ts)
{
  return (uint64_t) ts->tv_sec * NS_PER_SEC + (uint64_t) ts->tv_nsec;
}

static inline double units_mebibytes(double bytes)
{
  return bytes / BYTES_PER_MIB;
}

#endif
