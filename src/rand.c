/*
 * rand.c: xoroshiro128+ streams (one rand_state per worker), sysbench's integer distributions
 * (uniform, gaussian, special, pareto, zipfian), the process-wide never-repeating unique()
 * sequence and the template/variable-length random strings used for table rows.
 *
 * A stream is a pure function of (effective seed, logical id), so a seeded run is reproducible
 * whatever the scheduling; 1.0.20 seeded every thread from libc random(), whose state other
 * threads also consumed (sysbench issue #524). Callers pass the state they draw from; only
 * 1.0.20's id-less entry points (sb_rand_uniform(a, b) ...) read the state bound to the calling
 * thread.
 *
 * Every distribution is written once, for 64-bit bounds; the 32-bit entry points the Lua FFI
 * layer uses are truncations of it, so both agree on 32-bit ranges draw for draw.
 *
 * Configuration lives in plain globals written by rand_configure() before workers start;
 * thread creation orders those writes before any worker's reads.
 */
#include "rand.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

/* Logical ids handed to threads that draw without calling rand_thread_init(): far above any
   worker id, and distinct per thread so two such threads do not share a stream. */
#define LAZY_TID_BASE 0xFFFF0000u

/* Rejection-inversion accepts well over 90% of candidates; the cap only guards against a
   pathological exponent turning the loop into a hang. */
#define ZIPF_MAX_TRIES 1000

/* unique(): index space lanes and how many indices a thread reserves per atomic operation. */
#define UNIQUE_MAX_LANES 1024u
#define UNIQUE_BATCH 4096u

/* Symbols are peeled off one draw while the product of their radices stays below 2^40,
   which keeps every combination's probability within 2^-24 (relative) of uniform. */
#define POOL_BITS 40u

static const rand_config default_config = {
  .type = DIST_SPECIAL,  /* 1.0.20's default --rand-type */
  .spec_iter = 12,
  .spec_pct = 1,
  .spec_res = 75,
  .pareto_h = 0.2,
  .zipfian_exp = 0.8,
  .seed = 0,
};

static rand_config config;
static uint64_t effective_seed;

/* Values derived from the configuration once, so no call divides or takes a logarithm
   more often than the distribution itself needs. */
static unsigned gauss_iter;      /* summands of the gaussian approximation, >= 1 */
static double gauss_iter_mult;   /* 1 / gauss_iter */
static double special_gauss_share; /* share of special() draws that fall back to gaussian */
static double special_pct_frac;  /* width of the special window as a fraction of the range */
static double pareto_power;
static double zipf_exp;
static double zipf_s;            /* acceptance shortcut threshold (Hoermann/Derflinger's s) */
static double zipf_h_x1;         /* H(1.5) - 1: lower end of the inversion interval */

/* The compatibility layer of 1.0.20's id-less names: the state bound to the calling thread
   (its worker's), or the thread's own, seeded by rand_thread_init() or on first use. */
static __thread rand_state *bound_state;
static __thread rand_state thread_state;
static atomic_uint lazy_seeded_threads;

static _Atomic uint64_t unique_next[UNIQUE_MAX_LANES];
static const unsigned unique_lanes = UNIQUE_MAX_LANES;
static uint32_t unique_key[2];
static atomic_bool unique_started;

/* ---- generator core ---------------------------------------------------------------- */

static inline uint64_t rotl64(uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

/* splitmix64's output function: a bijection that spreads every input bit over the word. */
static uint64_t mix64(uint64_t z)
{
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static uint64_t splitmix64_next(uint64_t *x)
{
  *x += UINT64_C(0x9E3779B97F4A7C15);
  return mix64(*x);
}

/* The state 1.0.20's id-less names draw from on this thread. */
static inline rand_state *thread_current(void)
{
  if (__builtin_expect(bound_state == NULL, 0))
    rand_thread_init(LAZY_TID_BASE + atomic_fetch_add_explicit(&lazy_seeded_threads, 1,
                                                               memory_order_relaxed));
  return bound_state;
}

/* xoroshiro128+ with the 55/14/36 shifts sysbench ships. */
static inline uint64_t next64(rand_state *r)
{
  const uint64_t s0 = r->s[0];
  uint64_t s1 = r->s[1];
  const uint64_t result = s0 + s1;

  s1 ^= s0;
  r->s[0] = rotl64(s0, 55) ^ s1 ^ (s1 << 14);
  r->s[1] = rotl64(s1, 36);
  return result;
}

/* The top 53 bits, because the lowest bits of xoroshiro128+ are its weakest. */
static inline double next_double(rand_state *r)
{
  return (double) (next64(r) >> 11) * 0x1.0p-53;
}

uint64_t rand_next(rand_state *r)
{
  return next64(r);
}

double rand_double(rand_state *r)
{
  return next_double(r);
}

/* ---- configuration ----------------------------------------------------------------- */

bool rand_distribution_parse(const char *name, rand_distribution *out)
{
  static const struct { const char *name; rand_distribution type; } names[] = {
    { "uniform", DIST_UNIFORM },
    { "gaussian", DIST_GAUSSIAN },
    { "special", DIST_SPECIAL },
    { "pareto", DIST_PARETO },
    { "zipfian", DIST_ZIPFIAN },
  };

  if (name == NULL)
    return false;
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    if (strcmp(name, names[i].name) == 0) {
      *out = names[i].type;
      return true;
    }
  }
  return false;
}

static double clamp01(double x)
{
  return fmin(fmax(x, 0.0), 1.0);   /* fmax also turns NaN into 0 */
}

/* H(x) = (x^(1-e) - 1) / (1-e), the integral of x^-e from 1, which tends to log(x) as e -> 1;
   written as log(x) * (expm1(y) / y) so that limit needs no special case. */
static double zipf_H(double x)
{
  const double log_x = log(x);
  const double y = (1.0 - zipf_exp) * log_x;
  const double expm1_ratio = fabs(y) > 1e-8 ? expm1(y) / y
                                            : 1.0 + y / 2.0 + y * y / 6.0 + y * y * y / 24.0;
  return expm1_ratio * log_x;
}

/* Inverse of zipf_H, as exp(x * log1p(t) / t) with t = x(1-e); t below -1 can only come
   from rounding and would make the logarithm undefined. */
static double zipf_H_inverse(double x)
{
  double t = x * (1.0 - zipf_exp);
  if (t < -1.0)
    t = -1.0;
  const double log1p_ratio = fabs(t) > 1e-8 ? log1p(t) / t
                                            : 1.0 - t / 2.0 + t * t / 3.0 - t * t * t / 4.0;
  return exp(log1p_ratio * x);
}

static double zipf_h(double x)
{
  return exp(-zipf_exp * log(x));
}

static void derive_parameters(void)
{
  gauss_iter = config.spec_iter > 0 ? config.spec_iter : 1;   /* 0 would divide by zero */
  gauss_iter_mult = 1.0 / gauss_iter;

  special_gauss_share = clamp01((100.0 - config.spec_res) / 100.0);
  special_pct_frac = clamp01(config.spec_pct / 100.0);

  /* h outside (0, 1) has no meaning; h = 0.5 gives power 1, i.e. uniform, so use that. */
  const double h = config.pareto_h;
  pareto_power = (h > 0.0 && h < 1.0) ? log(h) / log(1.0 - h) : 1.0;

  zipf_exp = (config.zipfian_exp >= 0.0 && isfinite(config.zipfian_exp)) ? config.zipfian_exp
                                                                          : 0.0;
  zipf_s = 2.0 - zipf_H_inverse(zipf_H(2.5) - zipf_h(2.0));
  zipf_h_x1 = zipf_H(1.5) - 1.0;
}

/* The permutation key is frozen once values have been handed out: a new key would map
   fresh indices onto values already returned. */
static void key_unique_sequence(void)
{
  if (atomic_load_explicit(&unique_started, memory_order_relaxed))
    return;
  uint64_t x = effective_seed ^ UINT64_C(0x243F6A8885A308D3);
  const uint64_t k = splitmix64_next(&x);
  unique_key[0] = (uint32_t) k;
  unique_key[1] = (uint32_t) (k >> 32);
}

static uint64_t clock_seed(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  const uint64_t ns = (uint64_t) ts.tv_sec * UINT64_C(1000000000) + (uint64_t) ts.tv_nsec;
  return ns != 0 ? ns : 1;   /* 0 means "pick one", so it must never be the answer */
}

void rand_configure(const rand_config *cfg)
{
  config = cfg != NULL ? *cfg : default_config;
  effective_seed = config.seed != 0 ? config.seed : clock_seed();
  derive_parameters();
  key_unique_sequence();
}

/* Lets a program that never calls rand_configure() still get 1.0.20's defaults. */
__attribute__((constructor)) static void rand_apply_defaults(void)
{
  config = default_config;
  derive_parameters();
  key_unique_sequence();
}

uint64_t rand_effective_seed(void)
{
  return effective_seed;
}

static void set_stream(rand_state *r, uint64_t x)
{
  r->s[0] = splitmix64_next(&x);
  r->s[1] = splitmix64_next(&x);
  if ((r->s[0] | r->s[1]) == 0)
    r->s[0] = 1;   /* the all-zero state would only ever return zeros */
}

void rand_state_seed(rand_state *r, unsigned id)
{
  /* Mixing seed and id separately before combining keeps nearby ids (and nearby seeds) from
     landing on overlapping splitmix sequences. */
  set_stream(r, mix64(effective_seed) ^ mix64(UINT64_C(0x6A09E667F3BCC909) + id));

  /* A re-seeded state starts its unique() lane afresh; the abandoned indices stay reserved.
     The id is reduced to a lane only when reserving. */
  r->unique_lane = id;
  r->unique_next = r->unique_end = 0;
  r->unique_exhausted = false;
}

void rand_state_seed_row(rand_state *r, uint64_t seed, uint32_t table, uint64_t row_id)
{
  /* Three inputs mixed apart, as in rand_state_seed(), so that neighbouring rows, tables
     and seeds never share a splitmix sequence; the constants keep this family of streams
     away from the workers' one. */
  set_stream(r, mix64(seed ^ UINT64_C(0xA54FF53A5F1D36F1)) ^
                mix64(UINT64_C(0x510E527FADE682D1) + table) ^
                mix64(UINT64_C(0x9B05688C2B3E6C1F) + mix64(row_id)));
  r->unique_lane = 0;
  r->unique_next = r->unique_end = 0;
  r->unique_exhausted = true;   /* a row's stream draws no unique() values */
}

void rand_bind_thread(rand_state *r)
{
  bound_state = r;
}

void rand_thread_init(unsigned thread_id)
{
  rand_state_seed(&thread_state, thread_id);
  bound_state = &thread_state;
}

/* ---- distributions ----------------------------------------------------------------- */

/* floor(x) as an offset into [0, span], clamped because x was computed in doubles: above 2^53
   a product can round past the range, and a uint64 conversion of 2^64 is undefined. */
static uint64_t clamp_offset(double x, uint64_t span)
{
  if (!(x > 0.0))
    return 0;
  if (x >= (double) span)
    return span;
  return (uint64_t) x;
}

/* Mean of spec_iter uniform doubles: the Irwin-Hall approximation sysbench calls gaussian. */
static double mean_of_uniforms(rand_state *r)
{
  double sum = 0.0;
  for (unsigned i = 0; i < gauss_iter; i++)
    sum += next_double(r);
  return sum * gauss_iter_mult;
}

uint64_t rand_uniform64(rand_state *r, uint64_t a, uint64_t b)
{
  if (a > b)
    return a;
  const uint64_t span = b - a;
  const uint64_t x = next64(r);
  /* Modulo, as 0.5 and early 1.0 did (1.0.20 scales a double: the same distribution, but
     only 53 bits): exact for 64-bit ranges, with a bias of at most range/2^64. */
  return span == UINT64_MAX ? x : a + x % (span + 1);
}

uint64_t rand_gaussian64(rand_state *r, uint64_t a, uint64_t b)
{
  if (a > b)
    return a;
  const uint64_t span = b - a;
  return a + clamp_offset(mean_of_uniforms(r) * ((double) span + 1.0), span);
}

/*
 * 1.0.20's special distribution: a selector draw sends (100 - spec_res)% of the draws to a
 * gaussian over the range and the other spec_res% to a uniform value in a window spec_pct%
 * wide around the centre of the range (not near a). 1.0.20 tests `selector * t * 100/(100-res) < t`, which is
 * `selector < (100-res)/100` for t > 0; and it reuses the selector to place the special
 * value, so those values fill the window's upper (res)% only. Both are kept, as is its use
 * of t = b - a (not b - a + 1) in the gaussian branch.
 */
uint64_t rand_special64(rand_state *r, uint64_t a, uint64_t b)
{
  if (a > b)
    return a;
  const uint64_t span = b - a;
  const double t = (double) span;
  const double selector = next_double(r);

  if (span > 0 && selector < special_gauss_share)
    return a + clamp_offset(mean_of_uniforms(r) * t, span);

  const double width = t * special_pct_frac;
  return a + clamp_offset(selector * (width + 1.0) + t / 2.0 - width / 2.0, span);
}

/* power = log(h)/log(1-h) makes u^power < h exactly when u < 1-h: with h = 0.2, 80% of
   the draws land in the lowest 20% of the range. */
uint64_t rand_pareto64(rand_state *r, uint64_t a, uint64_t b)
{
  if (a > b)
    return a;
  const uint64_t span = b - a;
  return a + clamp_offset(((double) span + 1.0) * pow(next_double(r), pareto_power), span);
}

/*
 * Zipf over ranks 1..n (rank 1 = a, the most frequent) by Hoermann and Derflinger's
 * rejection-inversion, in the variant (used by Apache Commons RNG and sysbench master) whose
 * hat integral H(x) = (x^(1-e) - 1)/(1-e) works for every e >= 0: invert H at a uniform point
 * of (H(1.5) - 1, H(n + 0.5)], round to the nearest rank k and accept k with probability
 * h(k) / (H(k + 1/2) - H(k - 1/2)), which leaves P(k) proportional to k^-e.
 * Returns the zero-based offset k - 1.
 */
static uint64_t zipf_offset(rand_state *r, uint64_t span)
{
  const double n = (double) span + 1.0;
  const double h_n = zipf_H(n + 0.5);
  uint64_t offset = 0;

  for (int tries = 0; tries < ZIPF_MAX_TRIES; tries++) {
    const double u = h_n + next_double(r) * (zipf_h_x1 - h_n);
    const double x = zipf_H_inverse(u);

    offset = clamp_offset(floor(x + 0.5) - 1.0, span);
    const double k = (double) offset + 1.0;
    /* k - x <= s implies the exact test below (the paper's Theorem 2) and is cheaper. */
    if (k - x <= zipf_s || u >= zipf_H(k + 0.5) - zipf_h(k))
      return offset;
  }
  return offset;
}

uint64_t rand_zipfian64(rand_state *r, uint64_t a, uint64_t b)
{
  if (a > b)
    return a;
  return a + zipf_offset(r, b - a);
}

uint64_t rand_default64(rand_state *r, uint64_t a, uint64_t b)
{
  switch (config.type) {
  case DIST_GAUSSIAN: return rand_gaussian64(r, a, b);
  case DIST_SPECIAL:  return rand_special64(r, a, b);
  case DIST_PARETO:   return rand_pareto64(r, a, b);
  case DIST_ZIPFIAN:  return rand_zipfian64(r, a, b);
  case DIST_UNIFORM:  break;
  }
  return rand_uniform64(r, a, b);
}

/* For 32-bit bounds every 64-bit result lies in [a, b], so the truncation is exact. */
uint32_t rand_default32(rand_state *r, uint32_t a, uint32_t b)
{
  return (uint32_t) rand_default64(r, a, b);
}

uint32_t rand_uniform32(rand_state *r, uint32_t a, uint32_t b)
{
  return (uint32_t) rand_uniform64(r, a, b);
}

uint32_t rand_gaussian32(rand_state *r, uint32_t a, uint32_t b)
{
  return (uint32_t) rand_gaussian64(r, a, b);
}

uint32_t rand_special32(rand_state *r, uint32_t a, uint32_t b)
{
  return (uint32_t) rand_special64(r, a, b);
}

uint32_t rand_pareto32(rand_state *r, uint32_t a, uint32_t b)
{
  return (uint32_t) rand_pareto64(r, a, b);
}

uint32_t rand_zipfian32(rand_state *r, uint32_t a, uint32_t b)
{
  return (uint32_t) rand_zipfian64(r, a, b);
}

/* ---- unique() ---------------------------------------------------------------------- */

/*
 * Index i in [0, 2^32) is owned by lane i mod L (L = UNIQUE_MAX_LANES); lane l is the stream's id modulo L. A stream
 * reserves UNIQUE_BATCH consecutive indices of its lane with one atomic add on the lane's
 * counter and hands them out from its rand_state, so a stream alone in its lane gets the
 * same sequence for the same seed, and streams sharing a lane (ids >= L, a re-used id) still
 * never collide. An exhausted lane sends the stream on to the next one. Each index is mapped
 * to its value by a keyed bijection of uint32, so values look random yet cannot repeat until
 * all 2^32 indices (less the unused tails of reserved batches) are spent; after that unique()
 * degrades to plain random numbers.
 */

/* lowbias32 (Chris Wellons' hash prospector): xorshifts and odd multipliers are each
   invertible, so the whole function is a bijection. */
static uint32_t mix32(uint32_t x)
{
  x ^= x >> 16;
  x *= UINT32_C(0x7FEB352D);
  x ^= x >> 15;
  x *= UINT32_C(0x846CA68B);
  x ^= x >> 16;
  return x;
}

static uint32_t unique_permute(uint32_t index)
{
  return mix32(mix32(index ^ unique_key[0]) + unique_key[1]);
}

static uint64_t lane_capacity(unsigned lane)
{
  return (UINT32_MAX - lane) / unique_lanes + 1;
}

static bool unique_reserve_batch(rand_state *r)
{
  if (!atomic_load_explicit(&unique_started, memory_order_relaxed))
    atomic_store_explicit(&unique_started, true, memory_order_relaxed);

  const unsigned first = r->unique_lane % unique_lanes;
  for (unsigned tries = 0; tries < unique_lanes; tries++) {
    const unsigned lane = (first + tries) % unique_lanes;
    const uint64_t cap = lane_capacity(lane);
    const uint64_t start = atomic_fetch_add_explicit(&unique_next[lane], UNIQUE_BATCH,
                                                     memory_order_relaxed);
    if (start < cap) {
      r->unique_lane = lane;
      r->unique_next = start;
      r->unique_end = start + UNIQUE_BATCH < cap ? start + UNIQUE_BATCH : cap;
      return true;
    }
  }
  return false;
}

uint32_t rand_unique(rand_state *r)
{
  if (r->unique_next == r->unique_end) {
    if (r->unique_exhausted || !unique_reserve_batch(r)) {
      r->unique_exhausted = true;
      return (uint32_t) next64(r);
    }
  }
  const uint64_t index = r->unique_next++ * unique_lanes + r->unique_lane;
  return unique_permute((uint32_t) index);
}

/* ---- strings ----------------------------------------------------------------------- */

/*
 * One 64-bit draw read as a binary fraction yields several symbols: multiplying by the radix
 * moves the next symbol into the integer part. The symbols taken from one draw are then the
 * mixed-radix expansion floor(r * R1 * ... * Rk / 2^64), uniform up to the POOL_BITS bound.
 */
__extension__ typedef unsigned __int128 uint128;   /* a GCC/Clang extension on 64-bit targets */

typedef struct {
  uint64_t fraction;
  unsigned bits_left;
} symbol_pool;

static inline unsigned pool_take(rand_state *r, symbol_pool *pool, unsigned radix,
                                 unsigned radix_bits)
{
  if (pool->bits_left < radix_bits) {
    pool->fraction = next64(r);
    pool->bits_left = POOL_BITS;
  }
  pool->bits_left -= radix_bits;

  const uint128 product = (uint128) pool->fraction * radix;
  pool->fraction = (uint64_t) product;
  return (unsigned) (product >> 64);
}

void rand_str(rand_state *r, const char *fmt, char *buf)
{
  symbol_pool pool = { 0, 0 };

  for (size_t i = 0; fmt[i] != '\0'; i++) {
    if (fmt[i] == '#')
      buf[i] = (char) ('0' + pool_take(r, &pool, 10, 4));
    else if (fmt[i] == '@')
      buf[i] = (char) ('a' + pool_take(r, &pool, 26, 5));
    else
      buf[i] = fmt[i];
  }
}

uint32_t rand_varstr(rand_state *r, char *buf, uint32_t min_len, uint32_t max_len)
{
  enum { CHARSET = 'z' - '0' + 1 };   /* 75 characters, as master's sb_rand_uniform('0', 'z') */

  if (max_len == 0)
    return 0;
  if (min_len > max_len)
    min_len = 1;   /* master's rule */

  const uint32_t len = rand_uniform32(r, min_len, max_len);
  symbol_pool pool = { 0, 0 };
  for (uint32_t i = 0; i < len; i++)
    buf[i] = (char) ('0' + pool_take(r, &pool, CHARSET, 7));
  return len;
}

/* ---- sysbench 1.0.20's names: the state bound to the calling thread ---------------- */

uint64_t sb_rand_uniform_uint64(void) { return next64(thread_current()); }
double sb_rand_uniform_double(void) { return next_double(thread_current()); }

#define THREAD_CURRENT_SHIMS(name)                                                          \
  uint32_t sb_rand_##name(uint32_t a, uint32_t b)                                           \
  {                                                                                         \
    return rand_##name##32(thread_current(), a, b);                                         \
  }                                                                                         \
  uint64_t sb_rand_##name##64(uint64_t a, uint64_t b)                                       \
  {                                                                                         \
    return rand_##name##64(thread_current(), a, b);                                         \
  }

THREAD_CURRENT_SHIMS(default)
THREAD_CURRENT_SHIMS(uniform)
THREAD_CURRENT_SHIMS(gaussian)
THREAD_CURRENT_SHIMS(special)
THREAD_CURRENT_SHIMS(pareto)
THREAD_CURRENT_SHIMS(zipfian)

uint32_t sb_rand_unique(void) { return rand_unique(thread_current()); }
void sb_rand_str(const char *fmt, char *buf) { rand_str(thread_current(), fmt, buf); }

uint32_t sb_rand_varstr(char *buf, uint32_t min_len, uint32_t max_len)
{
  return rand_varstr(thread_current(), buf, min_len, max_len);
}
