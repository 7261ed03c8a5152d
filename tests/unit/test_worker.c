/*
 * test_worker.c: unit tests for src/worker.{h,c}: a worker's id and fresh counters, the
 * lookup 1.0.20's id-based calls use (an id that names no worker goes to the shared slot),
 * and counting into a worker that several threads share (atomic adds lose nothing).
 */
#include "worker.h"
#include "tap.h"

#include <pthread.h>
#include <stdlib.h>

static worker workers[4];
static worker shared = { .shared = true };

static void test_lookup(void)
{
  ok(worker_by_id(workers, 4, 0, &shared) == &workers[0], "id 0 is the first worker");
  ok(worker_by_id(workers, 4, 3, &shared) == &workers[3], "id 3 is the last of four");
  ok(worker_by_id(workers, 4, 4, &shared) == &shared, "id 4 of four names none: the shared slot");
  ok(worker_by_id(workers, 4, 12345, &shared) == &shared, "... as does a bogus id");
  ok(worker_by_id(workers, 4, -1, &shared) == &shared, "... and a negative one");
  ok(worker_by_id(NULL, 0, 0, &shared) == &shared, "no run: every id is the shared slot");
}

#define ADDS 1000000
static void *add_many(void *arg)
{
  worker *w = arg;
  for (int i = 0; i < ADDS; i++)
    worker_counter_add(w, SB_CNT_READ, 1);
  return NULL;
}

static void test_shared_counts(void)
{
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, add_many, &shared);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  ok_num(shared.stats.counters[SB_CNT_READ], ==, 2 * ADDS,
         "two threads counting into the shared slot lose no count");
  worker_error_add(&shared, 42);
  ok(shared.stats.counters[SB_CNT_ERROR] == 1 && shared.stats.error_codes[0].count == 0,
     "an error in the shared slot is counted, its code is not (the table has one writer)");
}

int main(void)
{
  for (unsigned i = 0; i < 4; i++) {
    if (worker_init(&workers[i], i, NULL) != 0) {
      printf("Bail out! out of memory\n");
      return 1;
    }
  }
  ok(workers[2].id == 2 && workers[2].stats.counters[SB_CNT_EVENT] == 0 &&
     workers[2].script == NULL,
     "a new worker has its id, no counts and no script");
  test_lookup();
  test_shared_counts();
  worker_error_add(&workers[1], 42);
  ok(workers[1].stats.error_codes[0].code == 42 && workers[1].stats.error_codes[0].count == 1,
     "a worker's own error is counted under its code");
  for (unsigned i = 0; i < 4; i++)
    worker_free(&workers[i]);
  return tap_done();
}
