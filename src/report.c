/*
 * report.c: the default report text of sysbench 1.0. Formats, spacing and blank lines follow
 * 1.0.20 exactly; rates are per second of the reported interval.
 */
#include <inttypes.h>
#include <stdio.h>

#include "logger.h"
#include "report.h"
#include "runner.h"

static double per_second(uint64_t count, double seconds)
{
  return seconds > 0 ? (double) count / seconds : 0;
}

static void queue_line(const sb_stat_t *stat, const char *separator)
{
  if (runner_config()->rate > 0)
    log_timestamped(LOG_NOTICE, stat->time_total,
                    "queue length: %" PRIu64 "%s concurrency: %" PRIu64,
                    stat->queue_length, separator, stat->concurrency);
}

const char *percentile_text(double pct, char *buf, size_t len)
{
  snprintf(buf, len, "%.10g", pct);
  return buf;
}

void report_intermediate_default(const sb_stat_t *stat)
{
  char pct[32];

  log_timestamped(LOG_NOTICE, stat->time_total, "thds: %u eps: %4.2f lat (ms,%s%%): %4.2f",
                  stat->threads_running, per_second(stat->events, stat->time_interval),
                  percentile_text(runner_config()->percentile, pct, sizeof(pct)),
                  stat->latency_pct * 1e3);
  queue_line(stat, "");
}

void report_intermediate_sql(const sb_stat_t *stat)
{
  double t = stat->time_interval;
  char pct[32];

  log_timestamped(LOG_NOTICE, stat->time_total,
                  "thds: %u tps: %4.2f qps: %4.2f (r/w/o: %4.2f/%4.2f/%4.2f) "
                  "lat (ms,%s%%): %4.2f err/s: %4.2f reconn/s: %4.2f",
                  stat->threads_running, per_second(stat->events, t),
                  per_second(stat->reads + stat->writes + stat->other, t),
                  per_second(stat->reads, t), per_second(stat->writes, t),
                  per_second(stat->other, t),
                  percentile_text(runner_config()->percentile, pct, sizeof(pct)),
                  stat->latency_pct * 1e3, per_second(stat->errors, t),
                  per_second(stat->reconnects, t));
  queue_line(stat, ",");
}

void report_unfinished(unsigned count)
{
  log_text(LOG_NOTICE, "%s", "");
  log_text(LOG_NOTICE, "Number of unfinished transactions on forced shutdown: %u", count);
}

void report_cumulative_general(const sb_stat_t *stat)
{
  const run_config *cfg = runner_config();

  log_text(LOG_NOTICE, "%s", "");
  log_text(LOG_NOTICE, "General statistics:");
  log_text(LOG_NOTICE, "    total time:                          %.4fs", stat->time_total);
  log_text(LOG_NOTICE, "    total number of events:              %" PRIu64, stat->events);
  log_text(LOG_NOTICE, "%s", "");
  log_text(LOG_NOTICE, "Latency (ms):");
  log_text(LOG_NOTICE, "         min: %39.2f", stat->latency_min * 1e3);
  log_text(LOG_NOTICE, "         avg: %39.2f", stat->latency_avg * 1e3);
  log_text(LOG_NOTICE, "         max: %39.2f", stat->latency_max * 1e3);
  /* 1.0.20's line ("        %3uth percentile: %27.2f") once per --percentile value, the
     number right-aligned so the colons stay in one column. */
  for (size_t i = 0; i < cfg->percentile_count; i++) {
    char pct[32];
    double value = i == 0 ? stat->latency_pct : stats_percentile(stat, cfg->percentiles[i]);
    log_text(LOG_NOTICE, "%11sth percentile: %27.2f",
             percentile_text(cfg->percentiles[i], pct, sizeof(pct)), value * 1e3);
  }
  if (cfg->percentile_count == 0)
    log_text(LOG_NOTICE, "         percentile stats:               disabled");
  log_text(LOG_NOTICE, "         sum: %39.2f", stat->latency_sum * 1e3);
  log_text(LOG_NOTICE, "%s", "");
  log_text(LOG_NOTICE, "Threads fairness:");
  log_text(LOG_NOTICE, "    events (avg/stddev):           %.4f/%3.2f", stat->events_avg,
           stat->events_stddev);
  log_text(LOG_NOTICE, "    execution time (avg/stddev):   %.4f/%3.2f", stat->time_avg,
           stat->time_stddev);
  log_text(LOG_NOTICE, "%s", "");
}

void report_cumulative_sql(const sb_stat_t *stat)
{
  double t = stat->time_interval;
  uint64_t queries = stat->reads + stat->writes + stat->other;

  log_text(LOG_NOTICE, "SQL statistics:");
  log_text(LOG_NOTICE, "    queries performed:");
  log_text(LOG_NOTICE, "        read:                            %" PRIu64, stat->reads);
  log_text(LOG_NOTICE, "        write:                           %" PRIu64, stat->writes);
  log_text(LOG_NOTICE, "        other:                           %" PRIu64, stat->other);
  log_text(LOG_NOTICE, "        total:                           %" PRIu64, queries);
  log_text(LOG_NOTICE, "    transactions:                        %-6" PRIu64 " (%.2f per sec.)",
           stat->events, per_second(stat->events, t));
  log_text(LOG_NOTICE, "    queries:                             %-6" PRIu64 " (%.2f per sec.)",
           queries, per_second(queries, t));
  log_text(LOG_NOTICE, "    ignored errors:                      %-6" PRIu64 " (%.2f per sec.)",
           stat->errors, per_second(stat->errors, t));
  log_text(LOG_NOTICE, "    reconnects:                          %-6" PRIu64 " (%.2f per sec.)",
           stat->reconnects, per_second(stat->reconnects, t));
}

void report_cumulative_sql_details(const sb_stat_t *stat)
{
  double t = stat->time_interval;

  log_text(LOG_NOTICE, "Queries by statement kind:");
  for (unsigned k = 0; k < SB_STMT_KINDS; k++) {
    char label[32];
    snprintf(label, sizeof(label), "%s:", sb_stmt_kind_labels[k]);
    log_text(LOG_NOTICE, "    %-37s%-6" PRIu64 " (%.2f per sec.)", label, stat->statements[k],
             per_second(stat->statements[k], t));
  }
  if (stat->rows > 0)
    log_text(LOG_NOTICE, "Rows returned by reads:                  %-6" PRIu64 " (%.2f per sec.)",
             stat->rows, per_second(stat->rows, t));
  if (stat->error_code_count == 0)
    return;
  log_text(LOG_NOTICE, "Ignored errors by code:");
  for (unsigned i = 0; i < stat->error_code_count; i++) {
    char code[16], label[32];
    /* Code 0 (errors without one, codes beyond the table) is "other" in the result file;
       here "other codes:", as "other:" is a label of 1.0.20's report. */
    if (stat->error_codes[i].code == 0)
      snprintf(label, sizeof(label), "other codes:");
    else
      snprintf(label, sizeof(label), "%s:", stats_error_code_text(stat->error_codes[i].code, code));
    log_text(LOG_NOTICE, "    %-37s%-6" PRIu64 " (%.2f per sec.)", label,
             stat->error_codes[i].count, per_second(stat->error_codes[i].count, t));
  }
}
