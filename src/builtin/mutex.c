/*
 * mutex.c: the `mutex` test. Each thread runs exactly one event: --mutex-locks times it spins
 * --mutex-loops empty iterations, then locks a random mutex of a --mutex-num array and bumps
 * a shared counter under it, as sysbench 1.0.20 does. The event's latency is the figure of
 * merit: how long the thread took to get through its locks while the others competed.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <ck_pr.h>

#include "builtin_util.h"
#include "logger.h"
#include "options.h"
#include "rand.h"
#include "runner.h"
#include "test.h"

static const option_decl mutex_args[] = {
  {.name = "mutex-num", .desc = "total size of mutex array", .default_text = "4096",
   .type = SB_ARG_TYPE_INT, .ranged = true, .min = 1, .max = UINT32_MAX},
  {.name = "mutex-locks", .desc = "number of mutex locks to do per thread",
   .default_text = "50000", .type = SB_ARG_TYPE_INT, .ranged = true, .min = 1,
   .max = UINT32_MAX},
  {.name = "mutex-loops", .desc = "number of empty loops to do outside mutex lock",
   .default_text = "10000", .type = SB_ARG_TYPE_INT, .ranged = true, .min = 0,
   .max = UINT32_MAX},
  {.name = NULL}
};

static unsigned mutex_count;
static unsigned locks_per_thread;
static unsigned loops_per_lock;
static padded_mutex *mutexes;

/* Written under whichever mutex a thread holds, so the line it lives on bounces between
   CPUs as in 1.0.20. Relaxed atomics keep that traffic without a data race. */
static unsigned shared_counter __attribute__((aligned(128)));

static int mutex_init(void)
{
  mutex_count = (unsigned) opt_int("mutex-num");     /* ranges: the declarations */
  locks_per_thread = (unsigned) opt_int("mutex-locks");
  loops_per_lock = (unsigned) opt_int("mutex-loops");

  mutexes = padded_mutexes_new(mutex_count, "mutex-num");
  return mutexes == NULL;
}

static void mutex_print_mode(void)
{
  log_text(LOG_INFO, "Doing mutex performance test");
}

static void lock_many(rand_state *rand)
{
  /* Locals: the barrier in the empty loop would otherwise reload the globals each turn. */
  const unsigned locks = locks_per_thread, loops = loops_per_lock, last = mutex_count - 1;

  for (unsigned n = 0; n < locks; n++) {
    pthread_mutex_t *mutex = &mutexes[rand_uniform32(rand, 0, last)].mutex;

    for (unsigned i = 0; i < loops; i++)
      ck_pr_barrier();
    pthread_mutex_lock(mutex);
    __atomic_store_n(&shared_counter, __atomic_load_n(&shared_counter, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
    pthread_mutex_unlock(mutex);
  }
}

/* One event per thread (unless --events or the time limit says none). */
static int mutex_thread_run(worker *w)
{
  if (!sb_worker_more_events(w))
    return 0;
  sb_worker_event_start(w);
  lock_many(&w->rand);
  sb_worker_event_stop(w);
  return 0;
}

static int mutex_done(void)
{
  padded_mutexes_free(mutexes, mutex_count);
  mutexes = NULL;
  return 0;
}

sb_test mutex_test = {
  .name = "mutex",
  .description = "Mutex performance test",
  .options = mutex_args,
  .ops = {
    .init = mutex_init,
    .print_mode = mutex_print_mode,
    .thread_run = mutex_thread_run,
    .done = mutex_done,
  },
};
