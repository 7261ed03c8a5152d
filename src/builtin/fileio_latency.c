/*
 * fileio_latency.c: how long each read, write and fsync took, kept per worker and per kind of
 * operation, next to the event latency the runner keeps for 1.0.20's report. An event is one
 * request, but with --file-fsync-all it is a write and an fsync, and in async mode it is only
 * a submission; this is what lets the report say how long reads, writes and fsyncs took.
 *
 * A worker writes only its own records (plain relaxed stores, no lock). A cumulative report
 * (the final one, or a checkpoint) reads them all, subtracts what the previous one saw, and
 * starts a new epoch so each worker restarts its minimum and maximum. A recorded run also
 * hands each kind's figures and histogram to the result file.
 */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "fileio.h"
#include "histogram.h"
#include "results/output.h"
#include "results/recorder.h"
#include "runner.h"
#include "stats.h"

typedef struct {
  uint64_t count;
  uint64_t sum_ns;
  uint64_t min_ns;
  uint64_t max_ns;
  uint32_t epoch;               /* the epoch min/max belong to */
  latency_histogram *histogram;
} op_record;

typedef struct {
  op_record ops[FILEIO_OP_KINDS];
} __attribute__((aligned(128))) worker_latency;

static worker_latency *workers;
static unsigned worker_count;
static uint32_t current_epoch;

/* What the previous summary saw, per kind of operation (owned by the reporting thread). */
static struct {
  uint64_t count;
  uint64_t sum_ns;
  latency_histogram *histogram;
} seen[FILEIO_OP_KINDS];
static latency_histogram *now_histogram;
static latency_histogram *interval_histogram;

/* By fileio_op_index(), as the result file names them. */
static const char *const operation_names[FILEIO_OP_KINDS] = {"read", "write", "fsync"};

static inline uint64_t load64(const uint64_t *p)
{
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void store64(uint64_t *p, uint64_t v)
{
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

int fileio_latency_init(unsigned threads, unsigned kinds)
{
  workers = aligned_alloc(128, threads * sizeof(*workers));
  if (workers == NULL)
    return -1;
  memset(workers, 0, threads * sizeof(*workers));
  worker_count = threads;
  /* Records start in epoch 0, so the first one in epoch 1 sets min and max. */
  current_epoch = 1;
  for (unsigned i = 0; i < threads; i++)
    for (unsigned k = 0; k < FILEIO_OP_KINDS; k++)
      if ((kinds & (1u << k)) && (workers[i].ops[k].histogram = histogram_new()) == NULL)
        return -1;
  for (unsigned k = 0; k < FILEIO_OP_KINDS; k++) {
    seen[k].count = seen[k].sum_ns = 0;
    if ((seen[k].histogram = histogram_new()) == NULL)
      return -1;
  }
  now_histogram = histogram_new();
  interval_histogram = histogram_new();
  return now_histogram != NULL && interval_histogram != NULL ? 0 : -1;
}

void fileio_latency_free(void)
{
  for (unsigned i = 0; workers != NULL && i < worker_count; i++)
    for (unsigned k = 0; k < FILEIO_OP_KINDS; k++)
      histogram_free(workers[i].ops[k].histogram);
  free(workers);
  workers = NULL;
  for (unsigned k = 0; k < FILEIO_OP_KINDS; k++) {
    histogram_free(seen[k].histogram);
    seen[k].histogram = NULL;
  }
  histogram_free(now_histogram);
  histogram_free(interval_histogram);
  now_histogram = interval_histogram = NULL;
}

bool fileio_latency_measured(const worker *w)
{
  return !w->stats.warmup_event;
}

uint64_t fileio_event_started_ns(const worker *w)
{
  /* Under --rate the runner's start is when the event was due, queueing included: an
     operation's own latency starts now. */
  if (runner_config()->rate > 0)
    return clock_now_ns();
  return w->stats.event_start_ns;
}

void fileio_latency_record(int thread_id, fileio_op op, uint64_t latency_ns, bool measured)
{
  if (!measured)
    return;
  op_record *r = &workers[thread_id].ops[fileio_op_index(op)];
  uint32_t epoch = __atomic_load_n(&current_epoch, __ATOMIC_ACQUIRE);

  if (r->epoch != epoch) {
    __atomic_store_n(&r->epoch, epoch, __ATOMIC_RELAXED);
    store64(&r->min_ns, latency_ns);
    store64(&r->max_ns, latency_ns);
  } else {
    if (latency_ns < r->min_ns)
      store64(&r->min_ns, latency_ns);
    if (latency_ns > r->max_ns)
      store64(&r->max_ns, latency_ns);
  }
  store64(&r->sum_ns, r->sum_ns + latency_ns);
  store64(&r->count, r->count + 1);
  histogram_record(r->histogram, latency_ns);
}

void fileio_latency_summarize(fileio_latency_summary out[FILEIO_OP_KINDS], double percentile)
{
  uint32_t epoch = __atomic_load_n(&current_epoch, __ATOMIC_ACQUIRE);

  for (unsigned k = 0; k < FILEIO_OP_KINDS; k++) {
    uint64_t count = 0, sum = 0, min = UINT64_MAX, max = 0;

    histogram_clear(now_histogram);
    for (unsigned i = 0; i < worker_count; i++) {
      op_record *r = &workers[i].ops[k];
      count += load64(&r->count);
      sum += load64(&r->sum_ns);
      if (r->histogram != NULL)
        histogram_add_live(now_histogram, r->histogram);
      if (__atomic_load_n(&r->epoch, __ATOMIC_RELAXED) == epoch && load64(&r->count) > 0) {
        uint64_t lo = load64(&r->min_ns), hi = load64(&r->max_ns);
        if (lo < min)
          min = lo;
        if (hi > max)
          max = hi;
      }
    }
    histogram_diff(interval_histogram, now_histogram, seen[k].histogram);

    fileio_latency_summary *o = &out[k];
    o->count = count - seen[k].count;
    bool any = o->count > 0 && min != UINT64_MAX;
    o->min = any ? units_ns_to_seconds(min) : 0;
    o->max = any ? units_ns_to_seconds(max) : 0;
    o->avg = o->count > 0 ? units_ns_to_seconds(sum - seen[k].sum_ns) / (double) o->count : 0;
    o->percentile = percentile > 0 && any
        ? units_ns_to_seconds(histogram_percentile(interval_histogram, percentile, min, max)) : 0;

    if (results_recording())           /* the result file keeps them losslessly */
      recorder_operation_latency(operation_names[k], o->count, sum - seen[k].sum_ns,
                                 any ? min : 0, any ? max : 0, interval_histogram);

    seen[k].count = count;
    seen[k].sum_ns = sum;
    histogram_snapshot(seen[k].histogram, now_histogram);
  }
  __atomic_add_fetch(&current_epoch, 1, __ATOMIC_RELEASE);
}
