/*
 * page.h: the charts and the HTML page drawn from one or several result documents, as the
 * seed reports draw them by hand: throughput and latency per thread count, latency
 * percentiles and throughput over time, with the tables of figures.h. A sweep shows its own
 * document; `compare` shows several side by side.
 */
#ifndef SB_RESULTS_PAGE_H
#define SB_RESULTS_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "results/figures.h"

/* An SVG file with the charts per thread count (throughput, queries, latency). */
int page_write_svg(const char *path, const figures_source *src, size_t n);
/* The HTML page: sources, tables with ratios to the first source, and every chart. */
int page_write_html(const char *path, const char *title, const figures_source *src, size_t n);

#endif
