/*
 * histogram.c: the cold side of the latency histogram (histogram.h): allocation, bucket geometry,
 * snapshot/merge/diff for the reporter thread, the percentile rule of sysbench 1.0 and its
 * --histogram text layout. Nothing here runs per event; recording stays inline in the header.
 */
#include "histogram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* sysbench 1.0's print grid (sb_logger.c / sb_histogram.c): 1024 log steps, 0.001 ms .. 100 s. */
#define GRID_MIN_MS  1e-3
#define GRID_MAX_MS  1e5
#define GRID_STEPS   1024
#define STAR_WIDTH   40

latency_histogram *histogram_new(void)
{
  /* Pages of their own, zero-filled by the kernel when first touched: a worker records into a
     few buckets, so its histogram costs those pages, not all 43 KB (1,000 threads would
     otherwise pay 43 MB before the first event). Page alignment also keeps the counts off
     any cache line another thread writes. */
  void *p = mmap(NULL, sizeof(latency_histogram), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

void histogram_free(latency_histogram *h)
{
  if (h != NULL)
    munmap(h, sizeof(*h));
}

void histogram_clear(latency_histogram *h)
{
  memset(h, 0, sizeof(*h));
}

/* log2 of the bucket width above the exact range; buckets below it have width 1 (shift 0). */
static unsigned bucket_shift(unsigned index)
{
  if (index < HISTOGRAM_EXACT_LIMIT)
    return 0;
  return (index - HISTOGRAM_EXACT_LIMIT) / (1u << HISTOGRAM_SUB_BITS) + 1;
}

uint64_t histogram_bucket_low(unsigned index)
{
  if (index < HISTOGRAM_EXACT_LIMIT)
    return index;
  unsigned sub = (index - HISTOGRAM_EXACT_LIMIT) % (1u << HISTOGRAM_SUB_BITS);
  uint64_t mantissa = (1u << HISTOGRAM_SUB_BITS) + sub;
  return mantissa << bucket_shift(index);
}

uint64_t histogram_bucket_value(unsigned index)
{
  /* Midpoint of [low, low + 2^shift - 1] rounded half up. The last bucket uses its regular
     width, not UINT64_MAX, so the overflow bucket still reports a plausible ~78 h. */
  unsigned shift = bucket_shift(index);
  uint64_t low = histogram_bucket_low(index);
  return shift == 0 ? low : low + (UINT64_C(1) << (shift - 1));
}

void histogram_snapshot(latency_histogram *dst, const latency_histogram *src)
{
  /* Relaxed loads pair with the owner's relaxed stores: each counter is read whole (no torn
     64-bit value); cross-counter consistency is not needed for statistics. */
  for (unsigned i = 0; i < HISTOGRAM_BUCKETS; i++)
    dst->counts[i] = __atomic_load_n(&src->counts[i], __ATOMIC_RELAXED);
}

void histogram_add_live(latency_histogram *dst, const latency_histogram *src)
{
  for (unsigned i = 0; i < HISTOGRAM_BUCKETS; i++)
    dst->counts[i] += __atomic_load_n(&src->counts[i], __ATOMIC_RELAXED);
}

/* No restrict: a caller may update in place (dst == a). GCC still vectorizes the loop at -O2,
   behind a runtime overlap check. */
void histogram_diff(latency_histogram *dst, const latency_histogram *a,
                    const latency_histogram *b)
{
  for (unsigned i = 0; i < HISTOGRAM_BUCKETS; i++)
    dst->counts[i] = a->counts[i] - b->counts[i];
}

uint64_t histogram_total(const latency_histogram *h)
{
  uint64_t total = 0;
  for (unsigned i = 0; i < HISTOGRAM_BUCKETS; i++)
    total += h->counts[i];
  return total;
}

/* sysbench's nearest rank, but never 0: with rank 0 the walk would stop at the first (maybe
   empty) bucket and report a value nobody observed. */
static uint64_t percentile_rank(uint64_t total, double pct)
{
  double rank = floor((double) total * pct / 100.0 + 0.5);
  if (rank < 1.0)
    return 1;
  return rank >= (double) total ? total : (uint64_t) rank;
}

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
  /* lo > hi means the caller has no extremes to offer; leave the bucket value alone. */
  if (lo > hi)
    return v;
  return v < lo ? lo : v > hi ? hi : v;
}

uint64_t histogram_percentile(const latency_histogram *h, double pct,
                              uint64_t min_ns, uint64_t max_ns)
{
  uint64_t total = histogram_total(h);
  if (total == 0 || !(pct > 0.0))
    return 0;
  if (pct > 100.0)
    pct = 100.0;

  uint64_t rank = percentile_rank(total, pct);
  uint64_t seen = 0;
  unsigned i = 0;
  for (; i < HISTOGRAM_BUCKETS - 1; i++) {
    seen += h->counts[i];
    if (seen >= rank)
      break;
  }
  /* Bucket midpoints can overshoot the real extremes (sysbench issue #486). */
  return clamp_u64(histogram_bucket_value(i), min_ns, max_ns);
}

/* ---- --histogram printing on sysbench 1.0's grid ---- */

static double grid_mult(void)
{
  return (GRID_STEPS - 1) / (log(GRID_MAX_MS) - log(GRID_MIN_MS));
}

/* 1.0's index formula without its upper clamp, so latencies above 100 s stay distinguishable. */
static unsigned grid_index(uint64_t ns, double mult)
{
  double ms = (double) ns / 1e6;
  if (ms <= GRID_MIN_MS)
    return 0;
  return (unsigned) floor((log(ms) - log(GRID_MIN_MS)) * mult + 0.5);
}

static double grid_value_ms(unsigned index, double mult)
{
  return exp(index / mult + log(GRID_MIN_MS));
}

/*
 * Walks the non-empty grid groups in ascending order. Fine buckets map onto the grid by their
 * representative value; as bucket values never decrease, each group is one contiguous run.
 */
typedef struct {
  const latency_histogram *h;
  double mult;
  unsigned next;      /* first fine bucket not consumed yet */
  unsigned index;     /* grid index of the group just returned */
  uint64_t count;     /* its count */
} grid_walk;

static bool grid_next(grid_walk *w)
{
  while (w->next < HISTOGRAM_BUCKETS && w->h->counts[w->next] == 0)
    w->next++;
  if (w->next >= HISTOGRAM_BUCKETS)
    return false;

  w->index = grid_index(histogram_bucket_value(w->next), w->mult);
  w->count = 0;
  while (w->next < HISTOGRAM_BUCKETS
         && grid_index(histogram_bucket_value(w->next), w->mult) == w->index)
    w->count += w->h->counts[w->next++];
  return true;
}

static grid_walk grid_start(const latency_histogram *h)
{
  return (grid_walk) { .h = h, .mult = grid_mult() };
}

void histogram_print_rows(FILE *out, const double *values, const uint64_t *counts, size_t n)
{
  static const char stars[] = "****************************************";
  _Static_assert(sizeof(stars) - 1 == STAR_WIDTH, "one star per column");
  uint64_t max = 0;

  for (size_t i = 0; i < n; i++)
    if (counts[i] > max)
      max = counts[i];
  /* 1.0.20 prints neither the column header nor any rows when nothing was recorded. */
  if (max == 0)
    return;
  fprintf(out, "       value  ------------- distribution ------------- count\n");
  for (size_t i = 0; i < n; i++) {
    if (counts[i] == 0)
      continue;
    /* Rounded like 1.0.20, so a small but non-empty line may show no star at all. */
    int width = (int) floor((double) counts[i] * STAR_WIDTH / (double) max + 0.5);
    fprintf(out, "%12.3f |%-40.*s %lu\n", values[i], width, stars, (unsigned long) counts[i]);
  }
}

void histogram_print(const latency_histogram *h, FILE *out)
{
  size_t n = 0, capacity = 64;
  double *values = malloc(capacity * sizeof(double));
  uint64_t *counts = malloc(capacity * sizeof(uint64_t));
  grid_walk w = grid_start(h);

  fprintf(out, "Latency histogram (values are in milliseconds)\n");
  while (values != NULL && counts != NULL && grid_next(&w)) {
    if (n == capacity) {
      capacity *= 2;
      double *v = realloc(values, capacity * sizeof(double));
      uint64_t *c = realloc(counts, capacity * sizeof(uint64_t));
      if (v != NULL)
        values = v;
      if (c != NULL)
        counts = c;
      if (v == NULL || c == NULL)
        break;
    }
    values[n] = grid_value_ms(w.index, w.mult);
    counts[n++] = w.count;
  }
  if (values != NULL && counts != NULL)
    histogram_print_rows(out, values, counts, n);
  free(values);
  free(counts);
  fprintf(out, " \n");
}
