/*
 * page.c: builds the charts of page.h from result documents and writes them into an SVG file
 * or an HTML page with the tables. Every figure comes from the final period of a run (the
 * whole measurement, or the time since its last checkpoint) and its histogram.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "results/caveats.h"
#include "results/figures.h"
#include "results/html.h"
#include "results/page.h"

#define MAX_THREAD_COUNTS 64
#define MAX_SERIES 64
#define MAX_CHARTS 200

/* ------------------------------------------------------------------------------------------ */
/* Charts                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Storage the charts point into, freed after the page is written. */
typedef struct {
  chart charts[MAX_CHARTS];
  size_t chart_count;
  chart_series series[MAX_CHARTS * 4];
  size_t series_used;
  char *strings[MAX_CHARTS * 8 + MAX_SERIES * 8];
  size_t string_count;
  double *arrays[MAX_CHARTS * 8];
  size_t array_count;
  char *categories_text[MAX_THREAD_COUNTS];
  const char *thread_categories[MAX_THREAD_COUNTS];
  unsigned threads[MAX_THREAD_COUNTS];
  size_t thread_count;
  const char *pct_categories[RUNNER_MAX_PERCENTILES + 4];
  char pct_text[RUNNER_MAX_PERCENTILES + 4][24];
  double pcts[RUNNER_MAX_PERCENTILES + 4];
  size_t pct_count;
} chart_set;

static char *keep_string(chart_set *cs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static char *keep_string(chart_set *cs, const char *fmt, ...)
{
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  if (cs->string_count == sizeof(cs->strings) / sizeof(cs->strings[0]))
    return (char *) "";
  char *s = strdup(buf);
  cs->strings[cs->string_count++] = s;
  return s ? s : (char *) "";
}

static double *keep_array(chart_set *cs, size_t n)
{
  if (cs->array_count == sizeof(cs->arrays) / sizeof(cs->arrays[0]))
    return NULL;
  double *a = calloc(n ? n : 1, sizeof(double));
  cs->arrays[cs->array_count++] = a;
  return a;
}

static void chart_set_free(chart_set *cs)
{
  for (size_t i = 0; i < cs->string_count; i++)
    free(cs->strings[i]);
  for (size_t i = 0; i < cs->array_count; i++)
    free(cs->arrays[i]);
  for (size_t i = 0; i < cs->thread_count; i++)
    free(cs->categories_text[i]);
  free(cs);
}

static chart *new_chart(chart_set *cs, const char *title, const char *x_label,
                        const char *y_label)
{
  if (cs->chart_count == MAX_CHARTS)
    return NULL;
  chart *c = &cs->charts[cs->chart_count++];
  memset(c, 0, sizeof(*c));
  c->title = title;
  c->x_label = x_label;
  c->y_label = y_label;
  c->series = &cs->series[cs->series_used];
  return c;
}

static chart_series *new_series(chart_set *cs, chart *c, const char *name, size_t capacity)
{
  if (cs->series_used == sizeof(cs->series) / sizeof(cs->series[0]))
    return NULL;
  chart_series *s = &cs->series[cs->series_used++];
  double *x = keep_array(cs, capacity), *y = keep_array(cs, capacity);
  if (x == NULL || y == NULL) {
    cs->series_used--;
    return NULL;
  }
  *s = (chart_series) { .name = name, .n = 0, .x = x, .y = y };
  c->series_count++;
  return s;
}

static void push_point(chart_series *s, double x, double y)
{
  ((double *) s->x)[s->n] = x;
  ((double *) s->y)[s->n] = y;
  s->n++;
}

/* The name a source's series go by: its label, with the file when there are several. */
static const char *series_name(chart_set *cs, const figures_source *src, size_t n, size_t s,
                               const char *suffix)
{
  if (n == 1)
    return suffix ? keep_string(cs, "%s", suffix) : keep_string(cs, "%s", src[s].name);
  return suffix ? keep_string(cs, "%s %s", src[s].label, suffix)
                : keep_string(cs, "%s: %s", src[s].label, src[s].name);
}

typedef double (*run_value)(const result_run *r, double arg);

static double value_tps(const result_run *r, double arg)
{
  (void) arg;
  return result_rate(r->final.events, r->final.duration);
}

static double value_qps(const result_run *r, double arg)
{
  (void) arg;
  return result_rate(result_queries(&r->final), r->final.duration);
}

static double value_pct(const result_run *r, double pct)
{
  return (double) result_percentile_ns(&r->final, pct) / 1e6;
}

/* A chart over the thread counts: one series per source (and per argument, e.g. p95/p99). */
static void per_thread_chart(chart_set *cs, const figures_source *src, size_t n, const char *title,
                             const char *y_label, run_value value, const double *args,
                             const char *const *arg_names, size_t nargs)
{
  chart *c = new_chart(cs, title, "threads", y_label);
  if (c == NULL)
    return;
  c->categories = cs->thread_categories;
  c->category_count = cs->thread_count;
  for (size_t a = 0; a < nargs; a++) {
    for (size_t s = 0; s < n; s++) {
      chart_series *se = new_series(cs, c, series_name(cs, src, n, s, arg_names[a]),
                                    cs->thread_count);
      if (se == NULL)
        return;
      for (size_t t = 0; t < cs->thread_count; t++) {
        const result_run *r = figures_run_with_threads(src[s].doc, cs->threads[t]);
        if (r != NULL && r->measured)        /* a run that failed before has no point */
          push_point(se, (double) t, value(r, args[a]));
      }
    }
  }
}

/* " , 8 threads" for a group of one thread count; "" for the group of single runs. */
static const char *group_suffix(chart_set *cs, bool single, unsigned threads)
{
  if (single)
    return "";
  return keep_string(cs, ", %u thread%s", threads, threads == 1 ? "" : "s");
}

static void percentile_chart(chart_set *cs, const figures_source *src, size_t n, bool single,
                             unsigned threads)
{
  bool any = false;
  for (size_t s = 0; s < n; s++) {
    const result_run *r = figures_group_run(&src[s], single, threads);
    any = any || (r != NULL && r->measured);
  }
  if (!any)                            /* only runs that failed before measuring */
    return;
  chart *c = new_chart(cs, keep_string(cs, "Latency percentiles%s",
                                       group_suffix(cs, single, threads)),
                       "percentile", "latency (ms)");
  if (c == NULL)
    return;
  c->categories = cs->pct_categories;
  c->category_count = cs->pct_count;
  for (size_t s = 0; s < n; s++) {
    const result_run *r = figures_group_run(&src[s], single, threads);
    if (r == NULL || !r->measured)
      continue;
    chart_series *se = new_series(cs, c, series_name(cs, src, n, s, NULL), cs->pct_count);
    if (se == NULL)
      return;
    for (size_t p = 0; p < cs->pct_count; p++)
      push_point(se, (double) p, value_pct(r, cs->pcts[p]));
  }
}

static void over_time_chart(chart_set *cs, const figures_source *src, size_t n, bool single,
                            unsigned threads)
{
  bool any = false;
  for (size_t s = 0; s < n; s++) {
    const result_run *r = figures_group_run(&src[s], single, threads);
    any = any || (r != NULL && r->interval_count > 0);
  }
  if (!any)
    return;
  chart *c = new_chart(cs, keep_string(cs, "Throughput over time%s",
                                       group_suffix(cs, single, threads)),
                       "time (s)", "transactions per second");
  if (c == NULL)
    return;
  for (size_t s = 0; s < n; s++) {
    const result_run *r = figures_group_run(&src[s], single, threads);
    if (r == NULL || r->interval_count == 0)
      continue;
    chart_series *se = new_series(cs, c, series_name(cs, src, n, s, NULL), r->interval_count);
    if (se == NULL)
      return;
    for (size_t i = 0; i < r->interval_count; i++)
      push_point(se, r->intervals[i].time,
                 result_rate(r->intervals[i].events, r->intervals[i].duration));
  }
}

/* The charts per thread count: throughput, queries (SQL tests), p95/p99 latency. */
static void summary_charts(chart_set *cs, const figures_source *src, size_t n)
{
  static const double none[] = {0};
  static const char *const no_name[] = {NULL};
  static const double p9599[] = {95, 99};
  static const char *const p9599_names[] = {"p95", "p99"};

  per_thread_chart(cs, src, n, "Throughput per thread count", "transactions per second",
                   value_tps, none, no_name, 1);
  if (figures_any_run(src, n, figures_has_queries))
    per_thread_chart(cs, src, n, "Queries per second per thread count", "queries per second",
                     value_qps, none, no_name, 1);
  per_thread_chart(cs, src, n, "Latency per thread count", "latency (ms)", value_pct, p9599,
                   p9599_names, 2);
}

static chart_set *chart_set_new(const figures_source *src, size_t n)
{
  chart_set *cs = calloc(1, sizeof(*cs));
  if (cs == NULL)
    return NULL;
  cs->thread_count = figures_thread_counts(src, n, cs->threads, MAX_THREAD_COUNTS);
  for (size_t t = 0; t < cs->thread_count; t++) {
    char buf[16];
    snprintf(buf, sizeof(buf), "%u", cs->threads[t]);
    cs->categories_text[t] = strdup(buf);
    cs->thread_categories[t] = cs->categories_text[t] ? cs->categories_text[t] : "?";
  }
  /* Percentile chart columns: the usual ones and every percentile the runs asked for. */
  size_t np = figures_percentiles(src, n, cs->pcts, RUNNER_MAX_PERCENTILES + 3);
  figures_add_percentile(cs->pcts, &np, RUNNER_MAX_PERCENTILES + 4, 99.9);
  cs->pct_count = np;
  for (size_t p = 0; p < np; p++) {
    char num[20];
    snprintf(cs->pct_text[p], sizeof(cs->pct_text[p]), "p%s",
             percentile_text(cs->pcts[p], num, sizeof(num)));
    cs->pct_categories[p] = cs->pct_text[p];
  }
  return cs;
}

int page_write_svg(const char *path, const figures_source *src, size_t n)
{
  chart_set *cs = chart_set_new(src, n);
  if (cs == NULL) {
    errno = ENOMEM;
    return -1;
  }
  summary_charts(cs, src, n);
  int rc = svg_write_file(path, cs->charts, cs->chart_count);
  chart_set_free(cs);
  return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* The page                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* "0" or "0, 0, 1": the exit code of every run of a document, in its order. */
static void exit_codes_text(const result_doc *d, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t r = 0; r < d->run_count && used < len; r++)
    used += (size_t) snprintf(buf + used, len - used, "%s%d", r ? ", " : "",
                              d->runs[r].exit_code);
}

static bool any_failed(const result_doc *d)
{
  for (size_t r = 0; r < d->run_count; r++)
    if (d->runs[r].exit_code != 0)
      return true;
  return false;
}

static void describe_sources(FILE *out, const figures_source *src, size_t n)
{
  static const char *const header[] = {"", "file", "test", "threads", "started (UTC)", "hosts",
                                       "server", "exit codes"};
  html_table_begin(out);
  html_table_row(out, header, 8, 1);
  for (size_t s = 0; s < n; s++) {
    const result_doc *d = src[s].doc;
    const result_run *first = &d->runs[0];
    char threads[256] = "", started[64] = "", hosts[256] = "", codes[256];
    size_t used = 0;
    for (size_t r = 0; r < d->run_count && used < sizeof(threads); r++)
      used += (size_t) snprintf(threads + used, sizeof(threads) - used, "%s%u", r ? "," : "",
                                d->runs[r].threads);
    result_time_text(first->start_unix_ns, started, sizeof(started));
    used = 0;
    for (size_t c = 0; c < first->client_count && used < sizeof(hosts); c++)
      used += (size_t) snprintf(hosts + used, sizeof(hosts) - used, "%s%s", c ? ", " : "",
                                first->clients[c].host ? first->clients[c].host : "?");
    exit_codes_text(d, codes, sizeof(codes));
    const char *cells[] = {src[s].label, src[s].name, first->test, threads, started, hosts,
                           first->server_version ? first->server_version
                           : first->driver ? first->driver : "-", codes};
    html_table_row_class(out, cells, 8, 0, any_failed(d) ? "failed" : NULL);
  }
  html_table_end(out);
}

/* The command line of each source (its first run's: a sweep's runs share it). */
static void command_lines(FILE *out, const figures_source *src, size_t n)
{
  html_heading(out, 2, n > 1 ? "Command lines" : "Command line");
  for (size_t s = 0; s < n; s++) {
    const result_run *first = &src[s].doc->runs[0];
    if (first->argc == 0)
      html_paragraph(out, "(the file has no command line)");
    else
      html_command(out, n > 1 ? src[s].label : NULL, (const char *const *) first->argv,
                   first->argc);
  }
}

static void ratio_cell(char *buf, size_t len, const figure *m, const result_run *base,
                       const result_run *r)
{
  if (r == NULL || base == NULL)
    snprintf(buf, len, "-");
  else
    caveats_ratio_text(buf, len, figures_value(m, base), figures_value(m, r),
                       caveats_spread(m, base), caveats_spread(m, r));
}

static void ratio_table(FILE *out, const figures_source *src, size_t n, bool single,
                        unsigned threads)
{
  figure metrics[40];
  size_t nm = figures_metrics(src, n, metrics, 40);
  const char *cells[2 + 2 * MAX_SERIES];
  char text[2 * MAX_SERIES][32];
  size_t cols = n < MAX_SERIES ? n : MAX_SERIES;

  html_table_begin(out);
  cells[0] = "";
  size_t k = 1;
  for (size_t s = 0; s < cols; s++)
    cells[k++] = src[s].label;
  for (size_t s = 1; s < cols; s++) {
    snprintf(text[s], sizeof(text[s]), "%s/%s", src[s].label, src[0].label);
    cells[k++] = text[s];
  }
  html_table_row(out, cells, k, 1);
  if (single) {
    k = 0;
    cells[k++] = "threads";
    for (size_t s = 0; s < cols; s++) {
      snprintf(text[s], sizeof(text[s]), "%u", src[s].doc->runs[0].threads);
      cells[k++] = text[s];
    }
    for (size_t s = 1; s < cols; s++)
      cells[k++] = "";
    html_table_row(out, cells, k, 0);
  }

  const result_run *base = figures_group_run(&src[0], single, threads);
  for (size_t m = 0; m < nm; m++) {
    k = 0;
    cells[k++] = metrics[m].name;
    for (size_t s = 0; s < cols; s++)
      cells[k++] = figures_text(text[s], sizeof(text[s]), &metrics[m],
                                figures_group_run(&src[s], single, threads));
    for (size_t s = 1; s < cols; s++) {
      ratio_cell(text[cols + s], sizeof(text[cols + s]), &metrics[m], base,
                 figures_group_run(&src[s], single, threads));
      cells[k++] = text[cols + s];
    }
    html_table_row(out, cells, k, 0);
  }
  html_table_end(out);
}

/* The table of one source: a row per thread count, a column per figure, its exit code; a
   run that failed is shown in red. */
static void sweep_table(FILE *out, const figures_source *src)
{
  figure metrics[40];
  size_t nm = figures_metrics(src, 1, metrics, 40);
  const char *cells[42];
  char text[42][32];
  const result_doc *d = src->doc;

  html_table_begin(out);
  cells[0] = "threads";
  for (size_t m = 0; m < nm; m++)
    cells[m + 1] = metrics[m].name;
  cells[nm + 1] = "exit code";
  html_table_row(out, cells, nm + 2, 1);
  for (size_t r = 0; r < d->run_count; r++) {
    const result_run *run = &d->runs[r];
    snprintf(text[0], sizeof(text[0]), "%u", run->threads);
    cells[0] = text[0];
    for (size_t m = 0; m < nm; m++)
      cells[m + 1] = figures_text(text[m + 1], sizeof(text[m + 1]), &metrics[m], run);
    snprintf(text[nm + 1], sizeof(text[nm + 1]), "%d", run->exit_code);
    cells[nm + 1] = text[nm + 1];
    html_table_row_class(out, cells, nm + 2, 0, run->exit_code != 0 ? "failed" : NULL);
  }
  html_table_end(out);
}

/* The options a run's file knows: every effective value (version 2), else the typed ones. */
static const result_option *known_options(const result_run *r, size_t *count)
{
  *count = r->effective_count ? r->effective_count : r->option_count;
  return r->effective_count ? r->effective : r->options;
}

/* Every option of one source, given or default; of several, those given to any or differing
   between them. */
static void options_table(FILE *out, const figures_source *src, size_t n)
{
  const char *cells[2 + MAX_SERIES];
  size_t cols = n < MAX_SERIES ? n : MAX_SERIES;
  bool header_done = false;

  html_heading(out, 2, "Options");
  for (size_t s = 0; s < cols; s++) {
    size_t count, other_count;
    const result_option *list = known_options(&src[s].doc->runs[0], &count);
    for (size_t i = 0; i < count; i++) {
      const char *name = list[i].name;
      bool seen = false, given = false, differs = false;
      for (size_t t = 0; t < s && !seen; t++) {   /* listed with an earlier source */
        const result_option *other = known_options(&src[t].doc->runs[0], &other_count);
        result_option_value(other, other_count, name, &seen);
      }
      if (seen)
        continue;
      char values[MAX_SERIES][160];
      for (size_t t = 0; t < cols; t++) {
        const result_run *e = &src[t].doc->runs[0];
        const result_option *other = known_options(e, &other_count);
        bool found, typed;
        const char *v = result_option_value(other, other_count, name, &found);
        result_option_value(e->options, e->option_count, name, &typed);
        given = given || typed;
        snprintf(values[t], sizeof(values[t]), "%s", !found ? "-" : v ? v : "(none)");
        differs = differs || strcmp(values[t], values[0]) != 0;
        cells[1 + t] = values[t];
      }
      if (n > 1 && !given && !differs)
        continue;
      if (!header_done) {
        const char *head[2 + MAX_SERIES];
        head[0] = "option";
        for (size_t t = 0; t < cols; t++)
          head[1 + t] = n > 1 ? src[t].label : "value";
        head[1 + cols] = "given";
        html_table_begin(out);
        html_table_row(out, head, cols + 2, 1);
        header_done = true;
      }
      cells[0] = name;
      cells[1 + cols] = given ? "yes" : "";
      html_table_row(out, cells, cols + 2, 0);
    }
  }
  if (header_done)
    html_table_end(out);
  html_paragraph(out, n > 1 ? "Options given to any of the runs or differing between them, "
                 "as each first run used them; '-': not an option of that run, '(none)': no "
                 "value. Passwords are masked."
                 : "Every option as the first run used it; 'given': typed on the command line "
                 "or in a config file, else the default. Passwords are masked.");
}

int page_write_html(const char *path, const char *title, const figures_source *src, size_t n)
{
  FILE *out = fopen(path, "w");
  if (out == NULL)
    return -1;
  chart_set *cs = chart_set_new(src, n);
  if (cs == NULL) {
    fclose(out);
    errno = ENOMEM;
    return -1;
  }

  html_begin(out, title);
  html_heading(out, 1, title);
  describe_sources(out, src, n);
  size_t nw;
  char **warnings = caveats_warnings(src, n, &nw);
  html_warnings(out, (const char *const *) warnings, nw);
  caveats_free(warnings, nw);
  command_lines(out, src, n);
  if (n == 1) {
    html_heading(out, 2, "Per thread count");
    sweep_table(out, &src[0]);
  }
  unsigned groups[MAX_THREAD_COUNTS];
  bool single;
  size_t ng = figures_groups(src, n, groups, MAX_THREAD_COUNTS, &single);
  for (size_t g = 0; n > 1 && g < ng; g++) {
    char heading[64];
    if (single)
      snprintf(heading, sizeof(heading), "Runs");
    else
      snprintf(heading, sizeof(heading), "%u thread%s", groups[g], groups[g] == 1 ? "" : "s");
    html_heading(out, 2, heading);
    ratio_table(out, src, n, single, groups[g]);
  }
  html_paragraph(out, n > 1 ? "Ratios are to the first file (A), each with its noise band "
                 "(\xc2\xb1): how much the two runs' figures moved from interval to interval "
                 "(see docs/results.md, Noise; \xc2\xb1?: fewer than 3 intervals). Figures "
                 "cover each run's final report: the whole measurement, or the time since its "
                 "last checkpoint; '-': no figures (a run that failed before its measurement)."
                 : "Figures cover each run's final report: the whole measurement, or the time "
                 "since its last checkpoint. Latencies are in milliseconds; '-': no figures (a "
                 "run that failed before its measurement).");

  html_heading(out, 2, "Charts");
  summary_charts(cs, src, n);
  for (size_t g = 0; g < ng; g++)
    percentile_chart(cs, src, n, single, groups[g]);
  for (size_t g = 0; g < ng; g++)
    over_time_chart(cs, src, n, single, groups[g]);
  for (size_t i = 0; i < cs->chart_count; i++)
    html_chart(out, &cs->charts[i]);
  options_table(out, src, n);
  html_end(out);
  chart_set_free(cs);
  return fclose(out) == 0 ? 0 : -1;
}
