/*
 * memory.c: the `memory` test. An event reads, writes or just walks one --memory-block-size
 * block, word by word, in order or at random offsets. The run ends when --memory-total-size
 * has been moved (split evenly between the threads, as sysbench 1.0.20 splits it) or when
 * the time limit is reached, whichever comes first.
 *
 * Every word access is a real 64-bit load or store the compiler may not drop or merge, so the
 * work per event is the same as in 1.0.20 and MiB/sec figures compare across versions. The
 * per-thread loop owns everything it touches: its block (one shared block in global scope),
 * its event budget and its random number state.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "logger.h"
#include "meminfo.h"
#include "options.h"
#include "rand.h"
#include "report.h"
#include "runner.h"
#include "test.h"
#include "units.h"

typedef enum { SCOPE_GLOBAL, SCOPE_LOCAL } memory_scope;
typedef enum { OPER_READ, OPER_WRITE, OPER_NONE } memory_oper;

static const char *const scope_names[] = {"global", "local", NULL};
static const char *const oper_names[] = {"read", "write", "none", NULL};
static const char *const access_mode_names[] = {"seq", "rnd", NULL};

/* A block is walked a 64-bit word at a time, and 1.0.20 takes only powers of two. */
static bool power_of_two(const char *text)
{
  uint64_t n;
  return parse_size(text, &n) && (n & (n - 1)) == 0;
}

static const option_decl memory_args[] = {
  {.name = "memory-block-size", .desc = "size of memory block for test", .default_text = "1K",
   .type = SB_ARG_TYPE_SIZE, .ranged = true, .min = 8, .max = 1ULL << 40,
   .item_ok = power_of_two,
   .expect = "a power of two of at least 8 bytes, such as 8, 1K or 1M",
   .compat_error = "FATAL: Invalid value for memory-block-size: %s"},
  {.name = "memory-total-size", .desc = "total size of data to transfer",
   .default_text = "100G", .type = SB_ARG_TYPE_SIZE},
  {.name = "memory-scope", .desc = "memory access scope {global,local}",
   .default_text = "global", .type = SB_ARG_TYPE_STRING, .choices = scope_names,
   .compat_error = "FATAL: Invalid value for memory-scope: %s"},
  {.name = "memory-hugetlb", .desc = "allocate memory from HugeTLB pool",
   .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = "memory-oper", .desc = "type of memory operations {read, write, none}",
   .default_text = "write", .type = SB_ARG_TYPE_STRING, .choices = oper_names,
   .compat_error = "FATAL: Invalid value for memory-oper: %s"},
  {.name = "memory-access-mode", .desc = "memory access mode {seq,rnd}",
   .default_text = "seq", .type = SB_ARG_TYPE_STRING, .choices = access_mode_names,
   .compat_error = "FATAL: Invalid value for memory-access-mode: %s"},
  {.name = NULL}
};

/* The settings, fixed by memory_init before any worker starts. */
static struct {
  uint64_t block_size;          /* bytes, a power of two, at least one word */
  uint64_t total_size;          /* bytes; 0 = no limit */
  uint64_t events_per_thread;   /* total / block / threads; 0 = no limit */
  memory_scope scope;
  memory_oper oper;
  bool random_access;
  bool hugetlb;
  size_t mapped_size;           /* bytes mapped per block with --memory-hugetlb */
} settings;

/* Block of each worker; in global scope every entry points at the one shared block. */
static uint64_t **blocks;
static unsigned block_count;

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Index of an option's value in `names` (its declared choices, already checked). */
static int choice_index(const char *value, const char *const names[])
{
  for (int i = 0; value != NULL && names[i] != NULL; i++)
    if (strcmp(value, names[i]) == 0)
      return i;
  return 0;
}

static int parse_settings(unsigned threads)
{
  /* Each value is checked by its declaration; left are the rules between options (1.0.20
     has no line for them: it runs no event at all). */
  char expect[256];
  settings.block_size = opt_size("memory-block-size");
  settings.total_size = opt_size("memory-total-size");
  if (settings.total_size > 0 && settings.block_size > settings.total_size) {
    snprintf(expect, sizeof(expect), "a power of two no larger than --memory-total-size, %s",
             opt_string("memory-total-size"));
    option_report_invalid("memory-block-size", opt_string("memory-block-size"), NULL, expect);
    return -1;
  }
  settings.events_per_thread = settings.total_size / settings.block_size / threads;
  if (settings.total_size > 0 && settings.events_per_thread == 0) {
    snprintf(expect, sizeof(expect), "0 for no limit, or at least --memory-block-size times "
             "--threads = %" PRIu64 " bytes", settings.block_size * threads);
    option_report_invalid("memory-total-size", opt_string("memory-total-size"), NULL, expect);
    return -1;
  }

  settings.scope = (memory_scope) choice_index(opt_string("memory-scope"), scope_names);
  settings.oper = (memory_oper) choice_index(opt_string("memory-oper"), oper_names);
  settings.random_access = choice_index(opt_string("memory-access-mode"),
                                         access_mode_names) == 1;
  settings.hugetlb = opt_bool("memory-hugetlb");
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Blocks                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static uint64_t *block_alloc(void)
{
  void *block;

  if (settings.hugetlb) {
    block = mmap(NULL, settings.mapped_size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
    if (block == MAP_FAILED) {
      log_text(LOG_FATAL, "Failed to allocate %zu bytes from the HugeTLB pool for "
               "--memory-hugetlb: %s (reserve huge pages with 'sysctl vm.nr_hugepages=N', "
               "or use --memory-hugetlb=off)", settings.mapped_size, strerror(errno));
      return NULL;
    }
    return block;
  }
  long page = sysconf(_SC_PAGESIZE);
  int rc = posix_memalign(&block, page > 0 ? (size_t) page : 4096, settings.block_size);
  if (rc != 0) {
    log_text(LOG_FATAL, "Failed to allocate a memory block of %" PRIu64 " bytes "
             "(--memory-block-size=%s): %s", settings.block_size,
             opt_string("memory-block-size"), strerror(rc));
    return NULL;
  }
  return block;
}

static void block_free(uint64_t *block)
{
  if (block == NULL)
    return;
  if (settings.hugetlb)
    munmap(block, settings.mapped_size);
  else
    free(block);
}

static void free_blocks(void)
{
  if (blocks == NULL)
    return;
  if (settings.scope == SCOPE_GLOBAL)
    block_free(blocks[0]);
  else
    for (unsigned i = 0; i < block_count; i++)
      block_free(blocks[i]);
  free(blocks);
  blocks = NULL;
  block_count = 0;
}

/* Allocate the blocks. The shared block is zeroed here; a local block is zeroed by its own
   worker (memory_thread_init), so its pages are first touched on that worker's NUMA node. */
static int alloc_blocks(unsigned threads)
{
  if (settings.hugetlb) {
    size_t page = (size_t) meminfo_bytes("Hugepagesize", 2u << 20);
    settings.mapped_size = (size_t) ((settings.block_size + page - 1) / page * page);
  }
  blocks = calloc(threads, sizeof(*blocks));
  if (blocks == NULL) {
    log_text(LOG_FATAL, "Out of memory for the block table of %u threads", threads);
    return -1;
  }
  block_count = threads;

  if (settings.scope == SCOPE_GLOBAL) {
    uint64_t *shared = block_alloc();
    if (shared == NULL)
      return -1;
    memset(shared, 0, settings.block_size);
    for (unsigned i = 0; i < threads; i++)
      blocks[i] = shared;
    return 0;
  }
  for (unsigned i = 0; i < threads; i++)
    if ((blocks[i] = block_alloc()) == NULL)
      return -1;
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Word access loops                                                                          */
/* ------------------------------------------------------------------------------------------ */

/* xoroshiro128+, inlined: a call into rand.c per word would cost more than the access. */
typedef struct {
  uint64_t s0, s1;
} word_rng;

static inline uint64_t rotl64(uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

static inline uint64_t word_rng_next(word_rng *r)
{
  uint64_t a = r->s0, b = r->s1;
  uint64_t result = a + b;

  b ^= a;
  r->s0 = rotl64(a, 24) ^ b ^ (b << 16);
  r->s1 = rotl64(b, 37);
  return result;
}

/* A uniform word index below `words`, from the generator's high bits. */
static inline size_t random_index(word_rng *r, size_t words)
{
  return (size_t) (((unsigned __int128) word_rng_next(r) * words) >> 64);
}

/*
 * The loops. Each access is a relaxed atomic load or store: one real 64-bit load or store
 * the compiler may not drop or merge (as a volatile one), which unlike an asm "memory"
 * clobber leaves the loop's own variables in registers; and in global scope, where every
 * thread writes the one shared block (as in 1.0.20: the benchmark's point), the threads'
 * accesses are well defined rather than a data race (ThreadSanitizer checks the test). Each loop
 * is a function of its own (one call per block, not per word) for the same reason, and the
 * sequential ones are unrolled: the loop overhead would otherwise cost as much as the access.
 */
static __attribute__((noinline)) void seq_write(uint64_t *block, size_t words)
{
#pragma GCC unroll 8
  for (size_t i = 0; i < words; i++)
    __atomic_store_n(&block[i], words - i, __ATOMIC_RELAXED);
}

static __attribute__((noinline)) void seq_read(uint64_t *block, size_t words)
{
#pragma GCC unroll 8
  for (size_t i = 0; i < words; i++)
    (void) __atomic_load_n(&block[i], __ATOMIC_RELAXED);
}

/* Walks the block's length and touches nothing: the cost of the loop alone. */
static __attribute__((noinline)) void seq_none(size_t words)
{
#pragma GCC unroll 8
  for (size_t i = 0; i < words; i++)
    __asm__ __volatile__("");
}

static __attribute__((noinline)) void rnd_write(uint64_t *block, size_t words, word_rng *r)
{
  word_rng state = *r;

  for (size_t i = 0; i < words; i++)
    __atomic_store_n(&block[random_index(&state, words)], i, __ATOMIC_RELAXED);
  *r = state;
}

static __attribute__((noinline)) void rnd_read(uint64_t *block, size_t words, word_rng *r)
{
  word_rng state = *r;

  for (size_t i = 0; i < words; i++)
    (void) __atomic_load_n(&block[random_index(&state, words)], __ATOMIC_RELAXED);
  *r = state;
}

/* Draws the offsets and touches nothing: the cost of the random walk alone. */
static __attribute__((noinline)) void rnd_none(size_t words, word_rng *r)
{
  word_rng state = *r;

  for (size_t i = 0; i < words; i++) {
    size_t index = random_index(&state, words);
    __asm__ __volatile__("" : : "r"(index));
  }
  *r = state;
}

static inline void access_block(uint64_t *block, size_t words, word_rng *r)
{
  if (settings.random_access) {
    switch (settings.oper) {
      case OPER_WRITE: rnd_write(block, words, r); break;
      case OPER_READ:  rnd_read(block, words, r); break;
      case OPER_NONE:  rnd_none(words, r); break;
    }
  } else {
    switch (settings.oper) {
      case OPER_WRITE: seq_write(block, words); break;
      case OPER_READ:  seq_read(block, words); break;
      case OPER_NONE:  seq_none(words); break;
    }
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Test hooks                                                                                 */
/* ------------------------------------------------------------------------------------------ */

static int memory_init(void)
{
  unsigned threads = runner_config()->threads;

  if (parse_settings(threads) != 0)
    return 1;
  if (alloc_blocks(threads) != 0) {
    free_blocks();
    return 1;
  }
  return 0;
}

static void memory_print_mode(void)
{
  log_text(LOG_NOTICE, "Running memory speed test with the following options:");
  log_text(LOG_NOTICE, "  block size: %" PRIu64 "KiB", settings.block_size / 1024);
  log_text(LOG_NOTICE, "  total size: %" PRIu64 "MiB", settings.total_size / 1024 / 1024);
  log_text(LOG_NOTICE, "  operation: %s", oper_names[settings.oper]);
  log_text(LOG_NOTICE, "  scope: %s", scope_names[settings.scope]);
  log_text(LOG_NOTICE, "%s", "");
}

static int memory_thread_init(worker *w)
{
  if (settings.scope == SCOPE_LOCAL)
    memset(blocks[w->id], 0, settings.block_size);
  return 0;
}

/* The whole loop of one worker: its share of the total size, one block per event. The end
   of one event and the start of the next share a clock read (sb_event_next). */
static int memory_thread_run(worker *w)
{
  uint64_t *block = blocks[w->id];
  size_t words = (size_t) (settings.block_size / sizeof(uint64_t));
  uint64_t budget = settings.events_per_thread;
  bool limited = budget > 0;
  word_rng rng = { rand_next(&w->rand) | 1, rand_next(&w->rand) };

  if (!sb_worker_more_events(w))
    return 0;
  sb_worker_event_start(w);
  for (;;) {
    access_block(block, words, &rng);
    if (limited && --budget == 0) {
      sb_worker_event_stop(w);
      return 0;
    }
    if (!sb_worker_event_next(w))
      return 0;
  }
}

static double mebibytes(uint64_t events)
{
  return units_mebibytes((double) events * (double) settings.block_size);
}

static double per_second(double amount, double seconds)
{
  return seconds > 0 ? amount / seconds : 0;
}

static void memory_report_intermediate(worker *reporter, sb_stat_t *stat, const report_layout *layout)
{
  (void) reporter;
  (void) layout;
  log_timestamped(LOG_NOTICE, stat->time_total, "%4.2f MiB/sec",
                  per_second(mebibytes(stat->events), stat->time_interval));
}

static void memory_report_cumulative(worker *reporter, sb_stat_t *stat, const report_layout *layout)
{
  (void) reporter;
  log_text(LOG_NOTICE, "Total operations: %" PRIu64 " (%8.2f per second)\n", stat->events,
           per_second((double) stat->events, stat->time_interval));
  if (settings.oper != OPER_NONE) {
    double mib = mebibytes(stat->events);
    log_text(LOG_NOTICE, "%4.2f MiB transferred (%4.2f MiB/sec)\n", mib,
             per_second(mib, stat->time_interval));
  }
  report_cumulative_general(stat, layout);
}

static int memory_done(void)
{
  free_blocks();
  return 0;
}

sb_test memory_test = {
  .name = "memory",
  .limits_own_events = true,   /* --memory-total-size; --events is ignored, as in 1.0.20 */
  .description = "Memory functions speed test",
  .options = memory_args,
  .ops = {
    .init = memory_init,
    .print_mode = memory_print_mode,
    .thread_init = memory_thread_init,
    .thread_run = memory_thread_run,
    .report_intermediate = memory_report_intermediate,
    .report_cumulative = memory_report_cumulative,
    .done = memory_done,
  },
};
