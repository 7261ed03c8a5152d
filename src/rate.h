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

typedef struct rate_schedule rate_schedule;

/* Start generating `events_per_second` arrivals from `start_ns` on, drawing the gaps from the
   stream of id `stream_id`. `on_overflow(arg)` is called (from the generator thread) when the
   queue is full, after the fatal message; the generator then stops. NULL with *err set (an
   errno value) if it cannot start. */
rate_schedule *rate_start(double events_per_second, uint64_t start_ns, unsigned stream_id,
                          void (*on_overflow)(void *arg), void *arg, int *err);

/* Block until an event is due; false once the schedule stopped. */
bool rate_next_event(rate_schedule *r, uint64_t *scheduled_ns);

/* Stop the generator and release every waiting worker (it may be called more than once). */
void rate_stop(rate_schedule *r);

/* Stop it if running, and free it. */
void rate_free(rate_schedule *r);

/* Events generated but not yet taken by a worker. */
uint64_t rate_queue_length(const rate_schedule *r);

/* ---- the arithmetic of the schedule (no threads, no clock) ---------------------------------- */

/* The arrival after `previous_ns` for a uniform draw u in [0, 1): an exponential gap of mean
   `mean_gap_ns`. */
uint64_t rate_next_arrival(uint64_t previous_ns, double mean_gap_ns, double u);

/* Does the generator sleep until `next_ns`, or queue it at once? Gaps shorter than a sleep
   would cost are caught up in a burst. */
bool rate_sleeps_until(uint64_t next_ns, uint64_t now_ns);

#endif
