/*
 * caveats.c: what `compare` must say besides its figures (caveats.h). A comparison of runs of
 * different tests, drivers or options, or of a run that failed, looks like any other table of
 * ratios; these warnings say what differs. A ratio of two noisy runs looks as exact as one of
 * two steady ones; its band says how much the runs' own figures moved from interval to
 * interval (the noise a person would see re-running them on an otherwise quiet machine).
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/caveats.h"

/* Differences in these options do not change what is measured: where results go, how often
   they are printed, how much is logged. threads is compared by the tables themselves. */
static const char *const unmeasured_options[] = {
  "threads", "report_file", "report_format", "report_interval", "report_checkpoints",
  "start_at", "verbosity", "config_file", "percentile", "histogram", "debug", "db_debug",
  "mysql_debug", "help", "version", NULL
};
#define OPTION_DIFFERENCES_SHOWN 6

typedef struct {
  char **items;
  size_t count;
  bool out_of_memory;
} warning_list;

static void warn(warning_list *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(warning_list *w, const char *fmt, ...)
{
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof(text), fmt, ap);
  va_end(ap);
  if (!w->out_of_memory && result_strings_push(&w->items, &w->count, text) != 0)
    w->out_of_memory = true;
}

static bool same_text(const char *a, const char *b)
{
  return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static const char *driver_text(const char *driver, char *buf, size_t len)
{
  if (driver == NULL)
    return "no database driver";
  snprintf(buf, len, "the %s driver", driver);
  return buf;
}

static bool unmeasured(const char *name)
{
  for (size_t i = 0; unmeasured_options[i] != NULL; i++)
    if (strcmp(name, unmeasured_options[i]) == 0)
      return true;
  return false;
}

/* The options of two runs that differ. Both files keep every option's effective value
   (version 2): those are compared; otherwise only what was typed, and a missing one is the
   default. */
static void option_differences(warning_list *w, const figures_source *base, const figures_source *s)
{
  const result_run *a = &base->doc->runs[0], *b = &s->doc->runs[0];
  bool effective = a->effective_count > 0 && b->effective_count > 0;
  const result_option *la = effective ? a->effective : a->options;
  const result_option *lb = effective ? b->effective : b->options;
  size_t na = effective ? a->effective_count : a->option_count;
  size_t nb = effective ? b->effective_count : b->option_count;
  const char *missing = effective ? "-" : "default";     /* "-": not an option of that run */
  char text[900] = "";
  size_t used = 0, differences = 0;

  for (size_t k = 0; k < na + nb; k++) {
    const char *name = k < na ? la[k].name : lb[k - na].name;
    bool in_a, in_b;
    const char *va = result_option_value(la, na, name, &in_a);
    const char *vb = result_option_value(lb, nb, name, &in_b);
    if ((k >= na && in_a) || unmeasured(name) || (in_a == in_b && same_text(va, vb)))
      continue;                        /* seen with a's options, or no difference */
    if (differences++ < OPTION_DIFFERENCES_SHOWN && used < sizeof(text))
      used += (size_t) snprintf(text + used, sizeof(text) - used, "%s%s=%s (%s: %s)",
                                used ? ", " : "", name,
                                in_b ? (vb ? vb : "none") : missing, base->label,
                                in_a ? (va ? va : "none") : missing);
  }
  if (differences > OPTION_DIFFERENCES_SHOWN)
    warn(w, "%s differs from %s in %zu options: %s, ...", s->label, base->label, differences,
         text);
  else if (differences > 0)
    warn(w, "%s differs from %s in options: %s", s->label, base->label, text);
}

static void failed_runs(warning_list *w, const figures_source *s)
{
  for (size_t r = 0; r < s->doc->run_count; r++) {
    const result_run *run = &s->doc->runs[r];
    if (run->exit_code == 0)
      continue;
    const char *why = run->error_count > 0 ? run->errors[0] : NULL;
    char first_line[300] = "";
    if (why != NULL)
      snprintf(first_line, sizeof(first_line), ": %.*s", (int) strcspn(why, "\n"), why);
    if (!run->measured)
      warn(w, "%s: the run with %u threads failed before its measurement began (exit code %d), "
           "it has no figures%s", s->label, run->threads, run->exit_code, first_line);
    else
      warn(w, "%s: the run with %u threads failed (exit code %d): its figures cover what ran "
           "until then%s", s->label, run->threads, run->exit_code, first_line);
  }
}

char **caveats_warnings(const figures_source *src, size_t n, size_t *count)
{
  warning_list w = {0};

  for (size_t s = 1; s < n; s++) {
    const result_run *a = &src[0].doc->runs[0], *b = &src[s].doc->runs[0];
    if (!same_text(a->test, b->test))
      warn(&w, "%s ran %s, %s ran %s: their figures measure different work", src[s].label,
           b->test, src[0].label, a->test);
    if (!same_text(a->driver, b->driver)) {
      char used_a[80], used_b[80];
      warn(&w, "%s used %s, %s %s", src[s].label, driver_text(b->driver, used_b, sizeof(used_b)),
           src[0].label, driver_text(a->driver, used_a, sizeof(used_a)));
    }
    option_differences(&w, &src[0], &src[s]);
  }
  for (size_t s = 0; s < n; s++)
    failed_runs(&w, &src[s]);
  if (w.out_of_memory) {
    caveats_free(w.items, w.count);
    *count = 0;
    return NULL;
  }
  *count = w.count;
  return w.items;
}

void caveats_free(char **warnings, size_t count)
{
  for (size_t i = 0; i < count; i++)
    free(warnings[i]);
  free(warnings);
}

double caveats_spread(const figure *m, const result_run *r)
{
  size_t n = 0;
  double mean = 0, squares = 0;

  if (!r->measured)
    return NAN;
  for (size_t i = 0; i < r->interval_count; i++) {
    double v = figures_period_value(m, &r->intervals[i]);
    if (isnan(v))
      continue;
    /* Welford: the mean and the sum of squared differences in one pass. */
    n++;
    double delta = v - mean;
    mean += delta / (double) n;
    squares += delta * (v - mean);
  }
  if (n < 3 || mean == 0)
    return NAN;
  return sqrt(squares / (double) (n - 1)) / fabs(mean);
}

char *caveats_ratio_text(char *buf, size_t len, double a, double b, double spread_a,
                         double spread_b)
{
  if (a == 0 || isnan(a) || isnan(b)) {
    snprintf(buf, len, "-");
    return buf;
  }
  double ratio = b / a;
  double band = ratio * sqrt(spread_a * spread_a + spread_b * spread_b);
  if (isnan(band))
    snprintf(buf, len, "%.3fx ±?", ratio);
  else
    snprintf(buf, len, "%.3fx ±%.3f", ratio, band);
  return buf;
}
