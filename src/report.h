/*
 * report.h: sysbench 1.0's report text: the intermediate "[ Ns ] thds: ..." lines and the
 * final "General statistics" / "SQL statistics" blocks, byte for byte, since people parse them.
 */
#ifndef SB_REPORT_H
#define SB_REPORT_H

#include <stddef.h>

#include "stats.h"

/* "[ Ns ] thds: N eps: X lat (ms,P%): Y" (+ the queue line under --rate). */
void report_intermediate_default(const sb_stat_t *stat);
/* "[ Ns ] thds: N tps: ... qps: ... (r/w/o: ...) lat ... err/s: ... reconn/s: ..." */
void report_intermediate_sql(const sb_stat_t *stat);

/* Blank line, "General statistics:", "Latency (ms):", "Threads fairness:", blank line. */
void report_cumulative_general(const sb_stat_t *stat);
/* "SQL statistics:" block (no blank line after it: the general block brings its own). */
void report_cumulative_sql(const sb_stat_t *stat);

/* "Number of unfinished transactions on forced shutdown: N" (with a blank line before). */
void report_unfinished(unsigned count);

/* Ours, after 1.0.20's blocks of an SQL test: queries by statement kind, rows returned by reads
   and ignored errors by code (the last two only when there are any). */
void report_cumulative_sql_details(const sb_stat_t *stat);

/* A percentile as people write it: "95", "99.9". */
const char *percentile_text(double pct, char *buf, size_t len);

#endif
