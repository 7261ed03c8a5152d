/*
 * load_state.c: the shared state of one `prepare` or `verify` of the sbtest tables (see
 * load_state.h): tables, work items, the waits between threads, and Ctrl-C. The output --
 * progress lines, the size report, the interrupt summary -- is load_report.c's.
 */
#include "load_state.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "logger.h"
#include "signals.h"

/* Block sizes: a statement (or transaction) loads one block. Small tables get small blocks,
   so that they too are split over the threads; big ones at most MAX_BLOCK_ROWS, which bounds
   a statement to about 20 MB and the work lost to an interrupt. */
#define MIN_BLOCK_ROWS 1000
#define MAX_BLOCK_ROWS 100000
#define BLOCKS_PER_TABLE 128
/* Items per thread when threads outnumber tables: several per thread, so that a thread that
   is done early takes over part of the work of a slow one. */
#define ITEMS_PER_THREAD 4

static struct {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  bool started;
  load_command command;
  uint64_t rows;
  uint32_t threads, threads_done;
  uint32_t table_count;
  load_table *tables;
  load_item *items;
  uint32_t item_count, next_item;
  bool failed;
  uint64_t started_ns;
} st = {
  .lock = PTHREAD_MUTEX_INITIALIZER,
  .changed = PTHREAD_COND_INITIALIZER,
};

static volatile sig_atomic_t interrupted_by;
static void (*forced_exit_cleanup)(void);

/* The signal policy's graceful stop (signals.h): the threads stop where they are, and the
   progress reporter makes sure the command ends within a second. */
static void stop_on_signal(int sig)
{
  if (interrupted_by == 0)
    interrupted_by = sig;
}

static const signal_owner load_signal_owner = { .stop = stop_on_signal };

int64_t sb_load_block_rows(uint64_t rows)
{
  uint64_t block = (rows + BLOCKS_PER_TABLE - 1) / BLOCKS_PER_TABLE;
  if (block < MIN_BLOCK_ROWS)
    block = MIN_BLOCK_ROWS;
  if (block > MAX_BLOCK_ROWS)
    block = MAX_BLOCK_ROWS;
  return (int64_t) block;
}

/* Cuts every table into items of whole blocks, in table order. */
static int build_items(void)
{
  int64_t block = sb_load_block_rows(st.rows);
  uint64_t blocks = (st.rows + (uint64_t) block - 1) / (uint64_t) block;
  uint64_t slices = 1;
  if (st.threads > 1 && st.table_count < st.threads) {
    slices = ((uint64_t) ITEMS_PER_THREAD * st.threads + st.table_count - 1) / st.table_count;
    if (slices > blocks)
      slices = blocks;
    if (slices < 1)
      slices = 1;
  }
  st.items = calloc((size_t) (st.table_count * slices), sizeof(load_item));
  if (st.items == NULL)
    return -1;
  for (uint32_t t = 0; t < st.table_count; t++) {
    st.tables[t].items = (uint32_t) slices;
    for (uint64_t s = 0; s < slices; s++) {
      uint64_t b0 = blocks * s / slices, b1 = blocks * (s + 1) / slices;
      int64_t last = (int64_t) b1 * block;
      if (last > (int64_t) st.rows)
        last = (int64_t) st.rows;
      load_item *it = &st.items[st.item_count];
      *it = (load_item) {
        .table = t + 1,
        .first_id = (int64_t) b0 * block + 1,
        .last_id = last,
        .first_of_table = s == 0,
        .index = st.item_count,
      };
      st.item_count++;
    }
  }
  return 0;
}

int load_state_begin(int command, uint32_t tables, uint64_t rows, uint32_t threads,
                     bool *first)
{
  int rc = 0;
  *first = false;
  pthread_mutex_lock(&st.lock);
  if (st.started) {
    if (st.command != (load_command) command || st.table_count != tables || st.rows != rows ||
        st.threads != threads)
      rc = -1;
    pthread_mutex_unlock(&st.lock);
    return rc;
  }
  st.command = (load_command) command;
  st.table_count = tables;
  st.rows = rows;
  st.threads = threads > 0 ? threads : 1;
  st.tables = calloc(tables > 0 ? tables : 1, sizeof(load_table));
  if (st.tables == NULL || build_items() != 0) {
    free(st.tables);
    st.tables = NULL;
    pthread_mutex_unlock(&st.lock);
    log_text(LOG_FATAL, "Out of memory for the work list of %u tables", tables);
    return -1;
  }
  for (uint32_t t = 0; t < tables; t++) {
    st.tables[t].number = t + 1;
    st.tables[t].rows_target = rows;
    st.tables[t].data_bytes = st.tables[t].index_bytes = -1;
    st.tables[t].activity = "";
  }
  st.started_ns = clock_now_ns();
  st.started = true;
  signal_policy_install();
  signal_policy_own(&load_signal_owner);
  pthread_mutex_unlock(&st.lock);
  *first = true;
  return 0;
}

bool sb_load_interrupted(void)
{
  return interrupted_by != 0;
}

int load_state_signal(void)
{
  return (int) interrupted_by;
}

bool sb_load_stopping(void)
{
  return interrupted_by != 0 || __atomic_load_n(&st.failed, __ATOMIC_ACQUIRE);
}

static load_table *table_of(uint32_t number)
{
  if (!st.started || number < 1 || number > st.table_count)
    return NULL;
  return &st.tables[number - 1];
}

int sb_load_next(load_item *item)
{
  pthread_mutex_lock(&st.lock);
  for (;;) {
    if (sb_load_stopping() || st.next_item >= st.item_count) {
      pthread_mutex_unlock(&st.lock);
      return 0;
    }
    *item = st.items[st.next_item++];
    load_table *t = &st.tables[item->table - 1];
    if (item->first_of_table) {
      t->phase = TABLE_CREATING;
      t->started_ns = clock_now_ns();
      pthread_mutex_unlock(&st.lock);
      return 1;
    }
    /* Wait for the table, waking up now and then to see a Ctrl-C. */
    while (t->phase == TABLE_CREATING && !sb_load_stopping()) {
      struct timespec until = clock_wall_after(100 * NS_PER_MS);
      pthread_cond_timedwait(&st.changed, &st.lock, &until);
    }
    if (t->phase == TABLE_SKIPPED)
      continue;
    if (t->phase != TABLE_LOADING) {
      pthread_mutex_unlock(&st.lock);
      return 0;
    }
    pthread_mutex_unlock(&st.lock);
    return 1;
  }
}

void sb_load_table_ready(uint32_t table, int ready)
{
  pthread_mutex_lock(&st.lock);
  load_table *t = table_of(table);
  if (t != NULL) {
    if (ready == READY_LOAD) {
      t->phase = TABLE_LOADING;
    } else if (ready == READY_SKIP) {
      t->phase = TABLE_SKIPPED;
      t->finished_ns = clock_now_ns();
    } else {
      t->phase = TABLE_FAILED;
      __atomic_store_n(&st.failed, true, __ATOMIC_RELEASE);
    }
  }
  pthread_cond_broadcast(&st.changed);
  pthread_mutex_unlock(&st.lock);
}

int sb_load_item_done(const load_item *item)
{
  int last = 0;
  pthread_mutex_lock(&st.lock);
  load_table *t = table_of(item->table);
  if (t != NULL && ++t->items_done == t->items && t->phase == TABLE_LOADING) {
    t->phase = TABLE_FINISHING;
    last = 1;
  }
  pthread_mutex_unlock(&st.lock);
  return last;
}

void sb_load_table_activity(uint32_t table, const char *activity)
{
  pthread_mutex_lock(&st.lock);
  load_table *t = table_of(table);
  if (t != NULL)
    t->activity = activity;   /* a string literal of the Lua module, or a kept one */
  pthread_mutex_unlock(&st.lock);
}

void sb_load_table_finished(uint32_t table, uint64_t logical_bytes, int64_t data_bytes,
                            int64_t index_bytes)
{
  pthread_mutex_lock(&st.lock);
  load_table *t = table_of(table);
  if (t != NULL) {
    t->logical_bytes = logical_bytes;
    t->data_bytes = data_bytes;
    t->index_bytes = index_bytes;
    t->activity = "";
    if (t->phase != TABLE_SKIPPED) {
      t->phase = TABLE_DONE;
      t->finished_ns = clock_now_ns();
    }
  }
  pthread_cond_broadcast(&st.changed);
  pthread_mutex_unlock(&st.lock);
}

void sb_load_fail(void)
{
  pthread_mutex_lock(&st.lock);
  __atomic_store_n(&st.failed, true, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&st.changed);
  pthread_mutex_unlock(&st.lock);
}

int sb_load_thread_done(void)
{
  pthread_mutex_lock(&st.lock);
  bool last = ++st.threads_done == st.threads;
  pthread_cond_broadcast(&st.changed);
  pthread_mutex_unlock(&st.lock);
  return last;
}

bool load_state_all_threads_done(void)
{
  pthread_mutex_lock(&st.lock);
  bool done = st.threads_done >= st.threads;
  pthread_mutex_unlock(&st.lock);
  return done;
}

bool load_state_started(void)
{
  return st.started;
}

void load_state_end(void)
{
  /* Nothing left to stop gracefully: a copy of the request that comes now is still only that
     copy, and any other signal ends the process as it would without a handler (signals.h). */
  signal_policy_own(NULL);
}

void sb_load_table_rows_from(uint32_t table, uint64_t seed, bool resume)
{
  pthread_mutex_lock(&st.lock);
  load_table *t = table_of(table);
  if (t != NULL) {
    t->seed = seed;
    t->resume = resume;
  }
  pthread_mutex_unlock(&st.lock);
}

uint64_t sb_load_table_seed(uint32_t table)
{
  pthread_mutex_lock(&st.lock);
  load_table *t = table_of(table);
  uint64_t seed = t != NULL ? t->seed : 0;
  pthread_mutex_unlock(&st.lock);
  return seed;
}

bool sb_load_table_resumed(uint32_t table)
{
  pthread_mutex_lock(&st.lock);
  load_table *t = table_of(table);
  bool resume = t != NULL && t->resume;
  pthread_mutex_unlock(&st.lock);
  return resume;
}

static bool stream_refused;

int sb_load_refuse_stream(void)
{
  return !__atomic_exchange_n(&stream_refused, true, __ATOMIC_ACQ_REL);
}

bool sb_load_stream_refused(void)
{
  return __atomic_load_n(&stream_refused, __ATOMIC_ACQUIRE);
}

bool load_state_failed(void)
{
  return __atomic_load_n(&st.failed, __ATOMIC_ACQUIRE);
}

void sb_load_on_forced_exit(void (*cleanup)(void))
{
  __atomic_store_n(&forced_exit_cleanup, cleanup, __ATOMIC_RELEASE);
}

void load_state_forced_exit(void)
{
  void (*cleanup)(void) = __atomic_load_n(&forced_exit_cleanup, __ATOMIC_ACQUIRE);
  if (cleanup != NULL)
    cleanup();
}

bool sb_load_test_pause(void)
{
  static double delay = -1;
  if (delay < 0) {
    const char *text = getenv("SYSBENCH_TEST_LOAD_DELAY");
    delay = text != NULL && atof(text) > 0 ? atof(text) : 0;
  }
  for (double waited = 0; waited < delay && !sb_load_stopping(); waited += 0.01)
    usleep(10000);
  return !sb_load_stopping();
}

void sb_load_rows_done(uint32_t table, uint64_t rows)
{
  load_table *t = table_of(table);
  if (t != NULL)
    __atomic_add_fetch(&t->rows_done, rows, __ATOMIC_RELAXED);
}

void sb_load_rows_committed(uint32_t table, uint64_t rows)
{
  load_table *t = table_of(table);
  if (t != NULL)
    __atomic_add_fetch(&t->rows_committed, rows, __ATOMIC_RELAXED);
}

void sb_load_rows_present(uint32_t table, uint64_t rows)
{
  load_table *t = table_of(table);
  if (t != NULL) {
    __atomic_add_fetch(&t->rows_present, rows, __ATOMIC_RELAXED);
    __atomic_add_fetch(&t->rows_done, rows, __ATOMIC_RELAXED);
    __atomic_add_fetch(&t->rows_committed, rows, __ATOMIC_RELAXED);
  }
}

load_table *load_state_table(uint32_t number)
{
  return table_of(number);
}

void load_state_each_table(void (*fn)(const load_table *t, void *arg), void *arg)
{
  pthread_mutex_lock(&st.lock);
  for (uint32_t i = 0; st.started && i < st.table_count; i++)
    fn(&st.tables[i], arg);
  pthread_mutex_unlock(&st.lock);
}

uint32_t load_state_table_count(void)
{
  return st.started ? st.table_count : 0;
}

load_command load_state_command(void)
{
  return st.command;
}

uint64_t load_state_elapsed_ns(void)
{
  return st.started ? clock_now_ns() - st.started_ns : 0;
}
