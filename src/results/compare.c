/*
 * compare.c: the text of `sysbench compare`. Thread counts are matched across files (a sweep
 * against a sweep, a run against a run of the same thread count); a file without a run of
 * that thread count shows "-".
 */
#include <stdbool.h>
#include <string.h>

#include "results/caveats.h"
#include "results/compare.h"

#define MAX_THREAD_COUNTS 64
#define MAX_METRICS 40

static void describe(FILE *out, const figures_source *s)
{
  const result_doc *d = s->doc;
  const result_run *first = &d->runs[0];
  char threads[256] = "", started[64];
  size_t used = 0;

  for (size_t r = 0; r < d->run_count && used < sizeof(threads); r++)
    used += (size_t) snprintf(threads + used, sizeof(threads) - used, "%s%u", r ? "," : "",
                              d->runs[r].threads);
  fprintf(out, "  %-3s %s: %s, threads %s, %s UTC", s->label, s->name, first->test, threads,
          result_time_text(first->start_unix_ns, started, sizeof(started)));
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

void compare_print(FILE *out, const figures_source *src, size_t n)
{
  unsigned threads[MAX_THREAD_COUNTS];
  bool single;
  size_t nt = figures_groups(src, n, threads, MAX_THREAD_COUNTS, &single);
  figure metrics[MAX_METRICS];
  size_t nm = figures_metrics(src, n, metrics, MAX_METRICS);
  size_t nw;
  char **warnings = caveats_warnings(src, n, &nw);

  if (n > 1)
    fprintf(out, "Comparing %zu result files (ratios to %s, each with its noise band):\n", n,
            src[0].label);
  else
    fprintf(out, "Result file:\n");
  for (size_t s = 0; s < n; s++)
    describe(out, &src[s]);
  if (nw > 0)
    fputc('\n', out);
  for (size_t i = 0; i < nw; i++)
    fprintf(out, "WARNING: %s\n", warnings[i]);
  caveats_free(warnings, nw);

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
      fprintf(out, s + 1 < n ? "   %-15s" : "   %s", head);
    }
    fputc('\n', out);
    if (single) {
      fprintf(out, "  %-20s", "threads");
      for (size_t s = 0; s < n; s++)
        fprintf(out, " %14u", src[s].doc->runs[0].threads);
      fputc('\n', out);
    }

    const result_run *base = figures_group_run(&src[0], single, threads[t]);
    for (size_t m = 0; m < nm; m++) {
      char text[64], line[2048];
      size_t used = (size_t) snprintf(line, sizeof(line), "  %-20s", metrics[m].name);
      for (size_t s = 0; s < n && used < sizeof(line); s++)
        used += (size_t) snprintf(line + used, sizeof(line) - used, " %14s",
                                  figures_text(text, sizeof(text), &metrics[m],
                                               figures_group_run(&src[s], single, threads[t])));
      for (size_t s = 1; s < n && used < sizeof(line); s++) {
        const result_run *r = figures_group_run(&src[s], single, threads[t]);
        if (r == NULL || base == NULL)
          snprintf(text, sizeof(text), "-");
        else
          caveats_ratio_text(text, sizeof(text), figures_value(&metrics[m], base),
                             figures_value(&metrics[m], r),
                             caveats_spread(&metrics[m], base), caveats_spread(&metrics[m], r));
        used += (size_t) snprintf(line + used, sizeof(line) - used, "   %-15s", text);
      }
      used = strlen(line);
      while (used > 0 && line[used - 1] == ' ')     /* the last ratio's padding */
        line[--used] = '\0';
      fprintf(out, "%s\n", line);
    }
  }
  if (n > 1)
    fprintf(out, "\n±: the noise band of a ratio, from how much each run's figure moved from "
            "one interval to the next\n(±?: fewer than 3 intervals, or a figure intervals do "
            "not have); see docs/results.md, \"Noise\".\n");
}
