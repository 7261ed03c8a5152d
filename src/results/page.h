/*
 * page.h: the charts and the HTML page drawn from one or several result documents, as the
 * seed reports draw them by hand: throughput and latency per thread count, latency
 * percentiles and throughput over time. A sweep shows its own document; `compare` shows
 * several side by side.
 */
#ifndef SB_RESULTS_PAGE_H
#define SB_RESULTS_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "results/result.h"

/* The documents to show, each with a short label ("A", "B" ...) and where it came from. */
typedef struct page_source {
  const result_doc *doc;
  const char *label;
  const char *name;            /* file name, or the test's name for a fresh sweep */
} page_source;

/* The thread counts of all documents, ascending and distinct; returns how many (at most max). */
size_t page_thread_counts(const page_source *src, size_t n, unsigned *out, size_t max);
/* The run of `doc` with `threads` threads, or NULL. */
const result_run *page_run_with_threads(const result_doc *doc, unsigned threads);

/* The groups runs are compared in: one per thread count, or, when every document holds a
   single run, one group of those runs whatever their thread counts (*single set; the group's
   threads value is 0). Returns how many groups (at most max). */
size_t page_groups(const page_source *src, size_t n, unsigned *threads, size_t max,
                   bool *single);
/* The run of a source in a group (NULL when it has none). */
const result_run *page_group_run(const page_source *s, bool single, unsigned threads);

/* Percentiles the page and `compare` show: the runs' own --percentile values and 50, 95, 99. */
size_t page_percentiles(const page_source *src, size_t n, double *out, size_t max);

/* A figure of a run shown in tables: tps, qps, latency avg and percentiles, errors/s ... */
typedef struct page_metric {
  char name[40];               /* "tps", "latency p95 (ms)" */
  int kind;                    /* what value() computes (page.c) */
  double percentile;           /* for percentile rows */
  int decimals;                /* digits after the point when shown */
} page_metric;

size_t page_metrics(const page_source *src, size_t n, page_metric *out, size_t max);
/* The figure of a run's final period; NAN for a run that failed before its measurement. */
double page_metric_value(const page_metric *m, const result_run *r);
/* The figure of any period; NAN where the period cannot tell (no events for a latency, no
   maximum in an interval). */
double page_metric_period_value(const page_metric *m, const result_period *p);
/* The figure as shown in tables: its decimals, or "-" (no run, or no figures). Returns buf. */
char *page_metric_text(char *buf, size_t len, const page_metric *m, const result_run *r);

/* An SVG file with the charts per thread count (throughput, queries, latency). */
int page_write_svg(const char *path, const page_source *src, size_t n);
/* The HTML page: sources, tables with ratios to the first source, and every chart. */
int page_write_html(const char *path, const char *title, const page_source *src, size_t n);

#endif
