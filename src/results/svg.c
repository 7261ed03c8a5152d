/*
 * svg.c: draws the line charts of svg.h. Axes start at zero and end at a "nice" value (1, 2
 * or 5 times a power of ten), with about five labelled ticks; every element carries a class
 * (axis, tick-label, axis-label, series, legend) so tests and style sheets can find it.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "results/svg.h"

#define MARGIN_LEFT 78.0
#define MARGIN_RIGHT 24.0
#define MARGIN_TOP 62.0
#define MARGIN_BOTTOM 56.0
#define TARGET_TICKS 5

static const char *const palette[] = {
  "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
};

const char *svg_series_colour(size_t i)
{
  return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

void svg_escape(FILE *out, const char *text)
{
  for (const char *c = text ? text : ""; *c; c++) {
    switch (*c) {
      case '<': fputs("&lt;", out); break;
      case '>': fputs("&gt;", out); break;
      case '&': fputs("&amp;", out); break;
      case '"': fputs("&quot;", out); break;
      case '\'': fputs("&#39;", out); break;
      default: fputc(*c, out);
    }
  }
}

/* A step of 1, 2 or 5 times a power of ten giving about TARGET_TICKS ticks up to max. */
static double nice_step(double max)
{
  if (!(max > 0))
    return 1;
  double raw = max / TARGET_TICKS;
  double magnitude = pow(10, floor(log10(raw)));
  double fraction = raw / magnitude;
  double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * magnitude;
}

/* A tick value without trailing zeros or float noise ("0.25", "1200", "1.5e+06"). */
static void tick_text(char *buf, size_t len, double v, double step)
{
  int decimals = step >= 1 ? 0 : (int) ceil(-log10(step) - 1e-9);
  if (fabs(v) >= 1e7)
    snprintf(buf, len, "%.3g", v);
  else
    snprintf(buf, len, "%.*f", decimals, v);
}

typedef struct {
  double left, top, width, height;   /* plot area in chart coordinates */
  double x_min, x_max, y_max;
  const chart *c;
} frame;

static double px(const frame *f, double x)
{
  if (f->c->categories != NULL)
    return f->left + (x + 0.5) * f->width / (double) f->c->category_count;
  return f->left + (f->x_max > f->x_min ? (x - f->x_min) / (f->x_max - f->x_min) : 0.5) *
                       f->width;
}

static double py(const frame *f, double y)
{
  return f->top + f->height - (f->y_max > 0 ? y / f->y_max : 0) * f->height;
}

static void data_extent(const chart *c, double *x_min, double *x_max, double *y_max)
{
  bool any = false;
  *x_min = 0;
  *x_max = 1;
  *y_max = 0;
  for (size_t s = 0; s < c->series_count; s++) {
    for (size_t i = 0; i < c->series[s].n; i++) {
      double x = c->series[s].x[i], y = c->series[s].y[i];
      if (!isfinite(x) || !isfinite(y))
        continue;
      if (!any || x > *x_max)
        *x_max = x;
      if (!any || x < *x_min)
        *x_min = x;
      if (y > *y_max)
        *y_max = y;
      any = true;
    }
  }
  if (*x_min > 0)
    *x_min = 0;                       /* time axes start at the start */
  if (*x_max <= *x_min)
    *x_max = *x_min + 1;
}

static void draw_axes(FILE *out, const frame *f, double y_step, double x_step)
{
  const chart *c = f->c;
  char label[64];

  /* Horizontal grid lines and y tick labels. */
  for (double y = 0; y <= f->y_max + y_step * 1e-6; y += y_step) {
    double yy = py(f, y);
    fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#e0e0e0\" stroke-width=\"1\"/>\n", f->left, yy, f->left + f->width, yy);
    tick_text(label, sizeof(label), y, y_step);
    fprintf(out, "<text class=\"tick-label y-tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
            "font-size=\"12\">%s</text>\n", f->left - 8, yy + 4, label);
  }
  /* x ticks: one per category, or nice numbers. */
  if (c->categories != NULL) {
    for (size_t i = 0; i < c->category_count; i++) {
      double xx = px(f, (double) i);
      fprintf(out, "<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
              "stroke=\"#333333\" stroke-width=\"1\"/>\n", xx, f->top + f->height, xx,
              f->top + f->height + 5);
      fprintf(out, "<text class=\"tick-label x-tick\" x=\"%.1f\" y=\"%.1f\" "
              "text-anchor=\"middle\" font-size=\"12\">", xx, f->top + f->height + 19);
      svg_escape(out, c->categories[i]);
      fputs("</text>\n", out);
    }
  } else {
    double first = ceil(f->x_min / x_step) * x_step;
    for (double x = first; x <= f->x_max + x_step * 1e-6; x += x_step) {
      double xx = px(f, x);
      fprintf(out, "<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
              "stroke=\"#333333\" stroke-width=\"1\"/>\n", xx, f->top + f->height, xx,
              f->top + f->height + 5);
      tick_text(label, sizeof(label), x, x_step);
      fprintf(out, "<text class=\"tick-label x-tick\" x=\"%.1f\" y=\"%.1f\" "
              "text-anchor=\"middle\" font-size=\"12\">%s</text>\n", xx,
              f->top + f->height + 19, label);
    }
  }
  /* Axis names. */
  fprintf(out, "<text class=\"axis-label x-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
          "font-size=\"13\">", f->left + f->width / 2, f->top + f->height + 42);
  svg_escape(out, c->x_label);
  fputs("</text>\n", out);
  double yc = f->top + f->height / 2;
  fprintf(out, "<text class=\"axis-label y-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
          "font-size=\"13\" transform=\"rotate(-90 %.1f %.1f)\">", 18.0, yc, 18.0, yc);
  svg_escape(out, c->y_label);
  fputs("</text>\n", out);
}

/* The axis lines, drawn last: a series at zero must not hide the axis. */
static void draw_axis_lines(FILE *out, const frame *f)
{
  fprintf(out, "<line class=\"axis x-axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
          "stroke=\"#333333\" stroke-width=\"2\"/>\n", f->left, f->top + f->height,
          f->left + f->width, f->top + f->height);
  fprintf(out, "<line class=\"axis y-axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
          "stroke=\"#333333\" stroke-width=\"2\"/>\n", f->left, f->top, f->left,
          f->top + f->height);
}

static void draw_series(FILE *out, const frame *f)
{
  const chart *c = f->c;

  for (size_t s = 0; s < c->series_count; s++) {
    const chart_series *se = &c->series[s];
    const char *colour = svg_series_colour(s);
    fprintf(out, "<g class=\"series\" data-series=\"");
    svg_escape(out, se->name);
    fprintf(out, "\" stroke=\"%s\" fill=\"%s\">\n", colour, colour);
    if (se->n > 1) {
      fputs("<polyline fill=\"none\" stroke-width=\"2.5\" points=\"", out);
      for (size_t i = 0; i < se->n; i++)
        if (isfinite(se->x[i]) && isfinite(se->y[i]))
          fprintf(out, "%s%.1f,%.1f", i ? " " : "", px(f, se->x[i]), py(f, se->y[i]));
      fputs("\"/>\n", out);
    }
    /* Markers: for a few points (thread counts, percentiles), not for long time series. */
    if (se->n <= 40)
      for (size_t i = 0; i < se->n; i++)
        if (isfinite(se->x[i]) && isfinite(se->y[i]))
          fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" stroke=\"none\"/>\n",
                  px(f, se->x[i]), py(f, se->y[i]), se->n == 1 ? "5" : "3.5");
    fputs("</g>\n", out);
  }
}

static void draw_legend(FILE *out, const chart *c, double left, double right)
{
  double x = left, y = 40;
  for (size_t s = 0; s < c->series_count; s++) {
    double w = 26 + 7.0 * (double) strlen(c->series[s].name ? c->series[s].name : "");
    if (x + w > right && x > left) {      /* a second row, with many series */
      x = left;
      y += 14;
    }
    fprintf(out, "<g class=\"legend\"><rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" "
            "fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">", x, y - 9,
            svg_series_colour(s), x + 18, y);
    svg_escape(out, c->series[s].name);
    fputs("</text></g>\n", out);
    x += w + 12;
  }
}

void svg_chart(FILE *out, const chart *c, double x, double y)
{
  frame f = { .left = MARGIN_LEFT, .top = MARGIN_TOP,
              .width = CHART_WIDTH - MARGIN_LEFT - MARGIN_RIGHT,
              .height = CHART_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM, .c = c };
  double data_y_max;

  data_extent(c, &f.x_min, &f.x_max, &data_y_max);
  double y_step = nice_step(data_y_max > 0 ? data_y_max : 1);
  f.y_max = ceil((data_y_max > 0 ? data_y_max : 1) / y_step - 1e-9) * y_step;
  if (f.y_max < data_y_max * 1.02)       /* room above the highest point */
    f.y_max += y_step;
  double x_step = nice_step(f.x_max - f.x_min);

  fprintf(out, "<svg class=\"chart\" x=\"%.0f\" y=\"%.0f\" width=\"%d\" height=\"%d\" "
          "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" "
          "role=\"img\" aria-label=\"", x, y, CHART_WIDTH, CHART_HEIGHT, CHART_WIDTH,
          CHART_HEIGHT);
  svg_escape(out, c->title);
  fputs("\">\n<title>", out);
  svg_escape(out, c->title);
  fputs("</title>\n", out);
  fprintf(out, "<rect class=\"background\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
          CHART_WIDTH, CHART_HEIGHT);
  fprintf(out, "<text class=\"chart-title\" x=\"%.1f\" y=\"20\" text-anchor=\"middle\" "
          "font-size=\"15\" font-weight=\"bold\">", CHART_WIDTH / 2.0);
  svg_escape(out, c->title);
  fputs("</text>\n", out);
  draw_legend(out, c, f.left, f.left + f.width);
  draw_axes(out, &f, y_step, x_step);
  draw_series(out, &f);
  draw_axis_lines(out, &f);
  bool empty = true;
  for (size_t s = 0; s < c->series_count; s++)
    empty = empty && c->series[s].n == 0;
  if (empty)
    fprintf(out, "<text class=\"no-data\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
            "font-size=\"13\" fill=\"#888888\">no data</text>\n", f.left + f.width / 2,
            f.top + f.height / 2);
  fputs("</svg>\n", out);
}

int svg_write_file(const char *path, const chart *charts, size_t n)
{
  FILE *out = fopen(path, "w");
  if (out == NULL)
    return -1;
  fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
          "viewBox=\"0 0 %d %zu\">\n", CHART_WIDTH, CHART_HEIGHT * n, CHART_WIDTH,
          CHART_HEIGHT * n);
  fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
  for (size_t i = 0; i < n; i++)
    svg_chart(out, &charts[i], 0, (double) (CHART_HEIGHT * i));
  fputs("</svg>\n", out);
  return fclose(out) == 0 ? 0 : -1;
}
