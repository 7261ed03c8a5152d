/*
 * clock.h: the monotonic nanosecond clock every measurement uses.
 */
#ifndef SB_CLOCK_H
#define SB_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NS_PER_SEC 1000000000ULL
#define NS_PER_MS  1000000ULL

static inline uint64_t clock_now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * NS_PER_SEC + (uint64_t) ts.tv_nsec;
}

/* Sleep until the monotonic clock reaches `deadline_ns` (returns early only on a signal). */
static inline int clock_sleep_until(uint64_t deadline_ns)
{
  struct timespec ts = { .tv_sec = (time_t) (deadline_ns / NS_PER_SEC),
                         .tv_nsec = (long) (deadline_ns % NS_PER_SEC) };
  return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

#endif
