/*
 * histogram.h: latency histogram with bounded relative error, owned by one writer thread.
 *
 * Values are nanoseconds. Buckets are log-linear (HdrHistogram-style): values below 256 ns are
 * exact, and every power-of-two range above is split into 128 equal sub-buckets, so a bucket is
 * never wider than 1/128 of its values and the bucket midpoint is within 0.4 % of any value in
 * it. The range runs to 2^48 ns (about 78 hours); larger values land in the last bucket.
 *
 * One worker thread records into its own histogram with plain (relaxed atomic) stores: no lock,
 * no shared cache line. A reporter thread takes snapshots with relaxed loads and subtracts them
 * to get interval or since-checkpoint histograms; histograms of threads are merged by adding.
 */
#ifndef SB_HISTOGRAM_H
#define SB_HISTOGRAM_H

#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>

#define HISTOGRAM_SUB_BITS     7                                /* 128 sub-buckets per octave */
#define HISTOGRAM_EXACT_LIMIT  (1u << (HISTOGRAM_SUB_BITS + 1)) /* values below are exact */
#define HISTOGRAM_MAX_BITS     48                               /* 2^48 ns ~ 78 h */
#define HISTOGRAM_BUCKETS \
  (HISTOGRAM_EXACT_LIMIT + (HISTOGRAM_MAX_BITS - HISTOGRAM_SUB_BITS - 1) * (1u << HISTOGRAM_SUB_BITS))

typedef struct latency_histogram {
  uint64_t counts[HISTOGRAM_BUCKETS];
} latency_histogram;

/* Index of the bucket holding a value of `ns` nanoseconds. */
static inline unsigned histogram_bucket_of(uint64_t ns)
{
  if (ns < HISTOGRAM_EXACT_LIMIT)
    return (unsigned) ns;
  unsigned msb = 63u - (unsigned) __builtin_clzll(ns);
  if (msb >= HISTOGRAM_MAX_BITS)
    return HISTOGRAM_BUCKETS - 1;
  unsigned shift = msb - HISTOGRAM_SUB_BITS;
  unsigned mantissa = (unsigned) (ns >> shift);              /* in [128, 255] */
  return HISTOGRAM_EXACT_LIMIT + (shift - 1) * (1u << HISTOGRAM_SUB_BITS)
         + (mantissa - (1u << HISTOGRAM_SUB_BITS));
}

/* Record one value. Only the owning thread may call this on a given histogram. */
static inline void histogram_record(latency_histogram *h, uint64_t ns)
{
  uint64_t *slot = &h->counts[histogram_bucket_of(ns)];
  __atomic_store_n(slot, __atomic_load_n(slot, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

latency_histogram *histogram_new(void);
void histogram_free(latency_histogram *h);
void histogram_clear(latency_histogram *h);

/* Lowest value (ns) that falls into bucket `index`, and the bucket's representative value. */
uint64_t histogram_bucket_low(unsigned index);
uint64_t histogram_bucket_value(unsigned index);

/* dst = copy of src, read with relaxed atomic loads (src may be written concurrently). */
void histogram_snapshot(latency_histogram *dst, const latency_histogram *src);
/* dst += src, where src is a worker's live histogram (relaxed loads, as in snapshot). */
void histogram_add_live(latency_histogram *dst, const latency_histogram *src);
/* dst = a - b, where b is an earlier snapshot of the same histogram(s). */
void histogram_diff(latency_histogram *dst, const latency_histogram *a,
                    const latency_histogram *b);

uint64_t histogram_total(const latency_histogram *h);

/*
 * Value (ns) at percentile `pct` (0 < pct <= 100) by sysbench's nearest-rank rule: the first
 * bucket whose cumulative count reaches floor(total * pct / 100 + 0.5). The result is clamped to
 * [min_ns, max_ns], the exact extremes the caller tracked, so a percentile never lies outside the
 * observed range (pass min_ns > max_ns to skip clamping). Returns 0 for an empty histogram or
 * pct <= 0; pct > 100 counts as 100.
 */
uint64_t histogram_percentile(const latency_histogram *h, double pct,
                              uint64_t min_ns, uint64_t max_ns);

/*
 * Print in sysbench 1.0's --histogram layout (values in milliseconds, stars scaled to the fullest
 * line = 40). Buckets are grouped onto 1.0's grid of 1024 logarithmic steps from 0.001 ms, which
 * here continues past 100 s instead of stopping there. Like 1.0.20, an empty histogram prints only
 * the title line and the closing " " line.
 */
void histogram_print(const latency_histogram *h, FILE *out);

/* The "value |*** count" table of 1.0 for `n` rows (rows with count 0 are skipped; nothing at
   all is printed when every count is 0). Shared with sysbench.histogram's Lua histograms. */
void histogram_print_rows(FILE *out, const double *values, const uint64_t *counts, size_t n);

#endif
