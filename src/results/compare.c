/*
 * compare.c: the text of `sysbench compare`. Thread counts are matched across files (a sweep
 * against a sweep, a run against a run of the same thread count); a file without a run of
 * that thread count shows "-".
 */
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "results/compare.h"

#define MAX_THREAD_COUNTS 64
#define MAX_METRICS 40

static void describe(FILE *out, const page_source *s)
{
  const result_doc *d = s->doc;
  const result_run *first = &d->runs[0];
  char threads[256] = "", started[64];
  size_t used = 0;
  time_t t = (time_t) (first->start_unix_ns / 1000000000u);
  struct tm tm;

  for (size_t r = 0; r < d->run_count && used < sizeof(threads); r++)
    used += (size_t) snprintf(threads + used, sizeof(threads) - used, "%s%u", r ? "," : "",
                              d->runs[r].threads);
  gmtime_r(&t, &tm);
  strftime(started, sizeof(started), "%Y-%m-%d %H:%M:%S UTC", &tm);
  fprintf(out, "  %-3s %s: %s, threads %s, %s", s->label, s->name, first->test, threads, started);
  if (first->client_count == 1 && first->clients[0].host != NULL)
    fprintf(out, ", %s", first->clients[0].host);
  else if (first->client_count > 1)
    fprintf(out, ", %zu clients", first->client_count);
  if (first->server_version != NULL)
    fprintf(out, ", server %s", first->server_version);
  /* which program measured it: files of other builds (or of 1.0.20-era tools) may differ */
  if (first->tool != NULL)
    fprintf(out, ", %s %s (commit %s)", first->tool,
            first->tool_version != NULL ? first->tool_version : "?",
            first->tool_commit != NULL ? first->tool_commit : "unknown");
  fputc('\n', out);
}

void compare_print(FILE *out, const page_source *src, size_t n)
{
  unsigned threads[MAX_THREAD_COUNTS];
  bool single;
  size_t nt = page_groups(src, n, threads, MAX_THREAD_COUNTS, &single);
  page_metric metrics[MAX_METRICS];
  size_t nm = page_metrics(src, n, metrics, MAX_METRICS);

  if (n > 1)
    fprintf(out, "Comparing %zu result files (ratios to %s):\n", n, src[0].label);
  else
    fprintf(out, "Result file:\n");
  for (size_t s = 0; s < n; s++)
    describe(out, &src[s]);

  for (size_t t = 0; t < nt; t++) {
    if (single)
      fprintf(out, "\nRuns:\n%-22s", "");
    else
      fprintf(out, "\n%u thread%s:\n%-22s", threads[t], threads[t] == 1 ? "" : "s", "");
    for (size_t s = 0; s < n; s++)
      fprintf(out, " %14s", src[s].label);
    for (size_t s = 1; s < n; s++) {
      char head[16];
      snprintf(head, sizeof(head), "%s/%s", src[s].label, src[0].label);
      fprintf(out, " %10s", head);
    }
    fputc('\n', out);
    if (single) {
      fprintf(out, "  %-20s", "threads");
      for (size_t s = 0; s < n; s++)
        fprintf(out, " %14u", src[s].doc->runs[0].threads);
      fputc('\n', out);
    }

    const result_run *base = page_group_run(&src[0], single, threads[t]);
    for (size_t m = 0; m < nm; m++) {
      double base_value = base ? page_metric_value(&metrics[m], base) : 0;
      fprintf(out, "  %-20s", metrics[m].name);
      for (size_t s = 0; s < n; s++) {
        const result_run *r = page_group_run(&src[s], single, threads[t]);
        if (r == NULL)
          fprintf(out, " %14s", "-");
        else
          fprintf(out, " %14.*f", metrics[m].decimals, page_metric_value(&metrics[m], r));
      }
      for (size_t s = 1; s < n; s++) {
        const result_run *r = page_group_run(&src[s], single, threads[t]);
        if (r == NULL || base == NULL || base_value == 0)
          fprintf(out, " %10s", "-");
        else
          fprintf(out, " %9.3fx", page_metric_value(&metrics[m], r) / base_value);
      }
      fputc('\n', out);
    }
  }
}
