/*
 * threads.c: the `threads` test, a scheduler benchmark. Each event takes the next mutex of a
 * small shared array (round-robin over all events of all threads) and --thread-yields times
 * locks it, yields the CPU and unlocks it, as sysbench 1.0.20 does. The contention is the
 * point: threads queue on the same mutexes and hand the CPU to each other.
 */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#include "builtin_util.h"
#include "logger.h"
#include "options.h"
#include "test.h"

static const option_decl threads_args[] = {
  {.name = "thread-yields", .desc = "number of yields to do per request",
   .default_text = "1000", .type = SB_ARG_TYPE_INT, .ranged = true, .min = 0, .max = UINT32_MAX},
  {.name = "thread-locks", .desc = "number of locks per thread", .default_text = "8",
   .type = SB_ARG_TYPE_INT, .ranged = true, .min = 1, .max = UINT32_MAX},
  {.name = NULL}
};

static unsigned yields_per_event;
static unsigned lock_count;
static padded_mutex *locks;

/* The one shared counter that spreads events over the mutexes, in 1.0.20's order. */
static unsigned events_started __attribute__((aligned(128)));

static int threads_init(void)
{
  yields_per_event = (unsigned) opt_int("thread-yields");    /* ranges: the declarations */
  lock_count = (unsigned) opt_int("thread-locks");

  locks = padded_mutexes_new(lock_count, "thread-locks");
  if (locks == NULL)
    return 1;
  events_started = 0;
  return 0;
}

static void threads_print_mode(void)
{
  log_text(LOG_INFO, "Doing thread subsystem performance test");
  log_text(LOG_INFO, "Thread yields per test: %u Locks used: %u", yields_per_event, lock_count);
}

static int threads_event(worker *w)
{
  unsigned ticket = __atomic_fetch_add(&events_started, 1, __ATOMIC_RELAXED);
  pthread_mutex_t *mutex = &locks[ticket % lock_count].mutex;
  (void) w;

  for (unsigned i = 0; i < yields_per_event; i++) {
    pthread_mutex_lock(mutex);
    sched_yield();
    pthread_mutex_unlock(mutex);
  }
  return 0;
}

static int threads_done(void)
{
  padded_mutexes_free(locks, lock_count);
  locks = NULL;
  return 0;
}

sb_test threads_test = {
  .name = "threads",
  .description = "Threads subsystem performance test",
  .options = threads_args,
  .ops = {
    .init = threads_init,
    .print_mode = threads_print_mode,
    .event = threads_event,
    .done = threads_done,
  },
};
