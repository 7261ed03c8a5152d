/*
 * stats.c: per-worker counters and latencies, snapshots of them, and the arithmetic that
 * turns two snapshots into a report. See stats.h for who writes what.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "units.h"

const char *const sb_stmt_kind_names[SB_STMT_KINDS] = {
  "select", "insert", "update", "delete", "begin", "commit", "other"
};

/* The kinds in the text report: SQL's words, and no label of 1.0.20's report ("other:" is
   one), so a parser collecting 1.0.20's labels never picks up ours. */
const char *const sb_stmt_kind_labels[SB_STMT_KINDS] = {
  "SELECT", "INSERT", "UPDATE", "DELETE", "BEGIN", "COMMIT", "other statements"
};

/* The epoch of stats that no table lists: never reset. */
static const uint32_t no_reset_epoch;

static inline uint64_t load64(const uint64_t *p)
{
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void store64(uint64_t *p, uint64_t v)
{
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

int worker_stats_init(worker_stats *w, const uint32_t *reset_epoch)
{
  memset(w, 0, sizeof(*w));
  w->latency_min_ns = UINT64_MAX;
  w->reset_epoch = reset_epoch != NULL ? reset_epoch : &no_reset_epoch;
  w->histogram = histogram_new();
  return w->histogram == NULL ? -1 : 0;
}

void worker_stats_free(worker_stats *w)
{
  histogram_free(w->histogram);
  w->histogram = NULL;
}

int stats_table_init(stats_table *t, unsigned count)
{
  t->workers = calloc(count > 0 ? count : 1, sizeof(*t->workers));
  t->count = count;
  t->epoch = 0;
  return t->workers == NULL ? -1 : 0;
}

void stats_table_free(stats_table *t)
{
  free(t->workers);
  t->workers = NULL;
  t->count = 0;
}

void stats_new_epoch(stats_table *t)
{
  __atomic_add_fetch(&t->epoch, 1, __ATOMIC_RELEASE);
}

void stats_record_event(worker_stats *w, uint64_t latency_ns)
{
  uint32_t epoch = __atomic_load_n(w->reset_epoch, __ATOMIC_ACQUIRE);

  if (w->epoch != epoch) {
    store64(&w->latency_min_ns, latency_ns);
    store64(&w->latency_max_ns, latency_ns);
    /* the extremes first: a reporter that sees the new epoch (acquire) sees them too */
    __atomic_store_n(&w->epoch, epoch, __ATOMIC_RELEASE);
  } else {
    if (latency_ns < w->latency_min_ns)
      store64(&w->latency_min_ns, latency_ns);
    if (latency_ns > w->latency_max_ns)
      store64(&w->latency_max_ns, latency_ns);
  }
  store64(&w->latency_sum_ns, w->latency_sum_ns + latency_ns);
  store64(&w->counters[SB_CNT_EVENT], w->counters[SB_CNT_EVENT] + 1);
  histogram_record(w->histogram, latency_ns);
  /* read by the main thread after the run, to tell whether any event succeeded after an
     outage began */
  w->outage.last_event_start_ns = w->event_start_ns;
}

uint64_t stats_error_code_pack(const char *text)
{
  uint64_t code = 0;
  for (unsigned i = 0; i < 8 && text[i] != '\0'; i++)
    code |= (uint64_t) (unsigned char) text[i] << (8 * i);
  return code;
}

const char *stats_error_code_text(uint64_t code, char *buf)
{
  unsigned i = 0;
  if (code == 0)
    return strcpy(buf, "other");
  for (; i < 8 && (code >> (8 * i)) != 0; i++)
    buf[i] = (char) ((code >> (8 * i)) & 0xff);
  buf[i] = '\0';
  return buf;
}

void stats_record_error_code(worker_stats *w, uint64_t code)
{
  if (w->warmup_event)            /* not measured, as stats_count() */
    return;
  /* The last slot is kept for codes beyond the table ("other", code 0). */
  stats_error_entry *slot = &w->error_codes[STATS_WORKER_ERROR_CODES - 1];

  for (unsigned i = 0; i < STATS_WORKER_ERROR_CODES - 1; i++) {
    stats_error_entry *e = &w->error_codes[i];
    if (e->count == 0) {
      /* A new code: its name goes in before its count makes the slot visible. */
      store64(&e->code, code);
      slot = e;
      break;
    }
    if (e->code == code) {
      slot = e;
      break;
    }
  }
  __atomic_store_n(&slot->count, slot->count + 1, __ATOMIC_RELEASE);
}

/* Add `count` of `code` to a table of `*n` (up to `max`) entries. When the table is full,
   the last entry is the one for code 0 ("other codes"). */
static void error_table_add(stats_error_entry *table, unsigned *n, unsigned max, uint64_t code,
                            uint64_t count)
{
  for (int pass = 0; pass < 2; pass++) {
    for (unsigned i = 0; i < *n; i++) {
      if (table[i].code == code) {
        table[i].count += count;
        return;
      }
    }
    /* The last free entry is for code 0: a new code beyond it counts as "other". */
    if (*n < max - 1 || code == 0)
      break;
    code = 0;
  }
  if (*n < max) {
    table[*n].code = code;
    table[*n].count = count;
    (*n)++;
  }
}

int stats_snapshot_init(stats_snapshot *s, unsigned threads)
{
  memset(s, 0, sizeof(*s));
  s->threads = threads;
  s->thread_events = calloc(threads > 0 ? threads : 1, sizeof(uint64_t));
  s->thread_latency_ns = calloc(threads > 0 ? threads : 1, sizeof(uint64_t));
  s->histogram = histogram_new();
  if (s->thread_events == NULL || s->thread_latency_ns == NULL || s->histogram == NULL) {
    stats_snapshot_free(s);
    return -1;
  }
  return 0;
}

void stats_snapshot_free(stats_snapshot *s)
{
  free(s->thread_events);
  free(s->thread_latency_ns);
  histogram_free(s->histogram);
  memset(s, 0, sizeof(*s));
}

void stats_take(const stats_table *t, stats_snapshot *s)
{
  assert(s->threads == t->count);
  memset(s->counters, 0, sizeof(s->counters));
  s->latency_sum_ns = 0;
  s->error_code_count = 0;
  histogram_clear(s->histogram);

  for (unsigned i = 0; i < t->count; i++) {
    const worker_stats *w = t->workers[i];
    for (int c = 0; c < SB_CNT_MAX; c++)
      s->counters[c] += load64(&w->counters[c]);
    s->thread_events[i] = load64(&w->counters[SB_CNT_EVENT]);
    s->thread_latency_ns[i] = load64(&w->latency_sum_ns);
    s->latency_sum_ns += s->thread_latency_ns[i];
    histogram_add_live(s->histogram, w->histogram);
    for (unsigned c = 0; c < STATS_WORKER_ERROR_CODES; c++) {
      uint64_t count = __atomic_load_n(&w->error_codes[c].count, __ATOMIC_ACQUIRE);
      if (count > 0)
        error_table_add(s->error_codes, &s->error_code_count, STATS_ERROR_CODES,
                        load64(&w->error_codes[c].code), count);
    }
  }
}

void stats_copy(stats_snapshot *dst, const stats_snapshot *src)
{
  dst->taken_ns = src->taken_ns;
  memcpy(dst->counters, src->counters, sizeof(dst->counters));
  dst->latency_sum_ns = src->latency_sum_ns;
  assert(dst->threads == src->threads);
  memcpy(dst->thread_events, src->thread_events, src->threads * sizeof(uint64_t));
  memcpy(dst->thread_latency_ns, src->thread_latency_ns, src->threads * sizeof(uint64_t));
  histogram_snapshot(dst->histogram, src->histogram);
  memcpy(dst->error_codes, src->error_codes, sizeof(dst->error_codes));
  dst->error_code_count = src->error_code_count;
}

bool stats_thread_latency_extremes(const stats_table *t, unsigned thread_id, uint64_t *min_ns,
                                   uint64_t *max_ns)
{
  uint32_t epoch = __atomic_load_n(&t->epoch, __ATOMIC_ACQUIRE);
  const worker_stats *w = thread_id < t->count ? t->workers[thread_id] : NULL;

  /* A worker that has not finished an event since the reset still shows old extremes. */
  if (w == NULL || __atomic_load_n(&w->epoch, __ATOMIC_ACQUIRE) != epoch) {
    *min_ns = *max_ns = 0;
    return false;
  }
  *min_ns = load64(&w->latency_min_ns);
  *max_ns = load64(&w->latency_max_ns);
  return true;
}

void stats_latency_extremes(const stats_table *t, uint64_t *min_ns, uint64_t *max_ns)
{
  uint64_t lo = UINT64_MAX, hi = 0;

  for (unsigned i = 0; i < t->count; i++) {
    uint64_t mn, mx;
    if (!stats_thread_latency_extremes(t, i, &mn, &mx))
      continue;
    if (mn < lo)
      lo = mn;
    if (mx > hi)
      hi = mx;
  }
  *min_ns = lo;
  *max_ns = hi;
}

unsigned stats_in_flight(const stats_table *t)
{
  unsigned n = 0;
  for (unsigned i = 0; i < t->count; i++)
    n += __atomic_load_n(&t->workers[i]->in_event, __ATOMIC_RELAXED);
  return n;
}

unsigned stats_unreachable(const stats_table *t)
{
  unsigned n = 0;
  for (unsigned i = 0; i < t->count; i++)
    n += outage_in_progress(&t->workers[i]->outage);
  return n;
}

static void fairness(sb_stat_t *out, const stats_snapshot *from, const stats_snapshot *to)
{
  unsigned n = to->threads;
  double events_sum = 0, time_sum = 0, events_sq = 0, time_sq = 0;

  if (n == 0)
    return;
  for (unsigned i = 0; i < n; i++) {
    events_sum += (double) (to->thread_events[i] - from->thread_events[i]);
    time_sum += units_ns_to_seconds(to->thread_latency_ns[i] - from->thread_latency_ns[i]);
  }
  out->events_avg = events_sum / n;
  out->time_avg = time_sum / n;
  for (unsigned i = 0; i < n; i++) {
    double de = (double) (to->thread_events[i] - from->thread_events[i]) - out->events_avg;
    double dt = units_ns_to_seconds(to->thread_latency_ns[i] - from->thread_latency_ns[i])
                - out->time_avg;
    events_sq += de * de;
    time_sq += dt * dt;
  }
  out->events_stddev = sqrt(events_sq / n);
  out->time_stddev = sqrt(time_sq / n);
}

void stats_compute(sb_stat_t *out, const stats_snapshot *from, const stats_snapshot *to,
                   latency_histogram *scratch, double percentile, uint64_t min_ns,
                   uint64_t max_ns)
{
  assert(from->threads == to->threads);  /* two snapshots of the same table */
  const uint64_t *a = from->counters, *b = to->counters;

  out->events = b[SB_CNT_EVENT] - a[SB_CNT_EVENT];
  out->reads = b[SB_CNT_READ] - a[SB_CNT_READ];
  out->writes = b[SB_CNT_WRITE] - a[SB_CNT_WRITE];
  out->other = b[SB_CNT_OTHER] - a[SB_CNT_OTHER];
  out->errors = b[SB_CNT_ERROR] - a[SB_CNT_ERROR];
  out->reconnects = b[SB_CNT_RECONNECT] - a[SB_CNT_RECONNECT];
  out->failed_reconnects = b[SB_CNT_RECONNECT_FAILED] - a[SB_CNT_RECONNECT_FAILED];
  out->rows = b[SB_CNT_ROWS] - a[SB_CNT_ROWS];
  out->bytes_read = b[SB_CNT_BYTES_READ] - a[SB_CNT_BYTES_READ];
  out->bytes_written = b[SB_CNT_BYTES_WRITTEN] - a[SB_CNT_BYTES_WRITTEN];
  out->time_interval = units_ns_to_seconds(to->taken_ns - from->taken_ns);
  for (unsigned k = 0; k < SB_STMT_KINDS; k++)
    out->statements[k] = b[SB_CNT_STMT_SELECT + k] - a[SB_CNT_STMT_SELECT + k];
  out->error_code_count = 0;
  for (unsigned i = 0; i < to->error_code_count; i++) {
    uint64_t count = to->error_codes[i].count;
    for (unsigned j = 0; j < from->error_code_count; j++)
      if (from->error_codes[j].code == to->error_codes[i].code)
        count -= from->error_codes[j].count;
    if (count > 0)
      error_table_add(out->error_codes, &out->error_code_count, STATS_ERROR_CODES,
                      to->error_codes[i].code, count);
  }
  /* Errors counted without a code (a script's sb_counter_inc(SB_CNT_ERROR)) are "other". */
  uint64_t coded = 0;
  for (unsigned i = 0; i < out->error_code_count; i++)
    coded += out->error_codes[i].count;
  if (out->errors > coded)
    error_table_add(out->error_codes, &out->error_code_count, STATS_ERROR_CODES, 0,
                    out->errors - coded);
  out->latency_min_ns = min_ns;
  out->latency_max_ns = max_ns;

  histogram_diff(scratch, to->histogram, from->histogram);
  out->histogram = scratch;
  out->latency_pct = 0;
  if (percentile > 0 && histogram_total(scratch) > 0)
    out->latency_pct =
        units_ns_to_seconds(histogram_percentile(scratch, percentile, min_ns, max_ns));

  out->latency_sum = units_ns_to_seconds(to->latency_sum_ns - from->latency_sum_ns);
  out->latency_avg = out->events ? out->latency_sum / (double) out->events : 0;
  out->latency_min = (out->events && min_ns != UINT64_MAX) ? units_ns_to_seconds(min_ns) : 0;
  out->latency_max = out->events ? units_ns_to_seconds(max_ns) : 0;
  fairness(out, from, to);
}

double stats_percentile(const sb_stat_t *stat, double pct)
{
  if (stat->histogram == NULL || pct <= 0 || histogram_total(stat->histogram) == 0)
    return 0;
  return units_ns_to_seconds(histogram_percentile(stat->histogram, pct, stat->latency_min_ns,
                                                  stat->latency_max_ns));
}
