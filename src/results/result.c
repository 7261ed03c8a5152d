/*
 * result.c: the result document's memory, its histograms (sparse buckets to and from
 * histogram.h's dense form) and the figures derived from a period: rates, percentiles by the
 * text report's rule, thread fairness.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "results/result.h"

char *result_strdup(const char *s)
{
  return s != NULL ? strdup(s) : NULL;
}

void result_period_free(result_period *p)
{
  for (size_t i = 0; i < p->operation_count; i++) {
    free(p->operations[i].histogram.index);
    free(p->operations[i].histogram.count);
  }
  free(p->operations);
  free(p->error_codes);
  free(p->histogram.index);
  free(p->histogram.count);
  free(p->thread_events);
  free(p->thread_time_ns);
  memset(p, 0, sizeof(*p));
}

static void free_options(result_option *items, size_t count)
{
  for (size_t i = 0; i < count; i++) {
    free(items[i].name);
    free(items[i].value);
  }
  free(items);
}

void result_run_free(result_run *r)
{
  free(r->test);
  free(r->sysbench_version);
  free(r->tool);
  free(r->tool_version);
  free(r->tool_commit);
  free(r->driver);
  free(r->server_version);
  for (size_t i = 0; i < r->argc; i++)
    free(r->argv[i]);
  free(r->argv);
  free_options(r->options, r->option_count);
  free_options(r->effective, r->effective_count);
  for (size_t i = 0; i < r->driver_stat_count; i++)
    free(r->driver_stats[i].name);
  free(r->driver_stats);
  free(r->driver_stats_text);
  for (size_t i = 0; i < r->error_count; i++)
    free(r->errors[i]);
  free(r->errors);
  for (size_t i = 0; i < r->client_count; i++) {
    free(r->clients[i].host);
    free(r->clients[i].os);
    free(r->clients[i].source);
    free(r->clients[i].run_id);
  }
  free(r->clients);
  for (size_t i = 0; i < r->interval_count; i++)
    result_period_free(&r->intervals[i]);
  free(r->intervals);
  for (size_t i = 0; i < r->checkpoint_count; i++)
    result_period_free(&r->checkpoints[i]);
  free(r->checkpoints);
  result_period_free(&r->final);
  memset(r, 0, sizeof(*r));
}

void result_doc_free(result_doc *d)
{
  for (size_t i = 0; i < d->run_count; i++)
    result_run_free(&d->runs[i]);
  free(d->runs);
  memset(d, 0, sizeof(*d));
}

int result_doc_add_run(result_doc *d, result_run *run)
{
  result_run *grown = realloc(d->runs, (d->run_count + 1) * sizeof(*grown));
  if (grown == NULL)
    return -1;
  d->runs = grown;
  d->runs[d->run_count++] = *run;
  memset(run, 0, sizeof(*run));
  return 0;
}

result_period *result_periods_push(result_period **items, size_t *count)
{
  result_period *grown = realloc(*items, (*count + 1) * sizeof(*grown));
  if (grown == NULL)
    return NULL;
  *items = grown;
  memset(&grown[*count], 0, sizeof(grown[0]));
  return &grown[(*count)++];
}

/* ------------------------------------------------------------------------------------------ */

int result_buckets_from_histogram(result_buckets *out, const latency_histogram *h)
{
  size_t n = 0;
  for (unsigned i = 0; i < HISTOGRAM_BUCKETS; i++)
    n += h->counts[i] != 0;
  out->n = 0;
  out->index = n ? malloc(n * sizeof(uint32_t)) : NULL;
  out->count = n ? malloc(n * sizeof(uint64_t)) : NULL;
  if (n && (out->index == NULL || out->count == NULL)) {
    free(out->index);
    free(out->count);
    out->index = NULL;
    out->count = NULL;
    return -1;
  }
  for (unsigned i = 0; i < HISTOGRAM_BUCKETS; i++) {
    if (h->counts[i] != 0) {
      out->index[out->n] = i;
      out->count[out->n++] = h->counts[i];
    }
  }
  return 0;
}

void result_buckets_to_histogram(latency_histogram *h, const result_buckets *b)
{
  histogram_clear(h);
  for (size_t i = 0; i < b->n; i++)
    if (b->index[i] < HISTOGRAM_BUCKETS)
      h->counts[b->index[i]] += b->count[i];
}

int result_buckets_add(result_buckets *dst, const result_buckets *src)
{
  size_t n = dst->n + src->n, i = 0, j = 0, k = 0;
  uint32_t *index = n ? malloc(n * sizeof(uint32_t)) : NULL;
  uint64_t *count = n ? malloc(n * sizeof(uint64_t)) : NULL;

  if (n && (index == NULL || count == NULL)) {
    free(index);
    free(count);
    return -1;
  }
  /* Both ascending: a merge of two sorted lists, equal buckets added. */
  while (i < dst->n || j < src->n) {
    if (j >= src->n || (i < dst->n && dst->index[i] < src->index[j])) {
      index[k] = dst->index[i];
      count[k++] = dst->count[i++];
    } else if (i >= dst->n || src->index[j] < dst->index[i]) {
      index[k] = src->index[j];
      count[k++] = src->count[j++];
    } else {
      index[k] = dst->index[i];
      count[k++] = dst->count[i++] + src->count[j++];
    }
  }
  free(dst->index);
  free(dst->count);
  dst->index = index;
  dst->count = count;
  dst->n = k;
  return 0;
}

uint64_t result_buckets_total(const result_buckets *b)
{
  uint64_t total = 0;
  for (size_t i = 0; i < b->n; i++)
    total += b->count[i];
  return total;
}

/* ------------------------------------------------------------------------------------------ */

double result_rate(uint64_t count, double seconds)
{
  return seconds > 0 ? (double) count / seconds : 0;
}

uint64_t result_queries(const result_period *p)
{
  return p->reads + p->writes + p->other;
}

uint64_t result_percentile_ns(const result_period *p, double pct)
{
  if (p->histogram.n == 0 || pct <= 0)
    return 0;
  latency_histogram *h = histogram_new();
  if (h == NULL)
    return 0;
  result_buckets_to_histogram(h, &p->histogram);
  uint64_t lo = p->has_extremes ? p->latency_min_ns : 1;
  uint64_t hi = p->has_extremes ? p->latency_max_ns : 0;    /* lo > hi: no clamping */
  uint64_t v = histogram_percentile(h, pct, lo, hi);
  histogram_free(h);
  return v;
}

double result_latency_avg_ns(const result_period *p)
{
  return p->events ? (double) p->latency_sum_ns / (double) p->events : 0;
}

int result_add_error_code(result_period *p, const char *code, uint64_t count)
{
  for (size_t i = 0; i < p->error_code_count; i++) {
    if (strcmp(p->error_codes[i].code, code) == 0) {
      p->error_codes[i].count += count;
      return 0;
    }
  }
  result_error_count *grown = realloc(p->error_codes,
                                      (p->error_code_count + 1) * sizeof(*grown));
  if (grown == NULL)
    return -1;
  p->error_codes = grown;
  snprintf(grown[p->error_code_count].code, sizeof(grown[0].code), "%s", code);
  grown[p->error_code_count++].count = count;
  return 0;
}

result_operation *result_operation_get(result_period *p, const char *name)
{
  for (size_t i = 0; i < p->operation_count; i++)
    if (strcmp(p->operations[i].name, name) == 0)
      return &p->operations[i];
  result_operation *grown = realloc(p->operations, (p->operation_count + 1) * sizeof(*grown));
  if (grown == NULL)
    return NULL;
  p->operations = grown;
  result_operation *o = &grown[p->operation_count++];
  memset(o, 0, sizeof(*o));
  snprintf(o->name, sizeof(o->name), "%s", name);
  return o;
}

int result_operation_add(result_operation *a, const result_operation *b)
{
  if (b->count > 0) {
    if (a->count == 0 || b->latency_min_ns < a->latency_min_ns)
      a->latency_min_ns = b->latency_min_ns;
    if (a->count == 0 || b->latency_max_ns > a->latency_max_ns)
      a->latency_max_ns = b->latency_max_ns;
  }
  a->count += b->count;
  a->latency_sum_ns += b->latency_sum_ns;
  return result_buckets_add(&a->histogram, &b->histogram);
}

uint64_t result_operation_percentile_ns(const result_operation *o, double pct)
{
  result_period p = { .histogram = o->histogram, .has_extremes = o->count > 0,
                      .latency_min_ns = o->latency_min_ns, .latency_max_ns = o->latency_max_ns };
  return result_percentile_ns(&p, pct);
}

int result_strings_push(char ***items, size_t *count, const char *text)
{
  char **grown = realloc(*items, (*count + 1) * sizeof(char *));
  if (grown == NULL)
    return -1;
  *items = grown;
  if ((grown[*count] = strdup(text)) == NULL)
    return -1;
  (*count)++;
  return 0;
}

int result_counter_set(result_counter **items, size_t *count, const char *name, uint64_t value)
{
  for (size_t i = 0; i < *count; i++) {
    if (strcmp((*items)[i].name, name) == 0) {
      (*items)[i].value = value;
      return 0;
    }
  }
  result_counter *grown = realloc(*items, (*count + 1) * sizeof(*grown));
  if (grown == NULL)
    return -1;
  *items = grown;
  if ((grown[*count].name = strdup(name)) == NULL)
    return -1;
  grown[(*count)++].value = value;
  return 0;
}

const char *result_option_value(const result_option *items, size_t count, const char *name,
                                bool *found)
{
  for (size_t i = 0; i < count; i++) {
    if (strcmp(items[i].name, name) == 0) {
      if (found != NULL)
        *found = true;
      return items[i].value;
    }
  }
  if (found != NULL)
    *found = false;
  return NULL;
}

char *result_time_text(uint64_t unix_ns, char *buf, size_t len)
{
  time_t t = (time_t) (unix_ns / 1000000000u);
  struct tm tm;
  gmtime_r(&t, &tm);
  if (strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm) == 0 && len > 0)
    buf[0] = '\0';
  return buf;
}
