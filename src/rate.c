/*
 * rate.c: Poisson event schedule for --rate, handed to workers through a ConcurrencyKit
 * single-producer/multi-consumer ring. A counting semaphore tracks queued events so idle
 * workers sleep instead of polling, and a post is a system call only when someone waits.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdlib.h>

#include <ck_ring.h>

#include "clock.h"
#include "logger.h"
#include "rand.h"
#include "rate.h"
#include "thread_spawn.h"

/* Gaps shorter than this are not slept: the generator catches up in a burst instead,
   since a sleep that short costs more than the gap. */
#define RATE_MIN_SLEEP_NS 50000

struct rate_schedule {
  ck_ring_t ring;
  ck_ring_buffer_t ring_buffer[RATE_QUEUE_CAPACITY];
  sem_t queued;
  sem_t stop_signal;               /* posted by rate_stop to cut the generator's sleep short */
  pthread_t generator;
  bool generator_started;
  int stopping;
  double mean_gap_ns;
  uint64_t start_ns;
  rand_state rand;                 /* the generator's own stream */
  void (*on_overflow)(void *arg);
  void *overflow_arg;
};

uint64_t rate_next_arrival(uint64_t previous_ns, double mean_gap_ns, double u)
{
  return previous_ns + (uint64_t) (-log(1.0 - u) * mean_gap_ns);
}

bool rate_sleeps_until(uint64_t next_ns, uint64_t now_ns)
{
  return next_ns > now_ns + RATE_MIN_SLEEP_NS;
}

static void *generator_main(void *arg)
{
  rate_schedule *r = arg;
  uint64_t next_ns = r->start_ns;

  while (!__atomic_load_n(&r->stopping, __ATOMIC_ACQUIRE)) {
    next_ns = rate_next_arrival(next_ns, r->mean_gap_ns, rand_double(&r->rand));

    if (rate_sleeps_until(next_ns, clock_now_ns())) {
      struct timespec due = units_timespec(next_ns);
      while (sem_clockwait(&r->stop_signal, CLOCK_MONOTONIC, &due) != 0 && errno == EINTR)
        ;
    }
    if (__atomic_load_n(&r->stopping, __ATOMIC_ACQUIRE))
      break;

    if (!ck_ring_enqueue_spmc(&r->ring, r->ring_buffer, (void *) (uintptr_t) next_ns)) {
      log_text(LOG_FATAL, "The event queue is full. This means the worker threads are unable "
               "to keep up with the specified event generation rate");
      r->on_overflow(r->overflow_arg);
      break;
    }
    sem_post(&r->queued);
  }
  return NULL;
}

rate_schedule *rate_start(double events_per_second, uint64_t start_ns, unsigned stream_id,
                          void (*on_overflow)(void *arg), void *arg, int *err)
{
  assert(events_per_second > 0 && on_overflow != NULL);
  rate_schedule *r = calloc(1, sizeof(*r));
  if (r == NULL) {
    *err = ENOMEM;
    return NULL;
  }
  r->mean_gap_ns = 1e9 / events_per_second;
  r->start_ns = start_ns;
  r->on_overflow = on_overflow;
  r->overflow_arg = arg;
  rand_state_seed(&r->rand, stream_id);
  ck_ring_init(&r->ring, RATE_QUEUE_CAPACITY);
  if (sem_init(&r->queued, 0, 0) != 0 || sem_init(&r->stop_signal, 0, 0) != 0) {
    *err = errno;
    free(r);
    return NULL;
  }
  unsigned started;
  *err = threads_spawn(&r->generator, 1, 0, generator_main, r, 0, &started);
  r->generator_started = started == 1;
  if (!r->generator_started) {
    free(r);
    return NULL;
  }
  return r;
}

bool rate_next_event(rate_schedule *r, uint64_t *scheduled_ns)
{
  void *entry;

  while (sem_wait(&r->queued) != 0)
    if (errno != EINTR)
      return false;
  if (__atomic_load_n(&r->stopping, __ATOMIC_ACQUIRE)) {
    sem_post(&r->queued);        /* pass the wake-up on to the next waiting worker */
    return false;
  }
  if (!ck_ring_dequeue_spmc(&r->ring, r->ring_buffer, &entry))
    return false;
  *scheduled_ns = (uint64_t) (uintptr_t) entry;
  return true;
}

void rate_stop(rate_schedule *r)
{
  /* Workers blocked in rate_next_event() may still wake after the generator is joined: the
     flag and the post stay, so each one passes the wake-up on and returns false. */
  __atomic_store_n(&r->stopping, 1, __ATOMIC_RELEASE);
  if (!r->generator_started)
    return;
  sem_post(&r->stop_signal);
  sem_post(&r->queued);
  pthread_join(r->generator, NULL);
  r->generator_started = false;
}

void rate_free(rate_schedule *r)
{
  if (r == NULL)
    return;
  rate_stop(r);
  sem_destroy(&r->queued);
  sem_destroy(&r->stop_signal);
  free(r);
}

uint64_t rate_queue_length(const rate_schedule *r)
{
  return ck_ring_size(&r->ring);
}
