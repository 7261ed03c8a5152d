/*
 * test_rand.c: statistical unit tests for src/rand.{h,c}: reproducible per-thread streams,
 * range safety of every distribution (32- and 64-bit, edge bounds), the shapes of sysbench's
 * uniform, gaussian, special, pareto and zipfian distributions against their formulas, 32-bit
 * results equal to the 64-bit ones, unique() across threads, and the random strings.
 *
 * All seeds are fixed, so every statistic is deterministic; tolerances are several standard
 * errors wide so that a correct change of algorithm still passes.
 */
#include "rand.h"
#include "tap.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_SEED UINT64_C(20240607)
#define TRILLION UINT64_C(1000000000000)

static rand_config config_for(rand_distribution type)
{
  rand_config c = {
    .type = type, .spec_iter = 12, .spec_pct = 1, .spec_res = 75,
    .pareto_h = 0.2, .zipfian_exp = 0.8, .seed = TEST_SEED,
  };
  return c;
}

/* Configure `type` with the defaults and re-seed the calling thread as `tid`. */
static void use(rand_distribution type, unsigned tid)
{
  rand_config c = config_for(type);
  rand_configure(&c);
  rand_thread_init(tid);
}

static void use_config(rand_config c, unsigned tid)
{
  rand_configure(&c);
  rand_thread_init(tid);
}

static double chi_square(const uint64_t *counts, const double *expected, int bins)
{
  double chi = 0;
  for (int i = 0; i < bins; i++)
    chi += (counts[i] - expected[i]) * (counts[i] - expected[i]) / expected[i];
  return chi;
}

static double chi_square_flat(const uint64_t *counts, int bins, uint64_t total)
{
  double expected[128];
  for (int i = 0; i < bins; i++)
    expected[i] = (double) total / bins;
  return chi_square(counts, expected, bins);
}

static double normal_cdf(double z)
{
  return 0.5 * erfc(-z / sqrt(2.0));
}

typedef struct {
  double mean;
  double var;
} moments;

static moments sample_moments(uint32_t (*f)(uint32_t, uint32_t), uint32_t a, uint32_t b, int n)
{
  double sum = 0, sumsq = 0;
  for (int i = 0; i < n; i++) {
    double v = f(a, b);
    sum += v;
    sumsq += v * v;
  }
  moments m = { sum / n, sumsq / n - (sum / n) * (sum / n) };
  return m;
}

typedef struct {
  const char *name;
  rand_distribution type;
  uint32_t (*f32)(uint32_t, uint32_t);
  uint64_t (*f64)(uint64_t, uint64_t);
} dist_fn;

static const dist_fn dists[] = {
  { "uniform", DIST_UNIFORM, sb_rand_uniform, sb_rand_uniform64 },
  { "gaussian", DIST_GAUSSIAN, sb_rand_gaussian, sb_rand_gaussian64 },
  { "special", DIST_SPECIAL, sb_rand_special, sb_rand_special64 },
  { "pareto", DIST_PARETO, sb_rand_pareto, sb_rand_pareto64 },
  { "zipfian", DIST_ZIPFIAN, sb_rand_zipfian, sb_rand_zipfian64 },
};
#define N_DISTS ((int) (sizeof(dists) / sizeof(dists[0])))

/* ---- configuration and streams --------------------------------------------------- */

static void test_parse(void)
{
  static const char *names[] = { "uniform", "gaussian", "special", "pareto", "zipfian" };
  static const rand_distribution types[] = {
    DIST_UNIFORM, DIST_GAUSSIAN, DIST_SPECIAL, DIST_PARETO, DIST_ZIPFIAN
  };
  bool all = true;
  for (int i = 0; i < 5; i++) {
    rand_distribution t = DIST_UNIFORM;
    all = all && rand_distribution_parse(names[i], &t) && t == types[i];
  }
  ok(all, "rand_distribution_parse maps each of the five --rand-type names to its type");

  rand_distribution t;
  ok(!rand_distribution_parse("normal", &t) && !rand_distribution_parse("", &t)
     && !rand_distribution_parse("Uniform", &t) && !rand_distribution_parse(NULL, &t),
     "rand_distribution_parse rejects unknown, empty, NULL and differently-cased names");
}

static void draw_stream(uint64_t *out, int n, unsigned tid)
{
  rand_thread_init(tid);
  for (int i = 0; i < n; i++)
    out[i] = sb_rand_uniform_uint64();
}

static int count_equal(const uint64_t *x, const uint64_t *y, int n)
{
  int same = 0;
  for (int i = 0; i < n; i++)
    same += x[i] == y[i];
  return same;
}

static double correlation_of_threads(unsigned tid1, unsigned tid2, int n)
{
  double sx = 0, sy = 0, sxy = 0, sxx = 0, syy = 0;
  double *xs = malloc(sizeof(double) * n);
  rand_thread_init(tid1);
  for (int i = 0; i < n; i++)
    xs[i] = sb_rand_uniform_double();
  rand_thread_init(tid2);
  for (int i = 0; i < n; i++) {
    double x = xs[i], y = sb_rand_uniform_double();
    sx += x; sy += y; sxy += x * y; sxx += x * x; syy += y * y;
  }
  free(xs);
  double cov = sxy / n - (sx / n) * (sy / n);
  return cov / sqrt((sxx / n - (sx / n) * (sx / n)) * (syy / n - (sy / n) * (sy / n)));
}

static void test_streams(void)
{
  enum { N = 1000 };
  static uint64_t first[N], second[N];

  use(DIST_UNIFORM, 0);
  ok(rand_effective_seed() == TEST_SEED, "a non-zero --rand-seed is the effective seed");

  draw_stream(first, N, 3);
  draw_stream(second, N, 3);
  ok(count_equal(first, second, N) == N, "the same seed and thread id give the same stream");

  draw_stream(second, N, 4);
  ok_num(count_equal(first, second, N), ==, 0, "a different thread id gives a different stream");

  ok_num(fabs(correlation_of_threads(0, 1, 100000)), <, 0.015,
         "streams of neighbouring thread ids are uncorrelated");

  rand_config c = config_for(DIST_UNIFORM);
  c.seed = TEST_SEED + 1;
  rand_configure(&c);
  draw_stream(second, N, 3);
  ok_num(count_equal(first, second, N), ==, 0, "a different seed gives a different stream");

  c.seed = 0;
  rand_configure(&c);
  uint64_t clock_seed = rand_effective_seed();
  ok(clock_seed != 0, "seed 0 picks a non-zero seed from the clock");
  draw_stream(first, N, 1);
  c.seed = clock_seed;
  rand_configure(&c);
  draw_stream(second, N, 1);
  ok(count_equal(first, second, N) == N,
     "passing the reported clock seed back as the seed replays the run");
}

static void *draw_without_init(void *arg)
{
  uint64_t *out = arg;
  uint64_t distinct_hi = 0;
  bool in_range = true;
  for (int i = 0; i < 1000; i++) {
    uint32_t v = sb_rand_uniform(1, 10);
    in_range = in_range && v >= 1 && v <= 10;
    distinct_hi |= UINT64_C(1) << (sb_rand_uniform_uint64() >> 58);
  }
  out[0] = in_range;
  out[1] = (uint64_t) __builtin_popcountll(distinct_hi);
  return NULL;
}

static void test_uninitialised_thread(void)
{
  uint64_t result[2] = { 0, 0 };
  pthread_t th;
  use(DIST_UNIFORM, 0);
  pthread_create(&th, NULL, draw_without_init, result);
  pthread_join(th, NULL);
  ok(result[0] && result[1] > 50,
     "a thread that never called rand_thread_init still gets varied in-range numbers");
}

/* ---- range safety ---------------------------------------------------------------- */

static bool within32(const dist_fn *d, uint32_t a, uint32_t b, int n)
{
  for (int i = 0; i < n; i++) {
    uint32_t v = d->f32(a, b);
    if (v < a || v > b) {
      printf("#   %s(%u, %u) returned %u\n", d->name, a, b, v);
      return false;
    }
  }
  return true;
}

static bool within64(const dist_fn *d, uint64_t a, uint64_t b, int n)
{
  for (int i = 0; i < n; i++) {
    uint64_t v = d->f64(a, b);
    if (v < a || v > b) {
      printf("#   %s64(%llu, %llu) returned %llu\n", d->name, (unsigned long long) a,
             (unsigned long long) b, (unsigned long long) v);
      return false;
    }
  }
  return true;
}

static void test_bounds(void)
{
  const uint64_t big = UINT64_C(1) << 40;
  for (int i = 0; i < N_DISTS; i++) {
    const dist_fn *d = &dists[i];
    use(d->type, 0);
    bool ok32 = within32(d, 7, 7, 100) && within32(d, 1, 10, 5000)
      && within32(d, 0, UINT32_MAX, 5000) && within32(d, UINT32_MAX - 3, UINT32_MAX, 2000)
      && within32(d, 0, 1, 2000);
    ok(ok32, "%s stays within [a, b] for a == b, [1, 10], [0, 2^32-1] and the top of uint32",
       d->name);

    bool ok64 = within64(d, 1, TRILLION, 5000) && within64(d, big, big, 100)
      && within64(d, 0, UINT32_MAX, 5000) && within64(d, UINT64_MAX - 5, UINT64_MAX, 2000)
      && within64(d, 0, UINT64_MAX, 2000) && within64(d, TRILLION, TRILLION + 9, 2000);
    ok(ok64, "%s64 stays within [a, b] for [1, 10^12], a == b == 2^40, the top of uint64 "
       "and the full uint64 range", d->name);

    ok(d->f32(9, 3) == 9 && d->f64(TRILLION, 5) == TRILLION,
       "%s returns a when a > b", d->name);
  }
}

/* ---- distribution shapes --------------------------------------------------------- */

static void test_uniform(void)
{
  enum { N = 200000 };
  uint64_t bins[10] = { 0 };
  static bool seen[1001];
  double sum = 0, sumsq = 0;

  use(DIST_UNIFORM, 0);
  for (int i = 0; i < N; i++) {
    uint32_t v = sb_rand_uniform(1, 1000);
    sum += v;
    sumsq += (double) v * v;
    bins[(v - 1) / 100]++;
    seen[v] = true;
  }
  double mean = sum / N, var = sumsq / N - mean * mean;
  ok_num(fabs(mean - 500.5), <, 3.0, "uniform(1, 1000) has mean 500.5");
  ok_num(fabs(var / ((1000.0 * 1000.0 - 1) / 12) - 1), <, 0.015,
         "uniform(1, 1000) has variance (n^2 - 1) / 12");
  ok_num(chi_square_flat(bins, 10, N), <, 30.0, "uniform(1, 1000) passes chi-square over 10 bins");
  int missing = 0;
  for (int v = 1; v <= 1000; v++)
    missing += !seen[v];
  ok_num(missing, ==, 0, "uniform(1, 1000) reaches every value including both ends");

  enum { N64 = 100000 };
  uint64_t bins64[10] = { 0 };
  sum = 0;
  for (int i = 0; i < N64; i++) {
    uint64_t v = sb_rand_uniform64(1, TRILLION);
    sum += (double) v;
    bins64[(v - 1) / (TRILLION / 10)]++;
  }
  ok_num(fabs(sum / N64 / 5e11 - 1), <, 0.01, "uniform64(1, 10^12) has mean 5 * 10^11");
  ok_num(chi_square_flat(bins64, 10, N64), <, 30.0,
         "uniform64(1, 10^12) passes chi-square over 10 bins");
}

static void test_uniform_double(void)
{
  enum { N = 200000 };
  bool in_unit = true, on_grid = true;
  double sum = 0;
  int low_bit = 0;

  use(DIST_UNIFORM, 0);
  for (int i = 0; i < N; i++) {
    double x = sb_rand_uniform_double();
    double scaled = x * 0x1.0p53;
    in_unit = in_unit && x >= 0.0 && x < 1.0;
    on_grid = on_grid && scaled == floor(scaled);
    low_bit += ((uint64_t) scaled) & 1;
    sum += x;
  }
  ok(in_unit, "uniform_double stays in [0, 1)");
  ok_num(fabs(sum / N - 0.5), <, 0.003, "uniform_double has mean 1/2");
  ok(on_grid && fabs((double) low_bit / N - 0.5) < 0.01,
     "uniform_double carries 53 random bits (multiples of 2^-53, lowest bit fair)");
}

static void test_gaussian(void)
{
  enum { N = 100000 };
  const double uniform_var = (10000.0 * 10000.0 - 1) / 12;

  use(DIST_GAUSSIAN, 0);
  moments m = sample_moments(sb_rand_gaussian, 0, 9999, N);
  ok_num(fabs(m.mean - 4999.5), <, 15.0, "gaussian(0, 9999) is centred on the middle of the range");
  ok_num(fabs(m.var / (uniform_var / 12) - 1), <, 0.03,
         "gaussian with spec_iter 12 has 1/12 of the uniform variance (mean of 12 uniforms)");
  ok_num(m.var, <, uniform_var / 10, "gaussian is much narrower than uniform over the same range");

  rand_config c = config_for(DIST_GAUSSIAN);
  c.spec_iter = 1;
  use_config(c, 0);
  m = sample_moments(sb_rand_gaussian, 0, 9999, N);
  ok_num(fabs(m.var / uniform_var - 1), <, 0.03,
         "gaussian with spec_iter 1 degenerates to uniform");
}

/* Share of special(0, 99999) draws inside [lo, hi]. */
static double special_share(rand_config c, uint32_t lo, uint32_t hi, int n)
{
  int hits = 0;
  use_config(c, 0);
  for (int i = 0; i < n; i++) {
    uint32_t v = sb_rand_special(0, 99999);
    hits += v >= lo && v <= hi;
  }
  return (double) hits / n;
}

/* P(lo <= floor(t * mean of 12 uniforms) <= hi), by the normal approximation. */
static double gaussian_share(double t, double lo, double hi, unsigned iter)
{
  double sd = t / sqrt(12.0 * iter);
  return normal_cdf((hi + 1 - t / 2) / sd) - normal_cdf((lo - t / 2) / sd);
}

static void test_special(void)
{
  enum { N = 200000 };
  const double t = 99999;
  rand_config c = config_for(DIST_SPECIAL);

  /* 1.0.20 centres the spec_pct window: [t/2 - d/2, t/2 + d/2 + 1) with d = t * pct/100. */
  double d = t * 0.01;
  uint32_t lo = (uint32_t) floor(t / 2 - d / 2), hi = (uint32_t) floor(t / 2 + d / 2 + 1);
  double want = 0.75 + 0.25 * gaussian_share(t, lo, hi, 12);
  double got = special_share(c, lo, hi, N);
  if (!ok(fabs(got - want) < 0.006,
          "special puts spec_res (75%%) of draws, plus the gaussian's share, "
          "in the central spec_pct (1%%) of the range"))
    printf("#   got %.4f, want %.4f\n", got, want);

  c.spec_res = 50;
  want = 0.5 + 0.5 * gaussian_share(t, lo, hi, 12);
  got = special_share(c, lo, hi, N);
  if (!ok(fabs(got - want) < 0.006, "special with spec_res 50 puts about half the draws there"))
    printf("#   got %.4f, want %.4f\n", got, want);

  c = config_for(DIST_SPECIAL);
  c.spec_pct = 10;
  d = t * 0.10;
  uint32_t lo10 = (uint32_t) floor(t / 2 - d / 2), hi10 = (uint32_t) floor(t / 2 + d / 2 + 1);
  want = 0.75 + 0.25 * gaussian_share(t, lo10, hi10, 12);
  got = special_share(c, lo10, hi10, N);
  if (!ok(fabs(got - want) < 0.006, "special with spec_pct 10 widens the window to 10%% of the range"))
    printf("#   got %.4f, want %.4f\n", got, want);

  c = config_for(DIST_SPECIAL);
  ok_num(special_share(c, 0, 999, N), <, 0.002,
         "special leaves the first 1% of the range (near a) almost empty, as 1.0.20 does");

  /* 1.0.20 re-uses the selector draw (>= 1 - res/100) to place the value in the window. */
  d = t * 0.01;
  uint32_t quarter = (uint32_t) floor(t / 2 - d / 2 + 0.25 * (d + 1));
  ok_num(special_share(c, lo, quarter - 1, N), <, 0.01,
         "special values fill only the upper 75% of the window, like 1.0.20");
}

static void test_pareto(void)
{
  enum { N = 200000 };
  const double h = 0.2, inv_power = log(1 - h) / log(h);
  uint64_t counts[1000] = { 0 };

  use(DIST_PARETO, 0);
  for (int i = 0; i < N; i++)
    counts[sb_rand_pareto(0, 999)]++;

  uint64_t low = 0, top = 0;
  for (int v = 0; v < 200; v++)
    low += counts[v];
  for (int v = 800; v < 1000; v++)
    top += counts[v];

  /* value < 200 <=> u^power < 0.2 <=> u < 0.2^(1/power); value >= 800 <=> u >= 0.8^(1/power). */
  double want_low = pow(0.2, inv_power), want_top = 1 - pow(0.8, inv_power);
  if (!ok(fabs((double) low / N - want_low) < 0.005,
          "pareto(h=0.2) puts 80%% of draws in the lowest 20%% of the range"))
    printf("#   got %.4f, want %.4f\n", (double) low / N, want_low);
  if (!ok(fabs((double) top / N - want_top) < 0.002,
          "pareto(h=0.2) puts only about 3%% of draws in the top 20%% of the range"))
    printf("#   got %.4f, want %.4f\n", (double) top / N, want_top);
  ok(counts[0] > counts[1] && counts[1] > counts[10] && counts[10] > counts[100],
     "pareto frequencies fall from a upwards");

  rand_config c = config_for(DIST_PARETO);
  c.pareto_h = 0.5;
  use_config(c, 0);
  moments m = sample_moments(sb_rand_pareto, 0, 999, N);
  ok_num(fabs(m.mean - 499.5), <, 3.0, "pareto with h = 0.5 is uniform (power 1)");
}

static void zipf_counts(double exponent, uint32_t a, uint64_t *counts, int n)
{
  rand_config c = config_for(DIST_ZIPFIAN);
  c.zipfian_exp = exponent;
  use_config(c, 0);
  for (int i = 0; i < n; i++)
    counts[sb_rand_zipfian(a, a + 999) - a]++;
}

static void test_zipfian(void)
{
  enum { N = 300000, RANKS = 20 };
  static uint64_t counts[1000];
  double norm = 0;
  for (int k = 1; k <= 1000; k++)
    norm += pow(k, -0.8);

  zipf_counts(0.8, 1, counts, N);
  double r12 = (double) counts[0] / counts[1], r110 = (double) counts[0] / counts[9];
  if (!ok(fabs(r12 / pow(2, 0.8) - 1) < 0.05, "zipfian(s=0.8): freq(1)/freq(2) is 2^s"))
    printf("#   got %.4f, want %.4f\n", r12, pow(2, 0.8));
  if (!ok(fabs(r110 / pow(10, 0.8) - 1) < 0.08, "zipfian(s=0.8): freq(1)/freq(10) is 10^s"))
    printf("#   got %.4f, want %.4f\n", r110, pow(10, 0.8));

  uint64_t observed[RANKS + 1] = { 0 };
  double expected[RANKS + 1] = { 0 };
  for (int k = 1; k <= 1000; k++) {
    int bin = k <= RANKS ? k - 1 : RANKS;
    observed[bin] += counts[k - 1];
    expected[bin] += N * pow(k, -0.8) / norm;
  }
  ok_num(chi_square(observed, expected, RANKS + 1), <, 50.0,
         "zipfian ranks 1..20 and the tail match k^-s / H(n, s) (chi-square, 20 df)");

  memset(counts, 0, sizeof(counts));
  zipf_counts(1.2, 1, counts, N);
  r12 = (double) counts[0] / counts[1];
  if (!ok(fabs(r12 / pow(2, 1.2) - 1) < 0.05, "zipfian(s=1.2): freq(1)/freq(2) is 2^s"))
    printf("#   got %.4f, want %.4f\n", r12, pow(2, 1.2));

  /* A steep exponent makes the rejection step matter: without it freq(1)/freq(2) is 3.75. */
  memset(counts, 0, sizeof(counts));
  zipf_counts(2.0, 1, counts, N);
  r12 = (double) counts[0] / counts[1];
  if (!ok(fabs(r12 / 4.0 - 1) < 0.03, "zipfian(s=2): freq(1)/freq(2) is 4"))
    printf("#   got %.4f, want 4\n", r12);

  memset(counts, 0, sizeof(counts));
  zipf_counts(0.8, 5001, counts, N);
  int most = 0;
  for (int k = 1; k < 1000; k++)
    if (counts[k] > counts[most])
      most = k;
  ok_num(most, ==, 0, "zipfian's most frequent value is a (rank 1) for any offset");

  rand_config c = config_for(DIST_ZIPFIAN);
  c.zipfian_exp = 0;
  use_config(c, 0);
  moments m = sample_moments(sb_rand_zipfian, 1, 1000, N);
  ok_num(fabs(m.mean - 500.5), <, 3.0, "zipfian with exponent 0 is uniform");
}

/* ---- 32/64-bit agreement and dispatch ------------------------------------------- */

static bool widths_agree(const dist_fn *d, uint32_t a, uint32_t b)
{
  enum { N = 500 };
  uint32_t narrow[N];
  rand_thread_init(3);
  for (int i = 0; i < N; i++)
    narrow[i] = d->f32(a, b);
  rand_thread_init(3);
  for (int i = 0; i < N; i++) {
    uint64_t wide = d->f64(a, b);
    if (wide != narrow[i]) {
      printf("#   %s(%u, %u) draw %d: 32-bit %u, 64-bit %llu\n", d->name, a, b, i, narrow[i],
             (unsigned long long) wide);
      return false;
    }
  }
  return true;
}

static void test_widths_agree(void)
{
  static const uint32_t ranges[][2] = {
    { 10, 5000 }, { 0, UINT32_MAX }, { 7, 7 }, { 1, 2 }, { UINT32_MAX - 3, UINT32_MAX },
  };
  for (int i = 0; i < N_DISTS; i++) {
    use(dists[i].type, 0);
    bool all = true;
    for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++)
      all = all && widths_agree(&dists[i], ranges[r][0], ranges[r][1]);
    ok(all, "%s: the 32-bit function returns exactly the 64-bit result for 32-bit bounds",
       dists[i].name);
  }
  use(DIST_PARETO, 0);
  dist_fn def = { "default", DIST_PARETO, sb_rand_default, sb_rand_default64 };
  ok(widths_agree(&def, 1, 100000), "default: the 32-bit function equals the 64-bit one");
}

static void test_default_dispatch(void)
{
  for (int i = 0; i < N_DISTS; i++) {
    use(dists[i].type, 5);
    uint64_t via_default[200];
    for (int k = 0; k < 200; k++)
      via_default[k] = sb_rand_default64(1, 1000000);
    rand_thread_init(5);
    bool same = true;
    for (int k = 0; k < 200; k++)
      same = same && dists[i].f64(1, 1000000) == via_default[k];
    ok(same, "default follows --rand-type=%s", dists[i].name);
  }
}

/* ---- unique() -------------------------------------------------------------------- */

typedef struct {
  unsigned tid;
  bool init;
  uint32_t *out;
  size_t n;
} unique_job;

static void *unique_worker(void *arg)
{
  unique_job *job = arg;
  if (job->init)
    rand_thread_init(job->tid);
  for (size_t i = 0; i < job->n; i++)
    job->out[i] = sb_rand_unique();
  return NULL;
}

static int cmp_u32(const void *x, const void *y)
{
  uint32_t a = *(const uint32_t *) x, b = *(const uint32_t *) y;
  return (a > b) - (a < b);
}

static size_t run_unique_jobs(unique_job *jobs, int n_jobs, uint32_t *out)
{
  pthread_t th[8];
  size_t used = 0;
  for (int i = 0; i < n_jobs; i++) {
    jobs[i].out = out + used;
    used += jobs[i].n;
    pthread_create(&th[i], NULL, unique_worker, &jobs[i]);
  }
  for (int i = 0; i < n_jobs; i++)
    pthread_join(th[i], NULL);
  return used;
}

static size_t count_duplicates(uint32_t *v, size_t n)
{
  size_t dups = 0;
  qsort(v, n, sizeof(*v), cmp_u32);
  for (size_t i = 1; i < n; i++)
    dups += v[i] == v[i - 1];
  return dups;
}

/* Must be the first test to draw unique() values: every value drawn before counts. */
static void test_unique(void)
{
  enum { PER_THREAD = 250000, MAIN = 10000, TOTAL = 4 * PER_THREAD + 2 * 100000 + 10000 + MAIN };
  uint32_t *values = malloc(sizeof(uint32_t) * TOTAL);

  use(DIST_UNIFORM, 7);
  unique_job four[4] = {
    { 0, true, NULL, PER_THREAD }, { 1, true, NULL, PER_THREAD },
    { 2, true, NULL, PER_THREAD }, { 3, true, NULL, PER_THREAD },
  };
  size_t n = run_unique_jobs(four, 4, values);

  double sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += values[i];
  ok_num(fabs(sum / n / 2147483647.5 - 1), <, 0.01,
         "unique values are spread over the whole uint32 range");

  /* Two OS threads claiming the same id (1026 also shares lane 2 of the 1024 with tid 2), and
     one that never called rand_thread_init, must not collide with anything drawn before. */
  unique_job shared[3] = {
    { 1026, true, NULL, 100000 }, { 1026, true, NULL, 100000 }, { 0, false, NULL, 10000 },
  };
  n += run_unique_jobs(shared, 3, values + n);
  for (int i = 0; i < MAIN; i++)
    values[n++] = sb_rand_unique();

  ok_num(count_duplicates(values, 4 * PER_THREAD), ==, 0,
         "unique() gives 1,000,000 distinct values across 4 threads");
  ok_num(count_duplicates(values, n), ==, 0,
         "unique() stays distinct when threads share an id or a lane, and for a thread "
         "never seeded");
  free(values);
}

/* ---- strings --------------------------------------------------------------------- */

static void test_rand_str_template(void)
{
  const char *fmt = "id-##-@@:x#@. ";
  size_t len = strlen(fmt);
  char buf[32];
  bool kept = true, digits = true, letters = true, exact = true;

  use(DIST_UNIFORM, 0);
  for (int r = 0; r < 2000; r++) {
    memset(buf, '!', sizeof(buf));
    sb_rand_str(fmt, buf);
    exact = exact && buf[len] == '!';
    for (size_t i = 0; i < len; i++) {
      if (fmt[i] == '#')
        digits = digits && buf[i] >= '0' && buf[i] <= '9';
      else if (fmt[i] == '@')
        letters = letters && buf[i] >= 'a' && buf[i] <= 'z';
      else
        kept = kept && buf[i] == fmt[i];
    }
  }
  ok(kept, "rand_str copies every character other than '#' and '@'");
  ok(digits && letters, "rand_str turns '#' into a digit and '@' into a lowercase letter");
  ok(exact, "rand_str writes exactly strlen(fmt) bytes and no terminator");
  memset(buf, '!', sizeof(buf));
  sb_rand_str("", buf);
  ok(buf[0] == '!', "rand_str with an empty template writes nothing");
}

static void test_rand_str_uniform(void)
{
  enum { POS = 20, N = 20000 };
  char fmt[POS + 1], buf[POS];
  static uint64_t per_pos[POS][10];
  uint64_t all[10] = { 0 }, pairs[100] = { 0 }, letters[26] = { 0 };

  memset(fmt, '#', POS);
  fmt[POS] = '\0';
  use(DIST_UNIFORM, 0);
  for (int r = 0; r < N; r++) {
    sb_rand_str(fmt, buf);
    for (int i = 0; i < POS; i++) {
      per_pos[i][buf[i] - '0']++;
      all[buf[i] - '0']++;
      if (i > 0)
        pairs[(buf[i - 1] - '0') * 10 + buf[i] - '0']++;
    }
  }
  double worst = 0;
  for (int i = 0; i < POS; i++)
    worst = fmax(worst, chi_square_flat(per_pos[i], 10, N));
  ok_num(chi_square_flat(all, 10, (uint64_t) N * POS), <, 30.0,
         "rand_str digits are uniform (chi-square, 9 df)");
  ok_num(worst, <, 35.0, "rand_str digits are uniform at every position of a long template");
  ok_num(chi_square_flat(pairs, 100, (uint64_t) N * (POS - 1)), <, 160.0,
         "rand_str adjacent digits are independent (chi-square over 100 pairs, 99 df)");

  memset(fmt, '@', POS);
  for (int r = 0; r < N / 2; r++) {
    sb_rand_str(fmt, buf);
    for (int i = 0; i < POS; i++)
      letters[buf[i] - 'a']++;
  }
  ok_num(chi_square_flat(letters, 26, (uint64_t) N / 2 * POS), <, 60.0,
         "rand_str letters are uniform (chi-square, 25 df)");
}

static void test_rand_str_cost(void)
{
  /* sysbench's c column: 10 groups of 11 digits. */
  const char *fmt = "###########-###########-###########-###########-###########-"
                    "###########-###########-###########-###########-###########";
  char buf[128];
  uint64_t stream[64];

  use(DIST_UNIFORM, 9);
  sb_rand_str(fmt, buf);
  uint64_t after = sb_rand_uniform_uint64();
  draw_stream(stream, 64, 9);
  int used = -1;
  for (int i = 0; i < 64 && used < 0; i++)
    if (stream[i] == after)
      used = i;
  if (!ok(used >= 0 && used <= 12,
          "rand_str spends at most 12 64-bit draws on the 110-digit c template"))
    printf("#   used %d draws\n", used);
}

static void test_varstr(void)
{
  char buf[64];
  bool lengths_ok = true, chars_ok = true;
  int seen_len[8] = { 0 };
  uint64_t chars[75] = { 0 };
  uint64_t total = 0;

  use(DIST_UNIFORM, 0);
  for (int r = 0; r < 20000; r++) {
    uint32_t len = sb_rand_varstr(buf, 3, 7);
    lengths_ok = lengths_ok && len >= 3 && len <= 7;
    if (len < 8)
      seen_len[len]++;
    for (uint32_t i = 0; i < len; i++) {
      chars_ok = chars_ok && buf[i] >= '0' && buf[i] <= 'z';
      if (buf[i] >= '0' && buf[i] <= 'z')
        chars[buf[i] - '0']++;
      total++;
    }
  }
  ok(lengths_ok && seen_len[3] > 3000 && seen_len[7] > 3000,
     "varstr lengths are uniform over [min, max] including both ends");
  ok(chars_ok, "varstr characters lie in '0'..'z'");
  ok_num(chi_square_flat(chars, 75, total), <, 130.0,
         "varstr characters are uniform over the 75 of '0'..'z' (chi-square, 74 df)");

  memset(buf, '!', sizeof(buf));
  ok(sb_rand_varstr(buf, 5, 0) == 0 && buf[0] == '!', "varstr with max 0 returns 0 and writes nothing");
  bool fixed = true, swapped = true;
  for (int r = 0; r < 200; r++) {
    fixed = fixed && sb_rand_varstr(buf, 9, 9) == 9;
    uint32_t len = sb_rand_varstr(buf, 9, 4);
    swapped = swapped && len >= 1 && len <= 4;
  }
  ok(fixed, "varstr with min == max returns exactly that length");
  ok(swapped, "varstr with min > max uses [1, max] like master");
}

/* A worker's rand_state is the stream the thread-bound names give for its id: the state
   belongs to the worker, not to the thread drawing from it. */
static void test_worker_states(void)
{
  enum { N = 64 };
  rand_state a, b, other;
  uint64_t via_thread[N];
  bool same_as_thread = true, apart = true, unshared = true;

  use(DIST_UNIFORM, 0);
  draw_stream(via_thread, N, 6);
  rand_state_seed(&a, 6);
  rand_state_seed(&b, 6);
  rand_state_seed(&other, 7);
  for (int i = 0; i < N; i++) {
    uint64_t x = rand_next(&a);
    same_as_thread = same_as_thread && x == via_thread[i];
    apart = apart && rand_next(&other) != x;
  }
  ok(same_as_thread, "rand_state_seed(id) gives the stream rand_thread_init(id) gives");
  ok(apart, "states seeded for different ids give different streams");
  /* b has not drawn while a drew: each state is its own stream */
  for (int i = 0; i < N; i++)
    unshared = unshared && rand_next(&b) == via_thread[i];
  ok(unshared, "drawing from one state leaves another of the same id untouched");

  rand_state_seed(&a, 6);
  rand_bind_thread(&a);
  ok(sb_rand_uniform_uint64() == via_thread[0] && rand_next(&a) == via_thread[1],
     "1.0.20's id-less names draw from the state bound to the thread, and advance it");
  rand_thread_init(0);
}

int main(void)
{
  test_parse();
  test_streams();
  test_worker_states();
  test_uninitialised_thread();
  test_bounds();
  test_uniform();
  test_uniform_double();
  test_gaussian();
  test_special();
  test_pareto();
  test_zipfian();
  test_widths_agree();
  test_default_dispatch();
  test_unique();
  test_rand_str_template();
  test_rand_str_uniform();
  test_rand_str_cost();
  test_varstr();
  return tap_done();
}
