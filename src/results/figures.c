/*
 * figures.c: which runs of the result documents are compared with which (groups by thread
 * count), and the figures shown for a run or any period of it (figures.h): tps, qps, rows/s,
 * latency average, percentiles and maximum, errors/s, reconnects/s.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "results/figures.h"

enum { METRIC_TPS, METRIC_QPS, METRIC_ROWS, METRIC_LAT_AVG, METRIC_LAT_PCT, METRIC_LAT_MAX,
       METRIC_ERRORS, METRIC_RECONNECTS };

size_t figures_thread_counts(const figures_source *src, size_t n, unsigned *out, size_t max)
{
  size_t count = 0;
  for (size_t s = 0; s < n; s++) {
    for (size_t r = 0; r < src[s].doc->run_count; r++) {
      unsigned t = src[s].doc->runs[r].threads;
      size_t i = 0;
      while (i < count && out[i] < t)
        i++;
      if ((i < count && out[i] == t) || count == max)
        continue;
      memmove(&out[i + 1], &out[i], (count - i) * sizeof(unsigned));
      out[i] = t;
      count++;
    }
  }
  return count;
}

const result_run *figures_run_with_threads(const result_doc *doc, unsigned threads)
{
  for (size_t r = 0; r < doc->run_count; r++)
    if (doc->runs[r].threads == threads)
      return &doc->runs[r];
  return NULL;
}

size_t figures_groups(const figures_source *src, size_t n, unsigned *threads, size_t max,
                      bool *single)
{
  bool all_single = n > 1, all_same = true;

  for (size_t s = 0; s < n; s++)
    all_single = all_single && src[s].doc->run_count == 1;
  for (size_t s = 1; all_single && s < n; s++)
    all_same = all_same && src[s].doc->runs[0].threads == src[0].doc->runs[0].threads;
  *single = all_single && !all_same;
  if (*single) {
    if (max == 0)
      return 0;
    threads[0] = 0;
    return 1;
  }
  return figures_thread_counts(src, n, threads, max);
}

const result_run *figures_group_run(const figures_source *s, bool single, unsigned threads)
{
  return single ? &s->doc->runs[0] : figures_run_with_threads(s->doc, threads);
}

void figures_add_percentile(double *out, size_t *count, size_t max, double p)
{
  size_t i = 0;
  while (i < *count && out[i] < p)
    i++;
  if ((i < *count && out[i] == p) || *count == max)
    return;
  memmove(&out[i + 1], &out[i], (*count - i) * sizeof(double));
  out[i] = p;
  (*count)++;
}

size_t figures_percentiles(const figures_source *src, size_t n, double *out, size_t max)
{
  size_t count = 0;
  figures_add_percentile(out, &count, max, 50);
  figures_add_percentile(out, &count, max, 95);
  figures_add_percentile(out, &count, max, 99);
  for (size_t s = 0; s < n; s++)
    for (size_t r = 0; r < src[s].doc->run_count; r++)
      for (size_t p = 0; p < src[s].doc->runs[r].percentile_count; p++)
        figures_add_percentile(out, &count, max, src[s].doc->runs[r].percentiles[p]);
  return count;
}

bool figures_any_run(const figures_source *src, size_t n, bool (*test)(const result_run *))
{
  for (size_t s = 0; s < n; s++)
    for (size_t r = 0; r < src[s].doc->run_count; r++)
      if (test(&src[s].doc->runs[r]))
        return true;
  return false;
}

bool figures_has_queries(const result_run *r) { return result_queries(&r->final) > 0; }
static bool has_rows(const result_run *r) { return r->final.rows > 0; }
static bool has_reconnects(const result_run *r) { return r->final.reconnects > 0; }

size_t figures_metrics(const figures_source *src, size_t n, figure *out, size_t max)
{
  double pcts[RUNNER_MAX_PERCENTILES + 3];
  size_t np = figures_percentiles(src, n, pcts, sizeof(pcts) / sizeof(pcts[0]));
  size_t count = 0;

#define ADD(kind_, pct_, ...) do { if (count < max) { \
    out[count].kind = (kind_); out[count].percentile = (pct_); \
    out[count].decimals = (kind_) >= METRIC_LAT_AVG && (kind_) <= METRIC_LAT_MAX ? 3 : 2; \
    snprintf(out[count].name, sizeof(out[count].name), __VA_ARGS__); count++; } } while (0)
  ADD(METRIC_TPS, 0, "tps");
  if (figures_any_run(src, n, figures_has_queries))
    ADD(METRIC_QPS, 0, "qps");
  if (figures_any_run(src, n, has_rows))
    ADD(METRIC_ROWS, 0, "rows/s");
  ADD(METRIC_LAT_AVG, 0, "latency avg (ms)");
  for (size_t i = 0; i < np; i++) {
    char p[32];
    ADD(METRIC_LAT_PCT, pcts[i], "latency p%s (ms)", percentile_text(pcts[i], p, sizeof(p)));
  }
  ADD(METRIC_LAT_MAX, 0, "latency max (ms)");
  ADD(METRIC_ERRORS, 0, "errors/s");
  if (figures_any_run(src, n, has_reconnects))
    ADD(METRIC_RECONNECTS, 0, "reconnects/s");
#undef ADD
  return count;
}

double figures_period_value(const figure *m, const result_period *p)
{
  bool latency = m->kind >= METRIC_LAT_AVG && m->kind <= METRIC_LAT_MAX;
  if (p->duration <= 0 || (latency && p->events == 0) ||
      (m->kind == METRIC_LAT_MAX && !p->has_extremes))
    return NAN;
  switch (m->kind) {
    case METRIC_TPS: return result_rate(p->events, p->duration);
    case METRIC_QPS: return result_rate(result_queries(p), p->duration);
    case METRIC_ROWS: return result_rate(p->rows, p->duration);
    case METRIC_LAT_AVG: return result_latency_avg_ns(p) / 1e6;
    case METRIC_LAT_PCT: return (double) result_percentile_ns(p, m->percentile) / 1e6;
    case METRIC_LAT_MAX: return (double) p->latency_max_ns / 1e6;
    case METRIC_ERRORS: return result_rate(p->errors, p->duration);
    case METRIC_RECONNECTS: return result_rate(p->reconnects, p->duration);
    default: return NAN;
  }
}

double figures_value(const figure *m, const result_run *r)
{
  if (!r->measured)
    return NAN;
  double v = figures_period_value(m, &r->final);
  return isnan(v) ? 0 : v;             /* a run without events: no latency, 0 tps */
}

char *figures_text(char *buf, size_t len, const figure *m, const result_run *r)
{
  double v = r != NULL ? figures_value(m, r) : NAN;
  if (isnan(v))
    snprintf(buf, len, "-");
  else
    snprintf(buf, len, "%.*f", m->decimals, v);
  return buf;
}
