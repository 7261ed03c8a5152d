/*
 * rate.c: Poisson event schedule for --rate, handed to workers through a ConcurrencyKit
 * single-producer/multi-consumer ring. A counting semaphore tracks queued events so idle
 * workers sleep instead of polling, and a post is a system call only when someone waits.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>

#include <ck_ring.h>

#include "clock.h"
#include "logger.h"
#include "rand.h"
#include "rate.h"
#include "runner.h"

/* Gaps shorter than this are not slept: the generator catches up in a burst instead,
   since a sleep that short costs more than the gap. */
#define RATE_MIN_SLEEP_NS 50000

static ck_ring_t ring;
static ck_ring_buffer_t ring_buffer[RATE_QUEUE_CAPACITY];
static sem_t queued;
static sem_t stop_signal;          /* posted by rate_stop to cut the generator's sleep short */
static pthread_t generator;
static bool generator_started;
static int stopping;
static int overflowed;

static double mean_gap_ns;
static uint64_t schedule_start_ns;
static unsigned generator_tid;

static void *generator_main(void *arg)
{
  uint64_t next_ns = schedule_start_ns;
  (void) arg;

  rand_state rand;              /* the generator's own stream, seeded as the main thread's */
  rand_state_seed(&rand, generator_tid);

  while (!__atomic_load_n(&stopping, __ATOMIC_ACQUIRE)) {
    next_ns += (uint64_t) (-log(1.0 - rand_double(&rand)) * mean_gap_ns);

    uint64_t now = clock_now_ns();
    if (next_ns > now + RATE_MIN_SLEEP_NS) {
      struct timespec due = units_timespec(next_ns);
      while (sem_clockwait(&stop_signal, CLOCK_MONOTONIC, &due) != 0 && errno == EINTR)
        ;
    }
    if (__atomic_load_n(&stopping, __ATOMIC_ACQUIRE))
      break;

    if (!ck_ring_enqueue_spmc(&ring, ring_buffer, (void *) (uintptr_t) next_ns)) {
      __atomic_store_n(&overflowed, 1, __ATOMIC_RELEASE);
      log_text(LOG_FATAL, "The event queue is full. This means the worker threads are unable "
               "to keep up with the specified event generation rate");
      runner_fail();
      break;
    }
    sem_post(&queued);
  }
  return NULL;
}

int rate_start(double events_per_second, uint64_t start_ns, unsigned background_tid)
{
  mean_gap_ns = 1e9 / events_per_second;
  schedule_start_ns = start_ns;
  generator_tid = background_tid;
  stopping = 0;
  overflowed = 0;
  ck_ring_init(&ring, RATE_QUEUE_CAPACITY);
  if (sem_init(&queued, 0, 0) != 0 || sem_init(&stop_signal, 0, 0) != 0)
    return errno;
  int rc = pthread_create(&generator, NULL, generator_main, NULL);
  generator_started = rc == 0;
  return rc;
}

bool rate_next_event(uint64_t *scheduled_ns)
{
  void *entry;

  while (sem_wait(&queued) != 0)
    if (errno != EINTR)
      return false;
  if (__atomic_load_n(&stopping, __ATOMIC_ACQUIRE)) {
    sem_post(&queued);        /* pass the wake-up on to the next waiting worker */
    return false;
  }
  if (!ck_ring_dequeue_spmc(&ring, ring_buffer, &entry))
    return false;
  *scheduled_ns = (uint64_t) (uintptr_t) entry;
  return true;
}

void rate_stop(void)
{
  if (!generator_started)
    return;
  __atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
  sem_post(&stop_signal);
  sem_post(&queued);
  pthread_join(generator, NULL);
  generator_started = false;
}

uint64_t rate_queue_length(void)
{
  return ck_ring_size(&ring);
}

bool rate_overflowed(void)
{
  return __atomic_load_n(&overflowed, __ATOMIC_ACQUIRE);
}
