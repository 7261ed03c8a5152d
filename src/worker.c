/*
 * worker.c: setting up and tearing down a worker (see worker.h).
 */
#include <assert.h>
#include <string.h>

#include "worker.h"

/* For 1.0.20's FFI names that carry no worker, and only for them. */
static __thread worker *thread_worker;

int worker_init(worker *w, unsigned id, const uint32_t *reset_epoch)
{
  memset(w, 0, sizeof(*w));
  w->id = id;
  rand_state_seed(&w->rand, id);
  return worker_stats_init(&w->stats, reset_epoch);
}

void worker_bind_thread(worker *w)
{
  thread_worker = w;
  rand_bind_thread(w != NULL ? &w->rand : NULL);
}

worker *worker_of_thread(void)
{
  return thread_worker;
}

worker *worker_by_id(worker *workers, unsigned count, int id, worker *fallback)
{
  if (workers == NULL || id < 0 || (unsigned) id >= count)
    return fallback;
  assert(workers[id].id == (unsigned) id);
  return &workers[id];
}

rand_state *sb_worker_rand(worker *w)
{
  return w != NULL ? &w->rand : NULL;
}

void worker_free(worker *w)
{
  worker_stats_free(&w->stats);
}
