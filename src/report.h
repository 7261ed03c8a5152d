/*
 * report.h: sysbench 1.0's report text: the intermediate "[ Ns ] thds: ..." lines and the
 * final "General statistics" / "SQL statistics" blocks, byte for byte, since people parse them.
 * What a report shows besides its figures (the percentiles, the --rate queue line) is its
 * layout, given by the caller.
 */
#ifndef SB_REPORT_H
#define SB_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

typedef struct report_layout {
  double percentile;             /* the intermediate line's (the first --percentile); 0 = off */
  const double *percentiles;     /* the cumulative report's, as given */
  size_t percentile_count;       /* 0: "percentile stats: disabled" */
  bool queue;                    /* --rate: a "queue length: N concurrency: N" line follows
                                    each intermediate line */
} report_layout;

/* "[ Ns ] thds: N eps: X lat (ms,P%): Y" (+ the queue line under --rate). */
void report_intermediate_default(const sb_stat_t *stat, const report_layout *layout);
/* "[ Ns ] thds: N tps: ... qps: ... (r/w/o: ...) lat ... err/s: ... reconn/s: ...", and
   when reconnects failed in the interval or some are failing at its end, ours after it:
   "[ Ns ] server unreachable: failed reconn/s: X threads reconnecting: N". */
void report_intermediate_sql(const sb_stat_t *stat, const report_layout *layout);

/* The SQL intermediate line after its "[ Ns ] ", in one place for both of 1.0.20's spellings:
   the C report's ("err/s: X"), and, with `lua_spelling`, that of its Lua report_default
   ("err/s X", and rates divided even by an empty interval), which sysbench.report_default
   prints through FFI. Counts are doubles, as Lua has them. Returns snprintf's length. */
int report_sql_line(char *buf, size_t len, unsigned threads, double seconds, double events,
                    double reads, double writes, double other, const char *percentile,
                    double latency_ms, double errors, double reconnects, bool lua_spelling);

/* Blank line, "General statistics:", "Latency (ms):", "Threads fairness:", blank line. */
void report_cumulative_general(const sb_stat_t *stat, const report_layout *layout);
/* "SQL statistics:" block (no blank line after it: the general block brings its own). */
void report_cumulative_sql(const sb_stat_t *stat);

/* "Number of unfinished transactions on forced shutdown: N" (with a blank line before). */
void report_unfinished(unsigned count);

/* Ours, after 1.0.20's blocks of an SQL test: queries by statement kind, rows returned by reads
   and ignored errors by code (the last two only when there are any), then a blank line. */
void report_cumulative_sql_details(const sb_stat_t *stat);

/* Ours, after that: when the server was unreachable (reconnects failing after a lost
   connection), from when to when, how many reconnects failed, the last reason, and whether
   the run failed for it; then a blank line. */
void report_outages(const outage_summary *outages);

/* A percentile as people write it: "95", "99.9". */
const char *percentile_text(double pct, char *buf, size_t len);

#endif
