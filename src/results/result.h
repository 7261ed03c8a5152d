/*
 * result.h: the result document in memory: runs (one per thread count of a sweep), each with
 * its options, environment, clients, intervals, checkpoints and final figures, every period
 * carrying its latency histogram bucket by bucket. What the result file holds (docs/results.md),
 * what `compare` reads and what `merge` adds up.
 */
#ifndef SB_RESULTS_RESULT_H
#define SB_RESULTS_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "histogram.h"
#include "run_config.h"
#include "stats.h"

#define RESULT_FORMAT_NAME "sysbench-result"
/* Version 2 added: per-client run ids, `measured` and `errors` of a run, every option's
   effective value, driver statistics, latency by operation. Version 1 files still read. */
#define RESULT_FORMAT_VERSION 2
#define RESULT_FORMAT_OLDEST_READ 1

/* The non-empty buckets of a latency histogram (histogram.h's layout), ascending. */
typedef struct result_buckets {
  size_t n;
  uint32_t *index;
  uint64_t *count;
} result_buckets;

typedef struct result_error_count {
  char code[16];               /* "1213", "40P01", "other" */
  uint64_t count;
} result_error_count;

/* The latency of one kind of operation inside the events (fileio: read, write, fsync). */
typedef struct result_operation {
  char name[16];
  uint64_t count, latency_sum_ns, latency_min_ns, latency_max_ns;
  result_buckets histogram;
} result_operation;

/* What happened in one period: an interval, the time up to a checkpoint, or the final report
   (the time since the last checkpoint, as 1.0's final report). */
typedef struct result_period {
  double time;                 /* seconds from the start of the measurement to the end */
  double duration;             /* seconds the period covers */
  unsigned threads_running;
  uint64_t events, reads, writes, other, errors, reconnects, rows, bytes_read, bytes_written;
  uint64_t statements[SB_STMT_KINDS];
  size_t error_code_count;
  result_error_count *error_codes;
  uint64_t latency_sum_ns;
  bool has_extremes;           /* min/max known (not for intervals) */
  uint64_t latency_min_ns, latency_max_ns;
  bool has_queue;              /* --rate: queue length and concurrency at the end */
  uint64_t queue_length, concurrency;
  result_buckets histogram;
  size_t thread_count;         /* per worker thread (final and checkpoints): fairness */
  uint64_t *thread_events;
  uint64_t *thread_time_ns;
  size_t operation_count;      /* latency by operation (final and checkpoints of fileio) */
  result_operation *operations;
} result_period;

/* One client machine's part of a run (a merged run has several). */
typedef struct result_client {
  char *host;
  char *os;
  unsigned cpus;
  unsigned threads;
  uint64_t start_unix_ns;      /* wall clock at the start of the measurement (after warm-up) */
  char *source;                /* the file it was merged from; NULL for a fresh run */
  char *run_id;                /* random, one per run of a process: tells runs apart (merge
                                  refuses one run twice); NULL in version 1 files */
  uint64_t pid;                /* the process that ran it (0: unknown) */
} result_client;

typedef struct result_option {
  char *name;
  char *value;                 /* NULL: the option has no value */
} result_option;

/* A count a driver reports about its engine (--rocksdb-stats: block cache hits ...). */
typedef struct result_counter {
  char *name;
  uint64_t value;
} result_counter;

typedef struct result_run {
  char *test;                  /* "oltp_read_write", "cpu" */
  char *sysbench_version;
  char *tool;                  /* the program that measured it: "sysbench-rebuilt" */
  char *tool_version;          /* its version */
  char *tool_commit;           /* the commit it was built from ("unknown" without one) */
  char *driver;                /* --db-driver of an SQL test; NULL otherwise */
  char *server_version;        /* what the server said it is; NULL when unknown */
  unsigned threads;            /* all clients together */
  double time_limit, warmup_time, report_interval, rate;
  uint64_t event_limit;
  size_t percentile_count;
  double percentiles[RUNNER_MAX_PERCENTILES];
  size_t argc;
  char **argv;                 /* the command line, passwords masked */
  size_t option_count;
  result_option *options;      /* options the user gave, passwords masked */
  size_t effective_count;
  result_option *effective;    /* every option's value as the run used it, passwords masked;
                                  none in version 1 files */
  size_t driver_stat_count;
  result_counter *driver_stats;  /* what the driver reported about its engine */
  char *driver_stats_text;     /* ... and its own text of it, when it has one */
  size_t client_count;
  result_client *clients;
  uint64_t start_unix_ns;      /* the earliest client's start */
  size_t interval_count;
  result_period *intervals;
  size_t checkpoint_count;
  result_period *checkpoints;
  result_period final;
  int exit_code;
  bool measured;               /* the measurement began; false: the run failed before */
  size_t error_count;
  char **errors;               /* the FATAL and ALERT lines the run printed, masked */
  bool has_outage;             /* the server was unreachable for a while (not read back) */
  outage_summary outage;
} result_run;

typedef struct result_doc {
  size_t run_count;
  result_run *runs;
} result_doc;

/* ---- memory ---- */
void result_period_free(result_period *p);
void result_run_free(result_run *r);
void result_doc_free(result_doc *d);
/* Append a run (moved into the document; *run is left zeroed). -1 when out of memory. */
int result_doc_add_run(result_doc *d, result_run *run);
/* Grow an array of periods by one zeroed entry; NULL when out of memory. */
result_period *result_periods_push(result_period **items, size_t *count);
char *result_strdup(const char *s);    /* NULL stays NULL */

/* ---- histograms ---- */
int result_buckets_from_histogram(result_buckets *out, const latency_histogram *h);
void result_buckets_to_histogram(latency_histogram *h, const result_buckets *b);
/* dst += src, bucket by bucket. -1 when out of memory. */
int result_buckets_add(result_buckets *dst, const result_buckets *src);
uint64_t result_buckets_total(const result_buckets *b);

/* ---- figures ---- */
double result_rate(uint64_t count, double seconds);
uint64_t result_queries(const result_period *p);
/* Latency at percentile pct (ns), by the rule of the text report (clamped to min/max when
   known); 0 for a period without latencies. */
uint64_t result_percentile_ns(const result_period *p, double pct);
double result_latency_avg_ns(const result_period *p);

/* Add `count` of error code `code` to a period. -1 when out of memory. */
int result_add_error_code(result_period *p, const char *code, uint64_t count);

/* The operation `name` of a period, added (zeroed) when it has none yet; NULL when out of
   memory. */
result_operation *result_operation_get(result_period *p, const char *name);
/* a += b for one kind of operation (counts, sum, extremes, histogram). -1 when out of memory. */
int result_operation_add(result_operation *a, const result_operation *b);
/* Latency at percentile pct of an operation (ns), clamped to its extremes. */
uint64_t result_operation_percentile_ns(const result_operation *o, double pct);

/* Append a copy of a string to an array of strings. -1 when out of memory. */
int result_strings_push(char ***items, size_t *count, const char *text);
/* Set counter `name` (added when new). -1 when out of memory. */
int result_counter_set(result_counter **items, size_t *count, const char *name, uint64_t value);
/* A wall-clock time as "2025-03-01 10:00:00" (UTC), in buf. */
char *result_time_text(uint64_t unix_ns, char *buf, size_t len);
/* The value of option `name` in a list (NULL when absent or without a value). */
const char *result_option_value(const result_option *items, size_t count, const char *name,
                                bool *found);

#endif
