/*
 * fileio_requests.c: which request a worker does next, by sysbench 1.0.20's rules.
 *
 *  - Sequential modes walk the files in order, test_file.0 from offset 0 to the end, then the
 *    next file, wrapping around after the last; one position shared by all threads, each
 *    request --file-block-size x --file-merged-requests bytes (less at a file's end).
 *  - Random modes pick a block uniformly over all files; rndrw reads while the worker's
 *    reads/writes stay below --file-rw-ratio, else writes, counting them as 1.0.20 does
 *    (in async mode only those reaped from a full backlog, see fileio_aio_queue.h).
 *  - Every --file-fsync-freq reads and writes, if anything was written since the last round,
 *    the next --file-num requests are an fsync of each file in turn (an event each).
 *
 * So with one thread the sequence of operations, and the counts of each, are 1.0.20's for the
 * same options. The shared state (position, fsync cadence) is behind a mutex only when more
 * than one thread uses it; one thread, or a random mode without periodic fsync, runs without
 * any lock.
 *
 * Under --validate a block is never in flight for two requests at once (1.0.20 keeps two
 * threads off one block; here also one thread's own asynchronous requests): a set of the
 * blocks in flight, keyed by offset, makes a random request pick another block and a
 * sequential one wait until the block is free.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "fileio.h"
#include "logger.h"
#include "rand.h"
#include "runner.h"

static const fileio_settings *settings;
static bool use_lock;
static bool track_fsync;      /* periodic fsync rounds are possible: count and mark dirty */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Shared generator state, behind `lock` when use_lock. */
static struct {
  uint64_t position;          /* sequential: offset in current_file */
  unsigned current_file;
  unsigned fsynced_file;      /* the next file of the fsync round */
  bool dirty;                 /* written since the last fsync round */
  uint64_t performed;         /* reads and writes handed out */
} state;

/* --validate: offsets (file * file_size + pos, plus 1; 0 = empty) of the requests in flight,
   an open-addressing table with linear probing. */
static uint64_t *in_flight;
static size_t in_flight_mask;

static inline void enter(void)
{
  if (use_lock)
    pthread_mutex_lock(&lock);
}

static inline void leave(void)
{
  if (use_lock)
    pthread_mutex_unlock(&lock);
}

int fileio_requests_init(const fileio_settings *s)
{
  settings = s;
  state.position = 0;
  state.current_file = 0;
  state.fsynced_file = 0;
  state.dirty = false;
  state.performed = 0;

  bool shared = fileio_mode_sequential(s->mode) || s->validate ||
                (fileio_mode_writes(s->mode) && s->fsync_freq > 0);
  use_lock = s->threads > 1 && shared;
  track_fsync = fileio_mode_writes(s->mode) && s->fsync_freq > 0;

  if (s->validate) {
    uint64_t most = (uint64_t) s->threads * (s->io_mode == FILEIO_IO_ASYNC ? s->async_backlog : 1);
    size_t capacity = 16;
    while (capacity < 2 * most)
      capacity *= 2;
    in_flight = calloc(capacity, sizeof(*in_flight));
    if (in_flight == NULL) {
      log_text(LOG_FATAL, "Memory allocation failure.");
      return -1;
    }
    in_flight_mask = capacity - 1;
  }
  return 0;
}

void fileio_requests_free(void)
{
  free(in_flight);
  in_flight = NULL;
}

static inline uint64_t key_of(const fileio_request *r)
{
  return (uint64_t) r->file * settings->file_size + r->pos + 1;
}

static inline size_t slot_of(uint64_t key)
{
  return (size_t) ((key * 0x9E3779B97F4A7C15ull) >> 20) & in_flight_mask;
}

static bool busy(uint64_t key)
{
  for (size_t i = slot_of(key); in_flight[i] != 0; i = (i + 1) & in_flight_mask)
    if (in_flight[i] == key)
      return true;
  return false;
}

static void claim(uint64_t key)
{
  size_t i = slot_of(key);
  while (in_flight[i] != 0)
    i = (i + 1) & in_flight_mask;
  in_flight[i] = key;
}

/* Remove `key`, shifting later entries of its probe run back so no lookup stops early. */
static void release(uint64_t key)
{
  size_t i = slot_of(key);

  while (in_flight[i] != key) {
    if (in_flight[i] == 0)
      return;
    i = (i + 1) & in_flight_mask;
  }
  for (size_t j = (i + 1) & in_flight_mask; in_flight[j] != 0; j = (j + 1) & in_flight_mask) {
    size_t home = slot_of(in_flight[j]);
    /* The entry at j may move to i if its home is not in (i, j] (cyclically). */
    bool stays = (i <= j) ? (home > i && home <= j) : (home > i || home <= j);
    if (!stays) {
      in_flight[i] = in_flight[j];
      i = j;
    }
  }
  in_flight[i] = 0;
}

void fileio_request_finished(const fileio_request *r)
{
  if (in_flight == NULL || r->op == FILEIO_OP_FSYNC)
    return;
  enter();
  release(key_of(r));
  leave();
}

/* The fsync round, if one is due. Caller holds the state. */
static bool fsync_due(fileio_request *r)
{
  if (!track_fsync || !state.dirty || state.performed % settings->fsync_freq != 0)
    return false;
  r->op = FILEIO_OP_FSYNC;
  r->file = state.fsynced_file;
  r->pos = 0;
  r->size = 0;
  if (++state.fsynced_file == settings->file_num) {
    state.fsynced_file = 0;
    state.dirty = false;
  }
  return true;
}

static void sequential_candidate(fileio_request *r)
{
  uint64_t position = state.position;
  unsigned file = state.current_file;

  if (file == settings->file_num) {
    file = 0;
    position = 0;
  }
  r->file = file;
  r->pos = position;
  r->size = settings->file_size - position < settings->request_size
            ? settings->file_size - position : settings->request_size;
}

static void sequential_advance(const fileio_request *r)
{
  state.current_file = r->file;
  state.position = r->pos + r->size;
  if (state.position == settings->file_size) {
    state.current_file++;
    state.position = 0;
  }
}

/* A uniform point over all files, moved back to the start of its block. 1.0.20 aligns the
   point over the whole --file-total-size instead, which is the same whenever the file size is
   a multiple of the block size, and otherwise lands off the block grid that prepare (and
   --validate) use, or past the last file. */
static void random_candidate(rand_state *rand, fileio_request *r)
{
  uint64_t usable = settings->file_size * settings->file_num;
  uint64_t offset = (uint64_t) (rand_double(rand) * (double) usable);

  if (offset >= usable)
    offset = usable - 1;
  r->file = (unsigned) (offset / settings->file_size);
  r->pos = offset % settings->file_size;
  r->pos -= r->pos % settings->block_size;
  r->size = settings->file_size - r->pos < settings->block_size
            ? settings->file_size - r->pos : settings->block_size;
}

/* The request's block is in flight elsewhere: let it finish. A worker's own asynchronous
   requests may be the ones holding it, so it first waits for all of them. */
static int wait_for_block(fileio_worker *w)
{
  /* A worker that failed never releases its blocks: stop waiting for them. */
  if (runner_failed())
    return -1;
  if (w->aio != NULL)
    return fileio_aio_drain(w);
  sched_yield();
  return 0;
}

int fileio_request_next(fileio_worker *w, fileio_request *r)
{
  fileio_test_mode mode = settings->mode;
  bool sequential = fileio_mode_sequential(mode);
  fileio_op op;

  if (sequential)
    op = mode == FILEIO_SEQRD ? FILEIO_OP_READ : FILEIO_OP_WRITE;
  else if (mode == FILEIO_RNDRW)
    op = ((double) w->reads_counted + 1.0) / ((double) w->writes_counted + 1.0) < settings->rw_ratio
         ? FILEIO_OP_READ : FILEIO_OP_WRITE;
  else
    op = mode == FILEIO_RNDWR ? FILEIO_OP_WRITE : FILEIO_OP_READ;

  for (;;) {
    enter();
    /* Sequential reads never fsync; a random mode fsyncs whatever the next request would be. */
    if ((!sequential || op == FILEIO_OP_WRITE) && fsync_due(r)) {
      leave();
      return 0;
    }
    r->op = op;
    unsigned tries = 0;
    bool free_block;
    do {
      if (sequential)
        sequential_candidate(r);
      else
        random_candidate(&w->worker->rand, r);
      free_block = in_flight == NULL || !busy(key_of(r));
    } while (!free_block && !sequential && ++tries < 16);

    if (!free_block) {
      leave();
      if (wait_for_block(w) != 0)
        return -1;
      continue;
    }
    if (in_flight != NULL)
      claim(key_of(r));
    if (sequential)
      sequential_advance(r);
    if (track_fsync) {
      state.performed++;
      if (op == FILEIO_OP_WRITE)
        state.dirty = true;
    }
    leave();
    break;
  }
  /* An asynchronous request is counted when its queue reaps it. */
  if (w->aio == NULL) {
    if (op == FILEIO_OP_READ)
      w->reads_counted++;
    else
      w->writes_counted++;
  }
  return 0;
}
