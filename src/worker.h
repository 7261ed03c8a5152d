/*
 * worker.h: a worker, one stream of events and everything it owns: its id, its statistics
 * (counters, latency histogram), its random numbers and the Lua state its script runs in (and,
 * through that script, its database connections: each one counts for its worker alone).
 *
 * A worker is passed explicitly to whatever acts for it: the test's hooks, the per-event API,
 * the Lua state bound to it. Nothing finds a worker through the OS thread it runs on (no
 * thread-local, no pthread_self() lookup), so that several workers may one day share a thread.
 * The one exception is the compatibility layer for sysbench 1.0.20's FFI names that carry no
 * worker (sb_rand_uniform(a, b) ...): it reads a single "current worker of this thread" pointer.
 *
 * Besides a run's workers (ids 0..threads-1) there are workers for the other contexts that run
 * scripts or draw numbers -- the main thread, the reporter, a parallel command's threads --
 * whose counters no report reads.
 */
#ifndef SB_WORKER_H
#define SB_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include "rand.h"
#include "stats.h"

struct run;

typedef struct worker {
  worker_stats stats;          /* first: written on every event, on cache lines of its own */
  rand_state rand;             /* its random numbers (seeded from --rand-seed and its id) */
  struct run *run;             /* the run it runs events of; NULL outside one */
  unsigned id;                 /* sysbench.tid: 0..threads-1 in a run */
  /* Several threads count into it (the slot for ids that name no worker): its counters are
     updated with atomic adds. */
  bool shared;
  void *script;                /* the Lua state running its script (lua_env.c's) */
  bool script_failed;          /* its script's thread_run failed: no thread_done */
  /* A driver's state is in the connections the worker's script makes (db_conn: its
     worker, its last connect error, the driver's own per-connection state): each
     connection counts for one worker and is used by that worker alone. */
} __attribute__((aligned(128))) worker;

/* Set up `w` as worker `id` whose stats are listed under `reset_epoch`'s table (NULL: no
   table), its random numbers seeded for `id` (call after rand_configure()). 0, or -1 out of
   memory. */
int worker_init(worker *w, unsigned id, const uint32_t *reset_epoch);
void worker_free(worker *w);

/* The worker's stream, for Lua's sysbench.rand (FFI); NULL for no worker. */
rand_state *sb_worker_rand(worker *w);

/* Make `w` the worker of the calling thread for the compatibility layer only: 1.0.20's
   id-less FFI names (sb_rand_uniform(a, b), db_connection_create(drv)) act for it. NULL
   unbinds. */
void worker_bind_thread(worker *w);
/* The worker bound to the calling thread, or NULL (for those compatibility names only). */
worker *worker_of_thread(void);

/* Worker `id` of `count` workers, or `fallback` when the id names none of them (scripts pass
   any number they like to 1.0.20's id-based calls). */
worker *worker_by_id(worker *workers, unsigned count, int id, worker *fallback);

/* Count `amount` of `type` for the worker's running event (its owner calls this). */
static inline void worker_counter_add(worker *w, sb_counter_type type, uint64_t amount)
{
  if (__builtin_expect(w->shared, 0))
    stats_count_shared(&w->stats, type, amount);
  else
    stats_count(&w->stats, type, amount);
}

/* One ignored error of `code` (stats_error_code_pack()). */
static inline void worker_error_add(worker *w, uint64_t code)
{
  worker_counter_add(w, SB_CNT_ERROR, 1);
  if (!w->shared)              /* the code table has one writer; the shared slot has none */
    stats_record_error_code(&w->stats, code);
}

#endif
