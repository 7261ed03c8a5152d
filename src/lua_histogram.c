/*
 * lua_histogram.c: the bounded histograms of the Lua API (sysbench.histogram.new(size, min,
 * max)): `size` logarithmic buckets between min and max, updated from any thread, printed in
 * sysbench 1.0's layout. Latency statistics use histogram.c instead.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "histogram.h"

struct histogram {
  size_t size;
  double range_min;
  double range_max;
  double ln_min;
  double mult;                 /* buckets per unit of ln(value) */
  uint64_t counts[];
};

typedef struct histogram sb_histogram_t;

sb_histogram_t *sb_histogram_new(size_t size, double range_min, double range_max);
void sb_histogram_delete(sb_histogram_t *h);
void sb_histogram_update(sb_histogram_t *h, double value);
void sb_histogram_print(sb_histogram_t *h);

sb_histogram_t *sb_histogram_new(size_t size, double range_min, double range_max)
{
  if (size < 2 || !(range_min > 0) || !(range_max > range_min))
    return NULL;
  sb_histogram_t *h = calloc(1, sizeof(*h) + size * sizeof(uint64_t));
  if (h == NULL)
    return NULL;
  h->size = size;
  h->range_min = range_min;
  h->range_max = range_max;
  h->ln_min = log(range_min);
  h->mult = (double) (size - 1) / (log(range_max) - h->ln_min);
  return h;
}

void sb_histogram_delete(sb_histogram_t *h)
{
  free(h);
}

void sb_histogram_update(sb_histogram_t *h, double value)
{
  size_t i = 0;
  if (value > h->range_min) {
    double idx = floor((log(value) - h->ln_min) * h->mult + 0.5);
    i = idx >= (double) (h->size - 1) ? h->size - 1 : (size_t) idx;
  }
  __atomic_add_fetch(&h->counts[i], 1, __ATOMIC_RELAXED);
}

void sb_histogram_print(sb_histogram_t *h)
{
  double *values = malloc(h->size * sizeof(double));
  uint64_t *counts = malloc(h->size * sizeof(uint64_t));

  if (values != NULL && counts != NULL) {
    for (size_t i = 0; i < h->size; i++) {
      values[i] = exp((double) i / h->mult + h->ln_min);
      counts[i] = __atomic_load_n(&h->counts[i], __ATOMIC_RELAXED);
    }
    fflush(stdout);
    histogram_print_rows(stdout, values, counts, h->size);
    fflush(stdout);
  }
  free(values);
  free(counts);
}
