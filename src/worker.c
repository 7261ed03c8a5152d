/*
 * worker.c: setting up and tearing down a worker (see worker.h).
 */
#include <assert.h>
#include <string.h>

#include "worker.h"

int worker_init(worker *w, unsigned id, const uint32_t *reset_epoch)
{
  memset(w, 0, sizeof(*w));
  w->id = id;
  return worker_stats_init(&w->stats, reset_epoch);
}

worker *worker_by_id(worker *workers, unsigned count, int id, worker *fallback)
{
  if (workers == NULL || id < 0 || (unsigned) id >= count)
    return fallback;
  assert(workers[id].id == (unsigned) id);
  return &workers[id];
}

void worker_free(worker *w)
{
  worker_stats_free(&w->stats);
}
