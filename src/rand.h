/*
 * rand.h: per-thread pseudo-random numbers and sysbench's distributions.
 *
 * Each thread owns a xoroshiro128+ state in thread-local storage, seeded from --rand-seed (or
 * the clock) and the thread's id, so a seeded run is reproducible with any number of threads.
 * The exported sb_rand_* names and 32-bit signatures are those sysbench 1.0.20's Lua layer
 * declares through FFI; the *64 variants take ranges past 2^32 and agree with the 32-bit
 * functions whenever both bounds fit in 32 bits.
 */
#ifndef SB_RAND_H
#define SB_RAND_H

#include <stdint.h>
#include <stdbool.h>

typedef enum {
  DIST_UNIFORM,
  DIST_GAUSSIAN,
  DIST_SPECIAL,
  DIST_PARETO,
  DIST_ZIPFIAN
} rand_distribution;

typedef struct {
  rand_distribution type;     /* --rand-type */
  unsigned spec_iter;         /* --rand-spec-iter */
  double spec_pct;            /* --rand-spec-pct */
  double spec_res;            /* --rand-spec-res */
  double pareto_h;            /* --rand-pareto-h */
  double zipfian_exp;         /* --rand-zipfian-exp */
  uint64_t seed;              /* --rand-seed; 0 = from the clock */
} rand_config;

/* Parse a --rand-type value; false if unknown. */
bool rand_distribution_parse(const char *name, rand_distribution *out);

/* Set the process-wide configuration; call once before any thread draws numbers. If
   config->seed is 0 a seed is taken from the clock; rand_effective_seed() tells which. */
void rand_configure(const rand_config *config);
uint64_t rand_effective_seed(void);

/* Seed the calling thread's generator for logical thread `thread_id` (workers 0..N-1; the
   main and background threads use N). Same seed and id give the same stream. */
void rand_thread_init(unsigned thread_id);

/* A row's own stream: table loaders generate each row from a stream that depends only on
   (seed, table, row id), so a table's contents are the same whichever thread loads which
   rows. rand_row_stream_begin() saves the calling thread's stream and switches to the row's;
   every sb_rand_* call until rand_row_stream_end() draws from it. */
typedef struct {
  uint64_t state[2];
  bool seeded;
} rand_saved_stream;

void rand_row_stream_begin(rand_saved_stream *saved, uint64_t seed, uint32_t table,
                           uint64_t row_id);
void rand_row_stream_end(const rand_saved_stream *saved);

/* The calling thread's next raw 64-bit number. */
uint64_t sb_rand_uniform_uint64(void);
/* Uniform double in [0, 1). */
double sb_rand_uniform_double(void);

/* Integers in [a, b] with the configured or the named distribution; a > b returns a (what
   1.0.20 gives for b = a - 1) without drawing. */
uint32_t sb_rand_default(uint32_t a, uint32_t b);
uint32_t sb_rand_uniform(uint32_t a, uint32_t b);
uint32_t sb_rand_gaussian(uint32_t a, uint32_t b);
uint32_t sb_rand_special(uint32_t a, uint32_t b);
uint32_t sb_rand_pareto(uint32_t a, uint32_t b);
uint32_t sb_rand_zipfian(uint32_t a, uint32_t b);

uint64_t sb_rand_default64(uint64_t a, uint64_t b);
uint64_t sb_rand_uniform64(uint64_t a, uint64_t b);
uint64_t sb_rand_gaussian64(uint64_t a, uint64_t b);
uint64_t sb_rand_special64(uint64_t a, uint64_t b);
uint64_t sb_rand_pareto64(uint64_t a, uint64_t b);
uint64_t sb_rand_zipfian64(uint64_t a, uint64_t b);

/* A 32-bit number never returned before in this process (by any thread), without a shared
   atomic per call. Deterministic per (seed, thread id) for a thread that is alone in its
   lane. There are 2^32 values in all (less up to 4095 per thread left unused when a thread
   is re-seeded); once they are spent it returns ordinary random numbers. */
uint32_t sb_rand_unique(void);

/* Fill buf[0..strlen(fmt)) from template fmt: '#' -> random digit, '@' -> random lowercase
   letter, anything else copied. No terminating NUL is written. */
void sb_rand_str(const char *fmt, char *buf);
/* Fill buf with a random-length (min..max) string of characters '0'..'z'; returns the
   length. buf must hold max bytes. */
uint32_t sb_rand_varstr(char *buf, uint32_t min_len, uint32_t max_len);

#endif
