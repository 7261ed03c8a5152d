/*
 * rand.h: pseudo-random number streams and sysbench's distributions.
 *
 * Each worker owns a rand_state (a xoroshiro128+ state and its lane of the unique() sequence),
 * seeded from --rand-seed (or the clock) and the worker's id, so a seeded run is reproducible
 * with any number of threads. Callers draw from the state they own: rand_uniform32(r, a, b).
 * The *64 variants take ranges past 2^32 and agree with the 32-bit ones whenever both bounds
 * fit in 32 bits.
 *
 * The sb_rand_* names and signatures are those sysbench 1.0.20's Lua layer declares through
 * FFI, which scripts may declare themselves; they carry no state, so they draw from the one
 * bound to the calling thread (its worker's, rand_bind_thread()). That binding is a
 * compatibility shim only: nothing else finds a state through the thread.
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

/* One stream: its generator and its lane of the unique() sequence. */
typedef struct rand_state {
  uint64_t s[2];
  uint64_t unique_next;        /* the unique() indices reserved and not yet handed out */
  uint64_t unique_end;
  unsigned unique_lane;        /* the id until a batch is reserved */
  bool unique_exhausted;
} rand_state;

/* Seed `r` for logical id `id` (workers 0..N-1; the main thread and the reporter use N). Same
   seed and id give the same stream. Call after rand_configure(). */
void rand_state_seed(rand_state *r, unsigned id);

/* A row's own stream: table loaders generate each row from a stream that depends only on
   (seed, table, row id), so a table's contents are the same whichever worker loads which
   rows. */
void rand_state_seed_row(rand_state *r, uint64_t seed, uint32_t table, uint64_t row_id);

/* The next raw 64-bit number; a uniform double in [0, 1). */
uint64_t rand_next(rand_state *r);
double rand_double(rand_state *r);

/* Integers in [a, b] with the configured or the named distribution; a > b returns a (what
   1.0.20 gives for b = a - 1) without drawing. */
uint32_t rand_default32(rand_state *r, uint32_t a, uint32_t b);
uint32_t rand_uniform32(rand_state *r, uint32_t a, uint32_t b);
uint32_t rand_gaussian32(rand_state *r, uint32_t a, uint32_t b);
uint32_t rand_special32(rand_state *r, uint32_t a, uint32_t b);
uint32_t rand_pareto32(rand_state *r, uint32_t a, uint32_t b);
uint32_t rand_zipfian32(rand_state *r, uint32_t a, uint32_t b);

uint64_t rand_default64(rand_state *r, uint64_t a, uint64_t b);
uint64_t rand_uniform64(rand_state *r, uint64_t a, uint64_t b);
uint64_t rand_gaussian64(rand_state *r, uint64_t a, uint64_t b);
uint64_t rand_special64(rand_state *r, uint64_t a, uint64_t b);
uint64_t rand_pareto64(rand_state *r, uint64_t a, uint64_t b);
uint64_t rand_zipfian64(rand_state *r, uint64_t a, uint64_t b);

/* A 32-bit number never returned before in this process (by any stream), without a shared
   atomic per call. Deterministic per (seed, id) for a stream that is alone in its lane.
   There are 2^32 values in all (less up to 4095 per stream left unused when a stream is
   re-seeded); once they are spent it returns ordinary random numbers. */
uint32_t rand_unique(rand_state *r);
/* Number of unique() lanes, i.e. distinct ids in use (threads + 1 for the main thread and
   the reporter), at most 1024 (the default). Call before any stream draws unique numbers;
   later calls are ignored. Ids beyond the lane count share lanes safely. */
void rand_unique_configure(unsigned slots);

/* Fill buf[0..strlen(fmt)) from template fmt: '#' -> random digit, '@' -> random lowercase
   letter, anything else copied. No terminating NUL is written. */
void rand_str(rand_state *r, const char *fmt, char *buf);
/* Fill buf with a random-length (min..max) string of characters '0'..'z'; returns the
   length. buf must hold max bytes. */
uint32_t rand_varstr(rand_state *r, char *buf, uint32_t min_len, uint32_t max_len);

/* ---- 1.0.20's names, drawing from the calling thread's bound state ---------------------- */

/* The state the names below draw from on the calling thread: its worker's. */
void rand_bind_thread(rand_state *r);
/* Seed a state of the calling thread's own for `thread_id` and bind it (threads that are no
   worker's, and tests). A thread that draws without either gets a state of its own seeded
   with an id far above any worker's. */
void rand_thread_init(unsigned thread_id);

uint64_t sb_rand_uniform_uint64(void);
double sb_rand_uniform_double(void);
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

uint32_t sb_rand_unique(void);

/* Fill buf[0..strlen(fmt)) from template fmt: '#' -> random digit, '@' -> random lowercase
   letter, anything else copied. No terminating NUL is written. */
void sb_rand_str(const char *fmt, char *buf);
uint32_t sb_rand_varstr(char *buf, uint32_t min_len, uint32_t max_len);

#endif
