/*
 * stats.h: what each worker thread counts, and how the reporter turns that into reports.
 *
 * Every worker owns one cache-line-aligned worker_stats (in its struct worker): event and query
 * counters, the sum and extremes of event latencies, and a latency histogram. Only the worker
 * writes it, with plain stores; nothing on the per-event path is shared. A run lists its
 * workers' stats in a stats_table, which the reporter reads with relaxed loads into a
 * stats_snapshot; the difference of two snapshots is an interval (or the whole run since the
 * last checkpoint), which is what sb_stat_t reports describe. Resetting (after warm-up, at a
 * checkpoint) is the reporter taking a new baseline snapshot, never a write into a worker's
 * counters. Latency extremes cannot be subtracted, so a reset also bumps the table's epoch,
 * which tells each worker to restart its min/max at its next event.
 */
#ifndef SB_STATS_H
#define SB_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "histogram.h"
#include "outage.h"

/*
 * Counter kinds. The first six values are fixed: scripts declare
 * "SB_CNT_OTHER, SB_CNT_READ, SB_CNT_WRITE, SB_CNT_TRX, SB_CNT_ERROR, SB_CNT_RECONNECT"
 * through FFI and call sb_counter_inc(tid, SB_CNT_ERROR) with those numbers.
 */
typedef enum {
  SB_CNT_OTHER = 0,
  SB_CNT_READ = 1,
  SB_CNT_WRITE = 2,
  SB_CNT_EVENT = 3,        /* "SB_CNT_TRX" in the Lua declaration */
  SB_CNT_ERROR = 4,        /* ignored errors */
  SB_CNT_RECONNECT = 5,
  SB_CNT_ROWS = 6,         /* rows returned by reads (for rows per second) */
  SB_CNT_BYTES_READ = 7,
  SB_CNT_BYTES_WRITTEN = 8,
  /* Statements by kind, from their text (select ... commit): what the queries were. */
  SB_CNT_STMT_SELECT = 9,
  SB_CNT_STMT_INSERT,
  SB_CNT_STMT_UPDATE,
  SB_CNT_STMT_DELETE,
  SB_CNT_STMT_BEGIN,
  SB_CNT_STMT_COMMIT,
  SB_CNT_STMT_OTHER,
  SB_CNT_RECONNECT_FAILED, /* reconnects that failed after a lost connection (outage.h) */
  SB_CNT_MAX
} sb_counter_type;

#define SB_STMT_KINDS (SB_CNT_STMT_OTHER - SB_CNT_STMT_SELECT + 1)
/* "select", "insert", ... "other", in counter order (the result file's names). */
extern const char *const sb_stmt_kind_names[SB_STMT_KINDS];
/* "SELECT", "INSERT", ... "other statements" (the text report's). */
extern const char *const sb_stmt_kind_labels[SB_STMT_KINDS];

/*
 * Ignored errors by code (a MySQL error number or a PostgreSQL SQLSTATE, up to 8 characters
 * packed into a word, so a worker updates its table with plain stores). A worker keeps up to
 * STATS_WORKER_ERROR_CODES codes; further ones count under code 0 ("other codes"). A report
 * holds up to STATS_ERROR_CODES.
 */
#define STATS_WORKER_ERROR_CODES 16
#define STATS_ERROR_CODES 64
typedef struct stats_error_entry {
  uint64_t code;               /* packed text; 0 = other or unknown codes */
  uint64_t count;
} stats_error_entry;

/* "1213" -> packed code and back (buf of at least 9 bytes; code 0 reads "other"). */
uint64_t stats_error_code_pack(const char *text);
const char *stats_error_code_text(uint64_t code, char *buf);

typedef struct worker_stats {
  uint64_t counters[SB_CNT_MAX];
  uint64_t latency_sum_ns;
  uint64_t latency_min_ns;
  uint64_t latency_max_ns;
  uint64_t event_start_ns;     /* start of the running event (its scheduled time under --rate) */
  uint64_t scheduled_ns;       /* under --rate: when the next event was due */
  uint64_t events_quota;       /* --events: events this thread may still start */
  uint32_t epoch;              /* the reset epoch min/max belong to */
  uint32_t in_event;           /* 1 while event() runs: the reporter sums it as concurrency */
  uint32_t warmup_event;       /* the running event began during warm-up: not recorded */
  uint32_t warmup_seen_over;   /* this worker saw the warm-up end (it never starts again) */
  const uint32_t *reset_epoch; /* its table's epoch (stats_table.epoch) */
  latency_histogram *histogram;
  stats_error_entry error_codes[STATS_WORKER_ERROR_CODES];
  worker_outage outage;        /* its connection outages (outage.h) */
} __attribute__((aligned(128))) worker_stats;

/* Totals over a set of workers at one moment. */
typedef struct stats_snapshot {
  uint64_t taken_ns;
  uint64_t counters[SB_CNT_MAX];
  uint64_t latency_sum_ns;
  unsigned threads;
  uint64_t *thread_events;     /* per worker */
  uint64_t *thread_latency_ns; /* per worker */
  latency_histogram *histogram;
  stats_error_entry error_codes[STATS_ERROR_CODES];
  unsigned error_code_count;
} stats_snapshot;

/* A report: what happened between two snapshots. Times in seconds. */
typedef struct sb_stat {
  unsigned threads_running;
  double time_interval;
  double time_total;
  double latency_pct;          /* the --percentile latency, seconds; 0 when disabled */
  uint64_t events;
  uint64_t reads;
  uint64_t writes;
  uint64_t other;
  uint64_t errors;
  uint64_t reconnects;
  uint64_t failed_reconnects;  /* reconnects that failed after a lost connection */
  unsigned unreachable_threads;  /* intermediate reports: threads reconnecting at the tick */
  uint64_t rows;
  uint64_t bytes_read;
  uint64_t bytes_written;
  uint64_t queue_length;       /* --rate: events waiting for a worker */
  uint64_t concurrency;        /* --rate: events being executed */
  double latency_min;
  double latency_max;
  double latency_avg;
  double latency_sum;
  double events_avg;           /* fairness: per-thread events */
  double events_stddev;
  double time_avg;             /* fairness: per-thread execution time */
  double time_stddev;
  const latency_histogram *histogram;  /* the latencies behind latency_pct */
  uint64_t latency_min_ns;     /* exact extremes (clamp for further percentiles); 0 and */
  uint64_t latency_max_ns;     /* UINT64_MAX when unknown (intermediate reports) */
  uint64_t statements[SB_STMT_KINDS];  /* by kind, SB_CNT_STMT_SELECT order */
  stats_error_entry error_codes[STATS_ERROR_CODES];   /* ignored errors by code */
  unsigned error_code_count;
  const outage_summary *outage;  /* the final report: the run's outages; NULL otherwise */
} sb_stat_t;

/* A worker's stats, zeroed, with its histogram; `reset_epoch` is the epoch of the table it
   will be listed in (NULL: none, for a worker no report reads). 0 or -1 (out of memory). */
int worker_stats_init(worker_stats *w, const uint32_t *reset_epoch);
void worker_stats_free(worker_stats *w);

/* The stats of a run's workers, by worker id, and the run's reset epoch. */
typedef struct stats_table {
  worker_stats **workers;
  unsigned count;
  uint32_t epoch;
} stats_table;

int stats_table_init(stats_table *t, unsigned count);
void stats_table_free(stats_table *t);

/* Reset epoch: bumped by the reporter when it takes a new baseline. */
void stats_new_epoch(stats_table *t);

/* Record one finished event of `latency_ns` for `w` (called by the owning worker). */
void stats_record_event(worker_stats *w, uint64_t latency_ns);

/* Count one ignored error of `code` (packed) for `w` (called by the owning worker). */
void stats_record_error_code(worker_stats *w, uint64_t code);

/* Add to one of the worker's counters; only its owner calls this (a relaxed store, read by the
   reporter). The work of an event begun during the warm-up is not measured, like the event
   itself, even when it runs after the warm-up ended. */
static inline void stats_count(worker_stats *w, sb_counter_type type, uint64_t amount)
{
  if (w->warmup_event)
    return;
  __atomic_store_n(&w->counters[type], w->counters[type] + amount, __ATOMIC_RELAXED);
}

/* The same for a slot several threads write (the background slot): an atomic add, since a
   load and a store could lose another thread's count in between. */
static inline void stats_count_shared(worker_stats *w, sb_counter_type type, uint64_t amount)
{
  __atomic_fetch_add(&w->counters[type], amount, __ATOMIC_RELAXED);
}

/* The latency (seconds) at percentile `pct` of a report's histogram, clamped to its exact
   extremes; 0 when the report has no latencies. */
double stats_percentile(const sb_stat_t *stat, double pct);

/* Snapshots of a table of `threads` workers (only the table's workers: a worker_stats no
   table lists, such as the background one, is in no report). */
int stats_snapshot_init(stats_snapshot *s, unsigned threads);
void stats_snapshot_free(stats_snapshot *s);
void stats_take(const stats_table *t, stats_snapshot *s);
void stats_copy(stats_snapshot *dst, const stats_snapshot *src);

/* Minimum and maximum event latency since the last epoch, over all workers (ns). */
void stats_latency_extremes(const stats_table *t, uint64_t *min_ns, uint64_t *max_ns);
/* The same for one worker; false (and 0, 0) if it finished no event since the epoch. */
bool stats_thread_latency_extremes(const stats_table *t, unsigned thread_id, uint64_t *min_ns,
                                   uint64_t *max_ns);

/* In-flight events (workers inside event()). */
unsigned stats_in_flight(const stats_table *t);
/* Workers whose reconnects after a lost connection are failing now. */
unsigned stats_unreachable(const stats_table *t);

/*
 * Fill `out` with what happened between `from` and `to`; `scratch` receives the interval
 * histogram (out->histogram points at it). `percentile` is --percentile (0 = none);
 * min_ns/max_ns clamp the percentile (pass 0 and UINT64_MAX when unknown).
 */
void stats_compute(sb_stat_t *out, const stats_snapshot *from, const stats_snapshot *to,
                   latency_histogram *scratch, double percentile, uint64_t min_ns,
                   uint64_t max_ns);

#endif
