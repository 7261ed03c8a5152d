/*
 * merge.c: adds up the runs of several clients (merge.h). Counts, statement kinds, errors by
 * code and histograms add; extremes take the min and max; per-thread figures are listed one
 * client after the other, so thread fairness covers every connection. Time is the union of the
 * clients' windows on the wall clock; intervals are matched by the wall-clock tick they end
 * on, which is the same tick for clients started together (--start-at).
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logger.h"
#include "results/merge.h"

typedef struct {
  char *err;
  size_t errlen;
} merge_ctx;

static int fail(merge_ctx *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(merge_ctx *m, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->err, m->errlen, fmt, ap);
  va_end(ap);
  return -1;
}

static bool same_text(const char *a, const char *b)
{
  return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Concatenate b's per-thread figures after a's. */
static int append_threads(result_period *a, const result_period *b)
{
  if (b->thread_count == 0)          /* intervals have no per-thread figures */
    return 0;
  size_t n = a->thread_count + b->thread_count;
  uint64_t *e = realloc(a->thread_events, (n ? n : 1) * sizeof(uint64_t));
  if (e == NULL)
    return -1;
  a->thread_events = e;
  uint64_t *t = realloc(a->thread_time_ns, (n ? n : 1) * sizeof(uint64_t));
  if (t == NULL)
    return -1;
  a->thread_time_ns = t;
  memcpy(e + a->thread_count, b->thread_events, b->thread_count * sizeof(uint64_t));
  memcpy(t + a->thread_count, b->thread_time_ns, b->thread_count * sizeof(uint64_t));
  a->thread_count = n;
  return 0;
}

/* a += b: everything that adds up. The time fields are the caller's. */
static int add_period(result_period *a, const result_period *b)
{
  a->threads_running += b->threads_running;
  a->events += b->events;
  a->reads += b->reads;
  a->writes += b->writes;
  a->other += b->other;
  a->errors += b->errors;
  a->reconnects += b->reconnects;
  a->rows += b->rows;
  a->bytes_read += b->bytes_read;
  a->bytes_written += b->bytes_written;
  for (unsigned k = 0; k < SB_STMT_KINDS; k++)
    a->statements[k] += b->statements[k];
  for (size_t i = 0; i < b->error_code_count; i++)
    if (result_add_error_code(a, b->error_codes[i].code, b->error_codes[i].count) != 0)
      return -1;
  a->latency_sum_ns += b->latency_sum_ns;
  /* Only final periods and checkpoints have extremes; merge_period starts them empty. */
  if (a->has_extremes && b->has_extremes && b->events > 0) {
    if (b->latency_min_ns < a->latency_min_ns)
      a->latency_min_ns = b->latency_min_ns;
    if (b->latency_max_ns > a->latency_max_ns)
      a->latency_max_ns = b->latency_max_ns;
  }
  if (b->has_queue) {
    a->has_queue = true;
    a->queue_length += b->queue_length;
    a->concurrency += b->concurrency;
  }
  if (result_buckets_add(&a->histogram, &b->histogram) != 0)
    return -1;
  for (size_t i = 0; i < b->operation_count; i++) {
    result_operation *o = result_operation_get(a, b->operations[i].name);
    if (o == NULL || result_operation_add(o, &b->operations[i]) != 0)
      return -1;
  }
  return append_threads(a, b);
}

/* A period's window on the wall clock (ns): [end - duration, end]. */
static void window(const result_run *r, const result_period *p, double *begin, double *end)
{
  *end = (double) r->start_unix_ns + p->time * 1e9;
  *begin = *end - p->duration * 1e9;
}

/* Merge the final period (or checkpoint `cp` when >= 0) of every run into `out`. */
static int merge_period(const result_run *const *runs, size_t n, long cp, uint64_t base_ns,
                        result_period *out)
{
  double begin = INFINITY, end = -INFINITY;

  memset(out, 0, sizeof(*out));
  out->has_extremes = true;
  out->latency_min_ns = UINT64_MAX;
  for (size_t j = 0; j < n; j++) {
    const result_period *p = cp >= 0 ? &runs[j]->checkpoints[cp] : &runs[j]->final;
    double b, e;
    window(runs[j], p, &b, &e);
    if (b < begin)
      begin = b;
    if (e > end)
      end = e;
    if (add_period(out, p) != 0)
      return -1;
  }
  if (out->events == 0)
    out->latency_min_ns = out->latency_max_ns = 0;
  out->time = (end - (double) base_ns) / 1e9;
  out->duration = (end - begin) / 1e9;
  return 0;
}

static int merge_intervals(const result_run *const *runs, size_t n, uint64_t base_ns,
                           double interval, result_run *out)
{
  long offset[n];
  size_t total = 0;

  for (size_t j = 0; j < n; j++) {
    offset[j] = lround(((double) runs[j]->start_unix_ns - (double) base_ns) / 1e9 / interval);
    size_t last = (size_t) offset[j] + runs[j]->interval_count;
    if (runs[j]->interval_count > 0 && last > total)
      total = last;
  }
  for (size_t m = 0; m < total; m++) {
    result_period *p = result_periods_push(&out->intervals, &out->interval_count);
    if (p == NULL)
      return -1;
    p->time = (double) (m + 1) * interval;
    p->duration = 0;
    for (size_t j = 0; j < n; j++) {
      long k = (long) m - offset[j];
      if (k < 0 || (size_t) k >= runs[j]->interval_count)
        continue;
      const result_period *src = &runs[j]->intervals[k];
      if (add_period(p, src) != 0)
        return -1;
      if (src->duration > p->duration)
        p->duration = src->duration;
    }
    if (p->duration == 0)
      p->duration = interval;
  }
  return 0;
}

static int copy_clients(const result_run *r, const char *name, result_run *out)
{
  result_client *grown = realloc(out->clients,
                                 (out->client_count + r->client_count) * sizeof(*grown));
  if (grown == NULL)
    return -1;
  out->clients = grown;
  for (size_t c = 0; c < r->client_count; c++) {
    const result_client *src = &r->clients[c];
    result_client *dst = &out->clients[out->client_count++];
    *dst = *src;
    dst->host = result_strdup(src->host);
    dst->os = result_strdup(src->os);
    dst->source = result_strdup(src->source ? src->source : name);
    dst->run_id = result_strdup(src->run_id);
  }
  return 0;
}

static int copy_options(const result_option *items, size_t count, result_option **out,
                        size_t *out_count)
{
  *out = calloc(count ? count : 1, sizeof(result_option));
  if (*out == NULL)
    return -1;
  for (size_t i = 0; i < count; i++, (*out_count)++) {
    (*out)[i].name = result_strdup(items[i].name);
    (*out)[i].value = result_strdup(items[i].value);
    if ((*out)[i].name == NULL || (items[i].value != NULL && (*out)[i].value == NULL))
      return -1;
  }
  return 0;
}

static int copy_identity(const result_run *first, result_run *out)
{
  out->test = result_strdup(first->test);
  out->sysbench_version = result_strdup(first->sysbench_version);
  out->tool = result_strdup(first->tool);
  out->tool_version = result_strdup(first->tool_version);
  out->tool_commit = result_strdup(first->tool_commit);
  out->driver = result_strdup(first->driver);
  out->percentile_count = first->percentile_count;
  memcpy(out->percentiles, first->percentiles, sizeof(out->percentiles));
  out->report_interval = first->report_interval;
  out->argv = calloc(first->argc ? first->argc : 1, sizeof(char *));
  if (out->test == NULL || out->argv == NULL)
    return -1;
  for (size_t i = 0; i < first->argc; i++, out->argc++)
    out->argv[i] = result_strdup(first->argv[i]);
  return copy_options(first->options, first->option_count, &out->options,
                      &out->option_count) ||
         copy_options(first->effective, first->effective_count, &out->effective,
                      &out->effective_count) ? -1 : 0;
}

/* The errors of every client, each after the file it came from; the engines' counts added. */
static int merge_notes(const result_run *r, const char *name, result_run *out)
{
  for (size_t i = 0; i < r->error_count; i++) {
    size_t n = strlen(name) + strlen(r->errors[i]) + 3;
    char *text = malloc(n);
    if (text == NULL)
      return -1;
    snprintf(text, n, "%s: %s", name, r->errors[i]);
    int rc = result_strings_push(&out->errors, &out->error_count, text);
    free(text);
    if (rc != 0)
      return -1;
  }
  for (size_t i = 0; i < r->driver_stat_count; i++) {
    bool found = false;
    uint64_t sum = r->driver_stats[i].value;
    for (size_t k = 0; k < out->driver_stat_count && !found; k++)
      if (strcmp(out->driver_stats[k].name, r->driver_stats[i].name) == 0) {
        sum += out->driver_stats[k].value;
        found = true;
      }
    if (result_counter_set(&out->driver_stats, &out->driver_stat_count,
                           r->driver_stats[i].name, sum) != 0)
      return -1;
  }
  return 0;
}

static int check_runs(merge_ctx *m, const result_run *const *runs, const char *const *names,
                      size_t n, size_t index, bool sweep)
{
  const result_run *a = runs[0];
  for (size_t j = 1; j < n; j++) {
    const result_run *b = runs[j];
    if (!same_text(a->test, b->test))
      return fail(m, "mismatched runs: %s ran '%s', %s ran '%s'", names[0], a->test, names[j],
                  b->test);
    if (!same_text(a->driver, b->driver))
      return fail(m, "mismatched runs: %s used the %s driver, %s the %s driver", names[0],
                  a->driver ? a->driver : "no", names[j], b->driver ? b->driver : "no");
    if (sweep && a->threads != b->threads)
      return fail(m, "mismatched runs: run %zu of %s has %u threads, of %s %u threads (the "
                  "sweeps must use the same thread counts)", index + 1, names[0], a->threads,
                  names[j], b->threads);
    if ((a->interval_count > 0) != (b->interval_count > 0))
      return fail(m, "mismatched runs: %s has intervals, %s has none (record both with the "
                  "same --report-interval)", a->interval_count ? names[0] : names[j],
                  a->interval_count ? names[j] : names[0]);
    if (a->interval_count > 0 && fabs(a->report_interval - b->report_interval) > 1e-9)
      return fail(m, "mismatched runs: intervals of %gs in %s and of %gs in %s cannot be "
                  "aligned (use the same --report-interval)", a->report_interval, names[0],
                  b->report_interval, names[j]);
    if (a->checkpoint_count != b->checkpoint_count)
      return fail(m, "mismatched runs: %s has %zu checkpoints, %s has %zu", names[0],
                  a->checkpoint_count, names[j], b->checkpoint_count);
  }
  return 0;
}

static int merge_run(merge_ctx *m, const result_run *const *runs, const char *const *names,
                     size_t n, result_run *out)
{
  uint64_t base = UINT64_MAX, latest = 0;
  double longest = 0;

  if (copy_identity(runs[0], out) != 0)
    return fail(m, "out of memory");
  out->measured = true;
  for (size_t j = 0; j < n; j++) {
    const result_run *r = runs[j];
    out->measured = out->measured && r->measured;
    if (r->exit_code != 0)
      log_text(LOG_WARNING, "%s: its %s run with %u threads failed (exit code %d); the merged "
               "run has that exit code and counts what it measured", names[j], r->test,
               r->threads, r->exit_code);
    if (merge_notes(r, names[j], out) != 0)
      return fail(m, "out of memory");
    out->threads += r->threads;
    out->event_limit += r->event_limit;
    out->rate += r->rate;
    if (r->time_limit > out->time_limit)
      out->time_limit = r->time_limit;
    if (r->warmup_time > out->warmup_time)
      out->warmup_time = r->warmup_time;
    if (out->server_version == NULL && r->server_version != NULL)
      out->server_version = result_strdup(r->server_version);
    if (r->exit_code > out->exit_code)
      out->exit_code = r->exit_code;
    if (r->start_unix_ns < base)
      base = r->start_unix_ns;
    if (r->start_unix_ns > latest)
      latest = r->start_unix_ns;
    if (r->final.time > longest)
      longest = r->final.time;
    if (copy_clients(r, names[j], out) != 0)
      return fail(m, "out of memory");
  }
  out->start_unix_ns = base;

  /* Clients started with one --start-at begin within milliseconds; a spread beyond 5 % of
     the run (or half an interval) makes the union of the windows longer than any client's
     run, and the rates lower than the load was. */
  double spread = (double) (latest - base) / 1e9;
  double tolerance = 0.002 + 0.05 * longest;
  if (runs[0]->interval_count > 0 && runs[0]->report_interval / 2 < tolerance)
    tolerance = runs[0]->report_interval / 2;
  if (spread > tolerance)
    log_text(LOG_WARNING, "the %s runs started up to %.3f seconds apart (start the clients with "
             "--start-at); rates cover the union of their time windows", runs[0]->test, spread);

  if (merge_period(runs, n, -1, base, &out->final) != 0)
    return fail(m, "out of memory");
  for (size_t c = 0; c < runs[0]->checkpoint_count; c++) {
    result_period *p = result_periods_push(&out->checkpoints, &out->checkpoint_count);
    if (p == NULL || merge_period(runs, n, (long) c, base, p) != 0)
      return fail(m, "out of memory");
  }
  if (runs[0]->interval_count > 0 &&
      merge_intervals(runs, n, base, runs[0]->report_interval, out) != 0)
    return fail(m, "out of memory");
  return 0;
}

/* One client's run in two places? By its run id; files written before run ids by host, start
   to the nanosecond and process. */
static bool same_client_run(const result_client *a, const result_client *b)
{
  if (a->run_id != NULL && b->run_id != NULL)
    return strcmp(a->run_id, b->run_id) == 0;
  return a->start_unix_ns == b->start_unix_ns && same_text(a->host, b->host) &&
         (a->pid == 0 || b->pid == 0 || a->pid == b->pid);
}

/* A run found in two files (the same file given twice, or a client's file beside a merge that
   already holds it) would be counted twice: refused. */
static int check_distinct(merge_ctx *m, const result_doc *docs, const char *const *names,
                          size_t n)
{
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++)
      for (size_t r = 0; r < docs[i].run_count; r++)
        for (size_t q = 0; q < docs[j].run_count; q++)
          for (size_t c = 0; c < docs[i].runs[r].client_count; c++)
            for (size_t d = 0; d < docs[j].runs[q].client_count; d++) {
              const result_client *a = &docs[i].runs[r].clients[c];
              const result_client *b = &docs[j].runs[q].clients[d];
              char started[32];
              if (same_client_run(a, b))
                return fail(m, "%s and %s hold the same run (%s, %u threads, started %s UTC "
                            "on %s%s%s): merging would count it twice (merge each client's "
                            "file once)", names[i], names[j], docs[i].runs[r].test,
                            a->threads, result_time_text(a->start_unix_ns, started,
                                                         sizeof(started)),
                            a->host ? a->host : "an unknown host", a->run_id ? ", run id " : "",
                            a->run_id ? a->run_id : "");
            }
  return 0;
}

int merge_documents(const result_doc *docs, const char *const *names, size_t n,
                    result_doc *out, char *err, size_t errlen)
{
  merge_ctx m = { .err = err, .errlen = errlen };
  const result_run *runs[n];

  memset(out, 0, sizeof(*out));
  if (errlen > 0)
    err[0] = '\0';
  if (check_distinct(&m, docs, names, n) != 0)
    return -1;
  for (size_t j = 1; j < n; j++)
    if (docs[j].run_count != docs[0].run_count)
      return fail(&m, "mismatched runs: %s has %zu runs, %s has %zu (merge files of the same "
                  "sweep, or single runs)", names[0], docs[0].run_count, names[j],
                  docs[j].run_count);
  for (size_t i = 0; i < docs[0].run_count; i++) {
    result_run merged;
    memset(&merged, 0, sizeof(merged));
    for (size_t j = 0; j < n; j++)
      runs[j] = &docs[j].runs[i];
    if (check_runs(&m, runs, names, n, i, docs[0].run_count > 1) != 0 ||
        merge_run(&m, runs, names, n, &merged) != 0 || result_doc_add_run(out, &merged) != 0) {
      result_run_free(&merged);
      result_doc_free(out);
      if (err[0] == '\0')
        fail(&m, "out of memory");
      return -1;
    }
  }
  return 0;
}
