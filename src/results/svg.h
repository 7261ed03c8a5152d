/*
 * svg.h: line charts as plain SVG (no scripts, no fonts or styles fetched from anywhere):
 * a title, a legend, axes with ticks and labels, grid lines, one coloured line with point
 * markers per series. The x axis is numeric (time) or a row of categories (thread counts,
 * percentiles), evenly spaced as in the seed reports' charts.
 */
#ifndef SB_RESULTS_SVG_H
#define SB_RESULTS_SVG_H

#include <stddef.h>
#include <stdio.h>

typedef struct chart_series {
  const char *name;
  size_t n;
  const double *x;             /* numeric x, or the category index */
  const double *y;
} chart_series;

typedef struct chart {
  const char *title;
  const char *x_label;
  const char *y_label;
  const char *const *categories;   /* NULL: numeric x axis */
  size_t category_count;
  const chart_series *series;
  size_t series_count;
} chart;

#define CHART_WIDTH 640
#define CHART_HEIGHT 360

/* The colour of series i ("#1f77b4" ...), the same in every chart. */
const char *svg_series_colour(size_t i);

/* One chart as an <svg> element placed at (x, y) of the enclosing SVG or HTML. */
void svg_chart(FILE *out, const chart *c, double x, double y);

/* A standalone SVG file with the charts one under the other. 0, or -1 (errno set). */
int svg_write_file(const char *path, const chart *charts, size_t n);

/* Text escaped for XML and HTML. */
void svg_escape(FILE *out, const char *text);

#endif
