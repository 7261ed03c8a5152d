/*
 * figures.h: the runs of one or several result documents as they are compared (matched by
 * thread count, or side by side when each document holds one run) and the figures shown for
 * them in tables: `compare`, the pages and the noise of a ratio (caveats.h) read them here.
 */
#ifndef SB_RESULTS_FIGURES_H
#define SB_RESULTS_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "results/result.h"

/* The documents to show, each with a short label ("A", "B" ...) and where it came from. */
typedef struct figures_source {
  const result_doc *doc;
  const char *label;
  const char *name;            /* file name, or the test's name for a fresh sweep */
} figures_source;

/* The thread counts of all documents, ascending and distinct; returns how many (at most max). */
size_t figures_thread_counts(const figures_source *src, size_t n, unsigned *out, size_t max);
/* The run of `doc` with `threads` threads, or NULL. */
const result_run *figures_run_with_threads(const result_doc *doc, unsigned threads);

/* The groups runs are compared in: one per thread count, or, when every document holds a
   single run, one group of those runs whatever their thread counts (*single set; the group's
   threads value is 0). Returns how many groups (at most max). */
size_t figures_groups(const figures_source *src, size_t n, unsigned *threads, size_t max,
                      bool *single);
/* The run of a source in a group (NULL when it has none). */
const result_run *figures_group_run(const figures_source *s, bool single, unsigned threads);

/* Percentiles the page and `compare` show: the runs' own --percentile values and 50, 95, 99. */
size_t figures_percentiles(const figures_source *src, size_t n, double *out, size_t max);

/* A figure of a run shown in tables: tps, qps, latency avg and percentiles, errors/s ... */
typedef struct figure {
  char name[40];               /* "tps", "latency p95 (ms)" */
  int kind;                    /* what figures_period_value() computes (figures.c) */
  double percentile;           /* for percentile rows */
  int decimals;                /* digits after the point when shown */
} figure;

size_t figures_metrics(const figures_source *src, size_t n, figure *out, size_t max);
/* The figure of a run's final period; NAN for a run that failed before its measurement. */
double figures_value(const figure *m, const result_run *r);
/* The figure of any period; NAN where the period cannot tell (no events for a latency, no
   maximum in an interval). */
double figures_period_value(const figure *m, const result_period *p);
/* The figure as shown in tables: its decimals, or "-" (no run, or no figures). Returns buf. */
char *figures_text(char *buf, size_t len, const figure *m, const result_run *r);

/* Insert p into an ascending list of distinct percentiles (up to max). */
void figures_add_percentile(double *list, size_t *count, size_t max, double p);
/* Does any run of the sources pass `test`? */
bool figures_any_run(const figures_source *src, size_t n, bool (*test)(const result_run *));
bool figures_has_queries(const result_run *r);     /* an SQL test: queries were counted */

#endif
