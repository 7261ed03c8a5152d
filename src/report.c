/*
 * report.c: the default report text of sysbench 1.0. Formats, spacing and blank lines follow
 * 1.0.20 exactly; rates are per second of the reported interval.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "logger.h"
#include "output_mode.h"
#include "report.h"

static double per_second(uint64_t count, double seconds)
{
  return seconds > 0 ? (double) count / seconds : 0;
}

static void queue_line(const sb_stat_t *stat, const report_layout *layout, const char *separator)
{
  if (layout->queue)
    log_timestamped(LOG_NOTICE, stat->time_total,
                    "queue length: %" PRIu64 "%s concurrency: %" PRIu64,
                    stat->queue_length, separator, stat->concurrency);
}

const char *percentile_text(double pct, char *buf, size_t len)
{
  snprintf(buf, len, "%.10g", pct);
  return buf;
}

void report_intermediate_default(const sb_stat_t *stat, const report_layout *layout)
{
  char pct[32];

  log_timestamped(LOG_NOTICE, stat->time_total, "thds: %u eps: %4.2f lat (ms,%s%%): %4.2f",
                  stat->threads_running, per_second(stat->events, stat->time_interval),
                  percentile_text(layout->percentile, pct, sizeof(pct)),
                  stat->latency_pct * 1e3);
  queue_line(stat, layout, "");
}

/* A rate over the interval. 1.0.20's Lua reporter divides whatever the interval, and Lua
   prints any NaN that gives (0 / 0) as "nan" where C's printf would write "-nan". */
static double rate_of(double count, double seconds, bool lua_spelling)
{
  if (!lua_spelling)
    return seconds > 0 ? count / seconds : 0;
  double rate = count / seconds;
  return isnan(rate) ? fabs(rate) : rate;
}

int report_sql_line(char *buf, size_t len, unsigned threads, double seconds, double events,
                    double reads, double writes, double other, const char *percentile,
                    double latency_ms, double errors, double reconnects, bool lua_spelling)
{
  return snprintf(buf, len,
                  "thds: %u tps: %4.2f qps: %4.2f (r/w/o: %4.2f/%4.2f/%4.2f) "
                  "lat (ms,%s%%): %4.2f err/s%s %4.2f reconn/s: %4.2f",
                  threads, rate_of(events, seconds, lua_spelling),
                  rate_of(reads + writes + other, seconds, lua_spelling),
                  rate_of(reads, seconds, lua_spelling), rate_of(writes, seconds, lua_spelling),
                  rate_of(other, seconds, lua_spelling), percentile, latency_ms,
                  lua_spelling ? "" : ":", rate_of(errors, seconds, lua_spelling),
                  rate_of(reconnects, seconds, lua_spelling));
}

void report_intermediate_sql(const sb_stat_t *stat, const report_layout *layout)
{
  char pct[32], line[512];

  report_sql_line(line, sizeof(line), stat->threads_running, stat->time_interval,
                  (double) stat->events, (double) stat->reads, (double) stat->writes,
                  (double) stat->other, percentile_text(layout->percentile, pct, sizeof(pct)),
                  stat->latency_pct * 1e3, (double) stat->errors, (double) stat->reconnects,
                  false);
  log_timestamped(LOG_NOTICE, stat->time_total, "%s", line);
  queue_line(stat, layout, ",");
  /* Ours, after 1.0.20's lines, only while reconnects fail: without it a dead server shows
     as an idle one (tps, err/s and reconn/s all 0). Not in the exact mode. */
  if ((stat->failed_reconnects > 0 || stat->unreachable_threads > 0) && !output_exact())
    log_timestamped(LOG_NOTICE, stat->time_total,
                    "server unreachable: failed reconn/s: %4.2f threads reconnecting: %u",
                    per_second(stat->failed_reconnects, stat->time_interval),
                    stat->unreachable_threads);
}

void report_unfinished(unsigned count)
{
  log_text(LOG_NOTICE, "%s", "");
  log_text(LOG_NOTICE, "Number of unfinished transactions on forced shutdown: %u", count);
}

void report_cumulative_general(const sb_stat_t *stat, const report_layout *layout)
{
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
  for (size_t i = 0; i < layout->percentile_count; i++) {
    char pct[32];
    double value = i == 0 ? stat->latency_pct : stats_percentile(stat, layout->percentiles[i]);
    log_text(LOG_NOTICE, "%11sth percentile: %27.2f",
             percentile_text(layout->percentiles[i], pct, sizeof(pct)), value * 1e3);
  }
  if (layout->percentile_count == 0)
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

void report_outages(const outage_summary *o)
{
  if (o->ended_threads > 0)
    log_text(LOG_NOTICE, "Server unreachable %s %.2fs to %.2fs: %" PRIu64 " failed reconnects "
             "by %u thread%s, then reconnected", o->ended_several ? "at times from" : "from",
             o->ended_from, o->ended_to, o->ended_failed, o->ended_threads,
             o->ended_threads == 1 ? "" : "s");
  if (o->ongoing_threads > 0)
    log_text(LOG_NOTICE, "Server unreachable from %.2fs to the end (%.2fs): %" PRIu64
             " failed reconnects by %u thread%s", o->ongoing_from, o->end, o->ongoing_failed,
             o->ongoing_threads, o->ongoing_threads == 1 ? "" : "s");
  if (o->last_error[0] != '\0')
    log_text(LOG_NOTICE, "    last error: %s", o->last_error);
  if (o->run_failed)
    log_text(LOG_NOTICE, "    no event succeeded after %.2fs: the run failed (exit code 1)",
             o->ongoing_from);
  log_text(LOG_NOTICE, "%s", "");
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
  if (stat->error_code_count > 0)
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
  /* a blank line closes the block, as each of 1.0.20's */
  log_text(LOG_NOTICE, "%s", "");
}
