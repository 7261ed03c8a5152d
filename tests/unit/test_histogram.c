/*
 * test_histogram.c: unit tests for src/histogram.{h,c}: bucket geometry and its error bound,
 * sysbench's nearest-rank percentiles (with min/max clamping and no 100 s cap), merging and
 * interval diffs, the 1.0-style --histogram text, and snapshots taken while another thread
 * records.
 */
#include "histogram.h"
#include "tap.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_US  UINT64_C(1000)
#define NS_PER_MS  UINT64_C(1000000)
#define NS_PER_S   UINT64_C(1000000000)

static double rel_err(double got, double want)
{
  return fabs(got - want) / want;
}

/* Small deterministic generator, so failures reproduce. */
static uint64_t lcg_next(uint64_t *state)
{
  *state = *state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
  return *state >> 33;
}

static latency_histogram *new_or_die(void)
{
  latency_histogram *h = histogram_new();
  if (h == NULL) {
    printf("Bail out! histogram_new failed\n");
    exit(1);
  }
  return h;
}

static void test_new(void)
{
  latency_histogram *h = new_or_die();
  ok((uintptr_t) h % 64 == 0, "histogram_new is 64-byte aligned");
  ok_num(histogram_total(h), ==, 0, "histogram_new is zeroed");
  histogram_record(h, 5);
  histogram_clear(h);
  ok_num(histogram_total(h), ==, 0, "histogram_clear empties it");
  histogram_free(h);
}

/* Highest value of bucket i: just below the next bucket; the last one takes everything up to
   UINT64_MAX (histogram_bucket_of). */
static uint64_t bucket_high(unsigned i)
{
  return i + 1 < HISTOGRAM_BUCKETS ? histogram_bucket_low(i + 1) - 1 : UINT64_MAX;
}

static void test_exact_range(void)
{
  bool exact = true;
  for (uint64_t v = 0; v < HISTOGRAM_EXACT_LIMIT; v++) {
    unsigned b = histogram_bucket_of(v);
    exact &= b == v && histogram_bucket_low(b) == v && bucket_high(b) == v
             && histogram_bucket_value(b) == v;
  }
  ok(exact, "values 0..255 have their own bucket with low == high == value");
  ok_num(histogram_bucket_of(256), ==, 256, "256 opens the first log-linear bucket");
  ok_num(histogram_bucket_of(257), ==, 256, "257 shares it (width 2)");
  ok_num(histogram_bucket_of(258), ==, 257, "258 starts the next one");
}

/* Sampled sweep: dense up to 2^20, then ~0.1 % steps up to just past 2^48. */
static void test_monotonic(void)
{
  unsigned prev = 0;
  bool mono = true;
  uint64_t samples = 0;
  for (uint64_t v = 0; v <= (UINT64_C(1) << 48) + 1000; v += v < (1u << 20) ? 1 : v / 1024) {
    unsigned b = histogram_bucket_of(v);
    mono &= b >= prev && b < HISTOGRAM_BUCKETS;
    prev = b;
    samples++;
  }
  ok(mono, "bucket_of is monotonic over %llu samples in 0..2^48", (unsigned long long) samples);
  ok_num(histogram_bucket_of((UINT64_C(1) << 48) - 1), ==, HISTOGRAM_BUCKETS - 1,
         "2^48-1 lands in the last bucket");
  ok_num(histogram_bucket_of(UINT64_MAX), ==, HISTOGRAM_BUCKETS - 1,
         "UINT64_MAX lands in the last bucket");
  ok_num(HISTOGRAM_BUCKETS, ==, 5376, "5376 buckets");
}

static void test_bucket_bounds(void)
{
  bool consistent = true;
  for (unsigned i = 0; i < HISTOGRAM_BUCKETS; i++) {
    uint64_t lo = histogram_bucket_low(i), hi = bucket_high(i);
    uint64_t val = histogram_bucket_value(i);
    consistent &= histogram_bucket_of(lo) == i && histogram_bucket_of(hi) == i;
    consistent &= lo <= val && val <= hi;
    if (i + 1 < HISTOGRAM_BUCKETS)
      consistent &= histogram_bucket_of(hi + 1) == i + 1;
  }
  ok(consistent, "every bucket: bucket_of(low) == bucket_of(high) == i, high+1 -> i+1");
  ok_num(histogram_bucket_low(HISTOGRAM_BUCKETS - 1), ==, (double) (UINT64_C(255) << 40),
         "last bucket starts at 255 * 2^40");
}

static void test_relative_error(void)
{
  double worst = 0;
  for (unsigned i = HISTOGRAM_EXACT_LIMIT; i < HISTOGRAM_BUCKETS - 1; i++) {
    double lo = (double) histogram_bucket_low(i), hi = (double) bucket_high(i);
    double val = (double) histogram_bucket_value(i);
    /* The extremes of a bucket are its worst cases. */
    worst = fmax(worst, fmax(rel_err(val, lo), rel_err(val, hi)));
  }
  ok_num(worst, <=, 0.005, "bucket value within 0.5 % of every value in its bucket (>= 256)");
  ok_num(worst, <=, 1.0 / 256 + 1e-12, "worst case is half a sub-bucket: 1/256");
}

/* 1..100000 µs, once each: exact nearest rank of p is rank µs. */
static void test_percentile_uniform(void)
{
  const uint64_t n = 100000;
  latency_histogram *h = new_or_die();
  for (uint64_t us = 1; us <= n; us++)
    histogram_record(h, us * NS_PER_US);

  static const double pcts[] = { 50, 95, 99, 99.9 };
  for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
    double exact = floor((double) n * pcts[k] / 100 + 0.5) * (double) NS_PER_US;
    uint64_t got = histogram_percentile(h, pcts[k], NS_PER_US, n * NS_PER_US);
    char name[64];
    snprintf(name, sizeof(name), "p%g of 1..100000 us within 1 %% of %.0f ns", pcts[k], exact);
    ok_num(rel_err((double) got, exact), <, 0.01, name);
  }
  /* 100000 us sits low in its bucket, whose value 99876864 is below the max: no clamping. */
  uint64_t p100 = histogram_percentile(h, 100, NS_PER_US, n * NS_PER_US);
  ok_num(p100, ==, 99876864, "p100 is the last bucket's value, 99876864 ns (within 0.13 %)");
  ok_num(histogram_percentile(h, 250, NS_PER_US, n * NS_PER_US), ==, p100,
         "pct > 100 is treated as 100");
  ok_num(histogram_percentile(h, 0, NS_PER_US, n * NS_PER_US), ==, 0, "pct 0 gives 0");
  ok_num(histogram_percentile(h, -5, NS_PER_US, n * NS_PER_US), ==, 0, "negative pct gives 0");
  ok_num(rel_err((double) histogram_percentile(h, 0.0001, NS_PER_US, n * NS_PER_US), 1000.0), <, 0.01,
         "rank rounding to 0 becomes 1: p0.0001 is ~ the first value, 1 us");
  histogram_free(h);
}

/* One value per decade of scale, including far beyond sysbench 1.0's 100 s cap. */
static void test_long_values(void)
{
  static const struct { uint64_t ns; const char *name; } cases[] = {
    { NS_PER_US, "1 us" },
    { NS_PER_S, "1 s" },
    { 3600 * NS_PER_S, "1 h" },
    { 36000 * NS_PER_S, "10 h" },
  };
  latency_histogram *all = new_or_die();
  for (size_t k = 0; k < 4; k++) {
    latency_histogram *h = new_or_die();
    histogram_record(h, cases[k].ns);
    histogram_record(all, cases[k].ns);
    /* No clamping (min > max), so this checks the bucket value itself. */
    uint64_t got = histogram_percentile(h, 50, 1, 0);
    char name[64];
    snprintf(name, sizeof(name), "%s recorded and reported within 1 %%", cases[k].name);
    ok_num(rel_err((double) got, (double) cases[k].ns), <, 0.01, name);
    histogram_free(h);
  }
  double p100 = (double) histogram_percentile(all, 100, 1, 0);
  ok_num(rel_err(p100, 36000.0 * NS_PER_S), <, 0.01, "p100 of {1us,1s,1h,10h} is ~10 h (no 100 s cap)");
  double p75 = (double) histogram_percentile(all, 75, 1, 0);
  ok_num(rel_err(p75, 3600.0 * NS_PER_S), <, 0.01, "p75 of {1us,1s,1h,10h} is ~1 h");
  histogram_free(all);
}

static void test_clamp(void)
{
  const uint64_t v = 1234567;
  latency_histogram *h = new_or_die();
  for (int i = 0; i < 1000; i++)
    histogram_record(h, v);
  ok(histogram_percentile(h, 95, 1, 0) != v, "unclamped bucket value differs from 1234567 (%llu)",
     (unsigned long long) histogram_percentile(h, 95, 1, 0));
  ok_num(histogram_percentile(h, 95, v, v), ==, v, "all values 1234567 -> p95 == 1234567 exactly");
  ok_num(histogram_percentile(h, 1, v, v), ==, v, "... and p1 too");

  /* Bucket value of 150000 is above it: the max must win. */
  histogram_clear(h);
  histogram_record(h, 100000);
  histogram_record(h, 150000);
  ok_num(histogram_percentile(h, 100, 100000, 150000), <=, 150000, "p100 never above max");
  ok_num(histogram_percentile(h, 50, 100000, 150000), >=, 100000, "p50 never below min");
  histogram_free(h);
}

static void test_empty(void)
{
  latency_histogram *h = new_or_die();
  ok_num(histogram_percentile(h, 95, 0, 0), ==, 0, "empty histogram: p95 == 0");
  ok_num(histogram_percentile(h, 100, 10, 20), ==, 0, "empty histogram: p100 == 0 despite min/max");
  histogram_free(h);
}

static void record_random(latency_histogram *h, uint64_t *seed, int n)
{
  for (int i = 0; i < n; i++) {
    uint64_t r = lcg_next(seed);
    /* Spread over ~1 ns .. ~10 s via a random exponent. */
    histogram_record(h, (r & 0xffffff) << (r >> 24) % 10);
  }
}

static void test_diff(void)
{
  latency_histogram *h = new_or_die(), *early = new_or_die(), *late = new_or_die();
  latency_histogram *only = new_or_die(), *d = new_or_die();
  uint64_t seed = 7, seed_between = 8, seed_only = 8;

  record_random(h, &seed, 30000);
  histogram_snapshot(early, h);
  record_random(h, &seed_between, 45000);
  record_random(only, &seed_only, 45000);
  histogram_snapshot(late, h);

  histogram_diff(d, late, early);
  ok(memcmp(d, only, sizeof(*d)) == 0, "diff(later, earlier) equals the values recorded in between");
  ok_num(histogram_total(d), ==, 45000, "interval total is 45000");
  histogram_diff(late, late, early);
  ok(memcmp(late, only, sizeof(*d)) == 0, "diff works in place (dst == a)");
  histogram_free(h);
  histogram_free(early);
  histogram_free(late);
  histogram_free(only);
  histogram_free(d);
}

/* ---- histogram_print ---- */

static char *print_to_string(const latency_histogram *h)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (f == NULL) {
    printf("Bail out! open_memstream failed\n");
    exit(1);
  }
  histogram_print(h, f);
  fclose(f);
  return buf;
}

/* The value column 1.0.20 prints for a latency of `ms`, computed straight from its formula. */
static void grid_label(double ms, char *out, size_t size)
{
  double deduct = log(1e-3), mult = 1023 / (log(1e5) - deduct);
  double idx = ms <= 1e-3 ? 0 : floor((log(ms) - deduct) * mult + 0.5);
  snprintf(out, size, "%12.3f", exp(idx / mult + deduct));
}

typedef struct {
  char value[16];   /* the %12.3f column as printed */
  int stars;
  unsigned long count;
} row;

/* Parses `"%12.3f |%-40.*s %lu"`; returns false if the line does not have exactly that shape. */
static bool parse_row(const char *line, row *r)
{
  size_t len = strlen(line);
  if (len < 12 + 2 + 40 + 2 || line[12] != ' ' || line[13] != '|' || line[54] != ' ')
    return false;
  memcpy(r->value, line, 12);
  r->value[12] = '\0';
  char *end;
  if (strtod(r->value, &end) <= 0 || *end != '\0')
    return false;
  r->stars = (int) strspn(line + 14, "*");
  if (r->stars > 40 || strspn(line + 14 + r->stars, " ") != (size_t) (40 - r->stars) + 1)
    return false;   /* the +1 is the separator before the count */
  if (strspn(line + 55, "0123456789") != len - 55)
    return false;
  r->count = strtoul(line + 55, NULL, 10);
  return true;
}

static int split_lines(char *text, char **lines, int max)
{
  int n = 0;
  for (char *save = NULL, *l = strtok_r(text, "\n", &save); l != NULL && n < max;
       l = strtok_r(NULL, "\n", &save))
    lines[n++] = l;
  return n;
}

static void test_print_empty(void)
{
  latency_histogram *h = new_or_die();
  char *text = print_to_string(h);
  ok(strcmp(text, "Latency histogram (values are in milliseconds)\n \n") == 0,
     "empty histogram prints the title and the ' ' line only, like 1.0.20");
  free(text);
  histogram_free(h);
}

static void test_print(void)
{
  /* Chosen away from grid boundaries so fine-bucket midpoints land in the same 1.0 group. */
  static const struct { double ms; unsigned long n; } set[] = {
    { 0.0005, 5 },      /* below 0.001 ms: 1.0's index 0 */
    { 0.5, 10 },        /* 10*40/1000 rounds to no star */
    { 1.0, 1000 },      /* the fullest line */
    { 2.0, 500 },
    { 200000.0, 1 },    /* 200 s: past 1.0.20's 100 s cap */
  };
  const int nset = sizeof(set) / sizeof(set[0]);
  latency_histogram *h = new_or_die();
  for (int k = 0; k < nset; k++)
    for (unsigned long i = 0; i < set[k].n; i++)
      histogram_record(h, (uint64_t) llround(set[k].ms * (double) NS_PER_MS));

  char *text = print_to_string(h);
  size_t tlen = strlen(text);
  ok(tlen > 3 && strcmp(text + tlen - 3, "\n \n") == 0, "output ends with a line holding a single space");
  char *lines[32];
  int n = split_lines(text, lines, 32);
  ok_num(n, ==, 2 + nset + 1, "title + header + one line per group + ' '");
  ok(n > 0 && strcmp(lines[0], "Latency histogram (values are in milliseconds)") == 0, "title line");
  ok(n > 1 && strcmp(lines[1], "       value  ------------- distribution ------------- count") == 0,
     "column header line");

  bool shape = true, labels = true, counts = true;
  int full_stars = -1, cap_line = -1;
  for (int k = 0; k < nset && 2 + k < n; k++) {
    row r;
    char want[32];
    if (!parse_row(lines[2 + k], &r)) {
      shape = labels = counts = false;
      printf("# bad row: '%s'\n", lines[2 + k]);
      continue;
    }
    grid_label(set[k].ms, want, sizeof(want));
    /* 200 s is 0.006 steps below a grid boundary and its fine bucket's midpoint is above it,
       so only that row may be one 1.8 % step off 1.0.20's label. */
    if (set[k].ms == 200000.0)
      labels &= rel_err(strtod(r.value, NULL), 200000.0) < 0.02;
    else
      labels &= strcmp(r.value, want) == 0;
    counts &= r.count == set[k].n;
    if (set[k].ms == 1.0)
      full_stars = r.stars;
    if (set[k].ms == 200000.0)
      cap_line = 2 + k;
    if (set[k].ms == 2.0)
      ok_num(r.stars, ==, 20, "500 of 1000 -> 20 stars");
    if (set[k].ms == 0.5)
      ok_num(r.stars, ==, 0, "10 of 1000 -> 0 stars (1.0.20 rounds, no minimum of one)");
  }
  ok(shape, "every row has the \"%%12.3f |%%-40.*s %%lu\" shape");
  ok(labels, "row values equal 1.0.20's exp(idx/mult + ln 0.001) for the recorded latencies");
  ok(counts, "row counts match the recorded counts");
  ok_num(full_stars, ==, 40, "the biggest line has exactly 40 stars");
  ok(cap_line == n - 2 && strncmp(lines[cap_line], "  2", 3) == 0,
     "200 s is on its own last line: '%s'", cap_line >= 0 ? lines[cap_line] : "(none)");
  ok(n > 0 && strcmp(lines[n - 1], " ") == 0, "final line is a single space");
  free(text);
  histogram_free(h);
}

/* ---- snapshots while the owner records ---- */

#define CONCURRENT_N 1000000

typedef struct {
  latency_histogram *h;
  int done;
} writer_arg;

static void *writer(void *p)
{
  writer_arg *w = p;
  for (uint64_t i = 0; i < CONCURRENT_N; i++)
    histogram_record(w->h, (i % 5000) * 997 + 1);
  __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void test_concurrent(void)
{
  writer_arg w = { .h = new_or_die(), .done = 0 };
  latency_histogram *snap = new_or_die();
  pthread_t t;
  if (pthread_create(&t, NULL, writer, &w) != 0) {
    tap_skip("pthread_create failed");
    return;
  }
  uint64_t prev = 0, snaps = 0;
  bool mono = true;
  while (!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE)) {
    histogram_snapshot(snap, w.h);
    uint64_t total = histogram_total(snap);
    mono &= total >= prev && total <= CONCURRENT_N;
    prev = total;
    snaps++;
  }
  pthread_join(t, NULL);
  histogram_snapshot(snap, w.h);
  ok(mono, "snapshot totals are monotonic while recording (%llu snapshots)", (unsigned long long) snaps);
  ok_num(histogram_total(snap), ==, CONCURRENT_N, "final snapshot total is 10^6");
  histogram_free(snap);
  histogram_free(w.h);
}

int main(void)
{
  test_new();
  test_exact_range();
  test_monotonic();
  test_bucket_bounds();
  test_relative_error();
  test_percentile_uniform();
  test_long_values();
  test_clamp();
  test_empty();
  test_diff();
  test_print_empty();
  test_print();
  test_concurrent();
  return tap_done();
}
