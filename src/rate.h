/*
 * rate.h: the --rate event schedule. One generator thread draws Poisson arrivals (exponential
 * gaps with mean 1/rate) on an absolute timeline and queues each arrival's scheduled time;
 * workers take the next one when they are free. A worker measures its event from the
 * scheduled time, so time spent queued behind a slow server counts as latency.
 */
#ifndef SB_RATE_H
#define SB_RATE_H

#include <stdbool.h>
#include <stdint.h>

/* The queue holds at most this many waiting events, as in sysbench 1.0. */
#define RATE_QUEUE_CAPACITY 131072

/* Start generating `events_per_second` arrivals from `start_ns` on. Background thread id
   `background_tid` seeds its random numbers. Returns 0 or an errno value. */
int rate_start(double events_per_second, uint64_t start_ns, unsigned background_tid);

/* Block until an event is due; false once the schedule stopped. */
bool rate_next_event(uint64_t *scheduled_ns);

/* Stop the generator and release every waiting worker. */
void rate_stop(void);

/* Events generated but not yet taken by a worker. */
uint64_t rate_queue_length(void);

#endif
