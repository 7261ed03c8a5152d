/*
 * result_read.c: a result file back into a result document, checked as it is read: the format
 * name and version, the histogram layout (it must be this build's, or merged histograms would
 * not be exact), every count a non-negative integer, histograms ascending and holding as many
 * latencies as the period has events. Each error names the field ("runs[1].final.events").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "results/json.h"
#include "results/result_io.h"
#include "secrets.h"

#define MAX_FILE_BYTES (1024L * 1024 * 1024)

typedef struct {
  char *err;
  size_t errlen;
  char path[256];              /* where we are: "runs[0].final" */
} reader;

static int bad(reader *rd, const char *field, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));

static int bad(reader *rd, const char *field, const char *fmt, ...)
{
  int n = snprintf(rd->err, rd->errlen, "%s%s%s: ", rd->path, rd->path[0] && field ? "." : "",
                   field ? field : "");
  if (n >= 0 && (size_t) n < rd->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->err + n, rd->errlen - (size_t) n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* Enter a member or item for error messages; returns the old length to restore. */
static size_t enter(reader *rd, const char *field, long index)
{
  size_t old = strlen(rd->path);
  if (index >= 0)
    snprintf(rd->path + old, sizeof(rd->path) - old, "%s%s[%ld]", old && field ? "." : "",
             field ? field : "", index);
  else
    snprintf(rd->path + old, sizeof(rd->path) - old, "%s%s", old ? "." : "", field);
  return old;
}

static void leave(reader *rd, size_t old)
{
  rd->path[old] = '\0';
}

static int need_u64(reader *rd, const json_value *obj, const char *field, uint64_t *out)
{
  const json_value *v = json_get(obj, field);
  if (v == NULL)
    return bad(rd, field, "missing (a non-negative integer)");
  if (!json_u64(v, out))
    return bad(rd, field, "expected a non-negative integer, found %s",
               v->type == JSON_NUMBER ? v->text : json_type_name(v->type));
  return 0;
}

static int opt_u64(reader *rd, const json_value *obj, const char *field, uint64_t *out)
{
  *out = 0;
  return json_get(obj, field) == NULL ? 0 : need_u64(rd, obj, field, out);
}

static int need_double(reader *rd, const json_value *obj, const char *field, double *out,
                       bool required)
{
  const json_value *v = json_get(obj, field);
  *out = 0;
  if (v == NULL || v->type == JSON_NULL)
    return required ? bad(rd, field, "missing (a number)") : 0;
  if (!json_double(v, out))
    return bad(rd, field, "expected a number, found %s", json_type_name(v->type));
  if (!(*out >= 0))
    return bad(rd, field, "expected a number of 0 or more, found %s", v->text);
  return 0;
}

static int read_string(reader *rd, const json_value *obj, const char *field, char **out)
{
  const json_value *v = json_get(obj, field);
  *out = NULL;
  if (v == NULL || v->type == JSON_NULL)
    return 0;
  if (v->type != JSON_STRING)
    return bad(rd, field, "expected a string, found %s", json_type_name(v->type));
  *out = strdup(v->text);
  return *out == NULL ? bad(rd, field, "out of memory") : 0;
}

static const json_value *opt_container(reader *rd, const json_value *obj, const char *field,
                                       json_type type, int *rc)
{
  const json_value *v = json_get(obj, field);
  *rc = 0;
  if (v == NULL || v->type == JSON_NULL)
    return NULL;
  if (v->type != type) {
    *rc = bad(rd, field, "expected %s, found %s", json_type_name(type),
              json_type_name(v->type));
    return NULL;
  }
  return v;
}

static int read_u64_array(reader *rd, const json_value *arr, const char *field, uint64_t **out,
                          size_t *count)
{
  *out = calloc(arr->count ? arr->count : 1, sizeof(uint64_t));
  *count = arr->count;
  if (*out == NULL)
    return bad(rd, field, "out of memory");
  for (size_t i = 0; i < arr->count; i++)
    if (!json_u64(arr->items[i], &(*out)[i]))
      return bad(rd, field, "item %zu: expected a non-negative integer", i);
  return 0;
}

static int read_histogram(reader *rd, const json_value *period, result_buckets *b)
{
  int rc;
  const json_value *arr = opt_container(rd, period, "histogram", JSON_ARRAY, &rc);
  if (rc != 0)
    return rc;
  if (arr == NULL)
    return bad(rd, "histogram", "missing (an array of [bucket, count] pairs)");
  b->index = malloc((arr->count ? arr->count : 1) * sizeof(uint32_t));
  b->count = malloc((arr->count ? arr->count : 1) * sizeof(uint64_t));
  if (b->index == NULL || b->count == NULL)
    return bad(rd, "histogram", "out of memory");
  for (size_t i = 0; i < arr->count; i++) {
    const json_value *pair = arr->items[i];
    uint64_t index, count;
    if (pair->type != JSON_ARRAY || pair->count != 2 || !json_u64(pair->items[0], &index) ||
        !json_u64(pair->items[1], &count))
      return bad(rd, "histogram", "item %zu: expected [bucket, count], two non-negative "
                 "integers", i);
    if (index >= HISTOGRAM_BUCKETS)
      return bad(rd, "histogram", "item %zu: bucket %llu is outside the layout (0 to %u)", i,
                 (unsigned long long) index, HISTOGRAM_BUCKETS - 1);
    if (b->n > 0 && index <= b->index[b->n - 1])
      return bad(rd, "histogram", "item %zu: buckets must be listed in ascending order", i);
    b->index[b->n] = (uint32_t) index;
    b->count[b->n++] = count;
  }
  return 0;
}

/* fileio's latency by operation: {"read": {count, latency_sum_ns, min, max, histogram}}. */
static int read_operations(reader *rd, const json_value *period, result_period *p)
{
  int rc;
  const json_value *ops = opt_container(rd, period, "operations", JSON_OBJECT, &rc);
  if (rc != 0 || ops == NULL)
    return rc;
  for (size_t i = 0; i < ops->count; i++) {
    const json_value *v = ops->items[i];
    size_t old = enter(rd, "operations", -1);
    size_t old2 = enter(rd, ops->keys[i], -1);
    result_operation *o = strlen(ops->keys[i]) < sizeof(o->name) ?
                          result_operation_get(p, ops->keys[i]) : NULL;
    if (o == NULL)
      rc = bad(rd, NULL, "expected a short operation name");
    else if (v->type != JSON_OBJECT)
      rc = bad(rd, NULL, "expected an object, found %s", json_type_name(v->type));
    else if (need_u64(rd, v, "count", &o->count) ||
             need_u64(rd, v, "latency_sum_ns", &o->latency_sum_ns) ||
             need_u64(rd, v, "latency_min_ns", &o->latency_min_ns) ||
             need_u64(rd, v, "latency_max_ns", &o->latency_max_ns) ||
             read_histogram(rd, v, &o->histogram))
      rc = -1;
    leave(rd, old2);
    leave(rd, old);
    if (rc != 0)
      return rc;
  }
  return 0;
}

/* exact: the histogram must hold exactly the period's events. True for the final report of a
   run that ended normally (taken after the workers stopped); intervals and checkpoints are
   taken while workers record, so there an event may be in the count and not yet in the
   histogram, or the other way round. */
static int read_period(reader *rd, const json_value *v, result_period *p, bool interval,
                       bool exact)
{
  int rc = 0;
  uint64_t threads;

  if (v->type != JSON_OBJECT)
    return bad(rd, NULL, "expected an object, found %s", json_type_name(v->type));
  if (need_double(rd, v, "time", &p->time, true) || need_double(rd, v, "duration",
                                                                 &p->duration, true) ||
      opt_u64(rd, v, "threads_running", &threads) || need_u64(rd, v, "events", &p->events) ||
      need_u64(rd, v, "reads", &p->reads) || need_u64(rd, v, "writes", &p->writes) ||
      need_u64(rd, v, "other", &p->other) || need_u64(rd, v, "errors", &p->errors) ||
      need_u64(rd, v, "reconnects", &p->reconnects) || opt_u64(rd, v, "rows", &p->rows) ||
      opt_u64(rd, v, "bytes_read", &p->bytes_read) ||
      opt_u64(rd, v, "bytes_written", &p->bytes_written) ||
      need_u64(rd, v, "latency_sum_ns", &p->latency_sum_ns))
    return -1;
  p->threads_running = (unsigned) threads;

  const json_value *st = opt_container(rd, v, "statements", JSON_OBJECT, &rc);
  if (rc != 0)
    return rc;
  for (unsigned k = 0; st != NULL && k < SB_STMT_KINDS; k++) {
    size_t old = enter(rd, "statements", -1);
    rc = opt_u64(rd, st, sb_stmt_kind_names[k], &p->statements[k]);
    leave(rd, old);
    if (rc != 0)
      return rc;
  }

  const json_value *codes = opt_container(rd, v, "errors_by_code", JSON_OBJECT, &rc);
  if (rc != 0)
    return rc;
  for (size_t i = 0; codes != NULL && i < codes->count; i++) {
    uint64_t n;
    if (!json_u64(codes->items[i], &n))
      return bad(rd, "errors_by_code", "%s: expected a non-negative integer", codes->keys[i]);
    if (result_add_error_code(p, codes->keys[i], n) != 0)
      return bad(rd, "errors_by_code", "out of memory");
  }

  bool has_min = json_get(v, "latency_min_ns") != NULL, has_max = json_get(v, "latency_max_ns");
  if (has_min != has_max)
    return bad(rd, has_min ? "latency_max_ns" : "latency_min_ns",
               "missing (latency_min_ns and latency_max_ns come together)");
  if (has_min) {
    if (need_u64(rd, v, "latency_min_ns", &p->latency_min_ns) ||
        need_u64(rd, v, "latency_max_ns", &p->latency_max_ns))
      return -1;
    p->has_extremes = true;
  } else if (!interval) {
    return bad(rd, "latency_min_ns", "missing (a non-negative integer)");
  }
  if (json_get(v, "queue_length") != NULL) {
    p->has_queue = true;
    if (need_u64(rd, v, "queue_length", &p->queue_length) ||
        need_u64(rd, v, "concurrency", &p->concurrency))
      return -1;
  }

  const json_value *te = opt_container(rd, v, "thread_events", JSON_ARRAY, &rc);
  if (rc != 0)
    return rc;
  const json_value *tt = opt_container(rd, v, "thread_time_ns", JSON_ARRAY, &rc);
  if (rc != 0)
    return rc;
  if ((te == NULL) != (tt == NULL) || (te != NULL && te->count != tt->count))
    return bad(rd, "thread_time_ns", "thread_events and thread_time_ns must list the same "
               "threads");
  if (te != NULL) {
    size_t n2;
    if (read_u64_array(rd, te, "thread_events", &p->thread_events, &p->thread_count) ||
        read_u64_array(rd, tt, "thread_time_ns", &p->thread_time_ns, &n2))
      return -1;
  }

  if (read_operations(rd, v, p) != 0 || read_histogram(rd, v, &p->histogram) != 0)
    return -1;
  uint64_t total = result_buckets_total(&p->histogram);
  if (exact && total != p->events)
    return bad(rd, "histogram", "holds %llu latencies, but the period has %llu events",
               (unsigned long long) total, (unsigned long long) p->events);
  return 0;
}

static int read_periods(reader *rd, const json_value *run, const char *field,
                        result_period **items, size_t *count, bool intervals)
{
  int rc;
  const json_value *arr = opt_container(rd, run, field, JSON_ARRAY, &rc);
  if (rc != 0 || arr == NULL)
    return rc;
  for (size_t i = 0; i < arr->count; i++) {
    result_period *p = result_periods_push(items, count);
    if (p == NULL)
      return bad(rd, field, "out of memory");
    size_t old = enter(rd, field, (long) i);
    rc = read_period(rd, arr->items[i], p, intervals, false);
    leave(rd, old);
    if (rc != 0)
      return rc;
  }
  return 0;
}

static int read_clients(reader *rd, const json_value *run, result_run *r)
{
  int rc;
  const json_value *arr = opt_container(rd, run, "clients", JSON_ARRAY, &rc);
  if (rc != 0)
    return rc;
  if (arr == NULL || arr->count == 0)
    return bad(rd, "clients", "missing (an array of at least one client)");
  r->clients = calloc(arr->count, sizeof(result_client));
  if (r->clients == NULL)
    return bad(rd, "clients", "out of memory");
  for (size_t i = 0; i < arr->count; i++) {
    const json_value *c = arr->items[i];
    result_client *out = &r->clients[i];
    uint64_t cpus = 0, threads = 0;
    size_t old = enter(rd, "clients", (long) i);
    r->client_count = i + 1;
    rc = c->type != JSON_OBJECT ? bad(rd, NULL, "expected an object") : 0;
    if (rc == 0)
      rc = read_string(rd, c, "host", &out->host) || read_string(rd, c, "os", &out->os) ||
           opt_u64(rd, c, "cpus", &cpus) || need_u64(rd, c, "threads", &threads) ||
           need_u64(rd, c, "start_unix_ns", &out->start_unix_ns) ||
           read_string(rd, c, "source", &out->source) ||
           read_string(rd, c, "run_id", &out->run_id) || opt_u64(rd, c, "pid", &out->pid);
    leave(rd, old);
    if (rc != 0)
      return -1;
    out->cpus = (unsigned) cpus;
    out->threads = (unsigned) threads;
  }
  return 0;
}

/* An object of options: strings (null: an option without a value), masked again on reading,
   as a file written before connection strings were masked may hold a password. */
static int read_options(reader *rd, const json_value *run, const char *field,
                        result_option **items, size_t *count)
{
  int rc;
  const json_value *opts = opt_container(rd, run, field, JSON_OBJECT, &rc);
  if (rc != 0 || opts == NULL)
    return rc;
  *items = calloc(opts->count ? opts->count : 1, sizeof(result_option));
  if (*items == NULL)
    return bad(rd, field, "out of memory");
  for (size_t i = 0; i < opts->count; i++, (*count)++) {
    const json_value *v = opts->items[i];
    if (v->type != JSON_STRING && v->type != JSON_NULL)
      return bad(rd, field, "%s: expected a string", opts->keys[i]);
    (*items)[i].name = strdup(opts->keys[i]);
    (*items)[i].value = v->type == JSON_STRING ? secrets_option_value_dup(opts->keys[i], v->text)
                                               : NULL;
    if ((*items)[i].name == NULL || (v->type == JSON_STRING && (*items)[i].value == NULL))
      return bad(rd, field, "out of memory");
  }
  return 0;
}

static int read_strings(reader *rd, const json_value *run, result_run *r)
{
  int rc;
  const json_value *argv = opt_container(rd, run, "command_line", JSON_ARRAY, &rc);
  if (rc != 0)
    return rc;
  if (argv != NULL) {
    r->argv = calloc(argv->count ? argv->count : 1, sizeof(char *));
    if (r->argv == NULL)
      return bad(rd, "command_line", "out of memory");
    for (size_t i = 0; i < argv->count; i++, r->argc++) {
      if (argv->items[i]->type != JSON_STRING)
        return bad(rd, "command_line", "item %zu: expected a string", i);
      /* Masked again: a file written before connection strings were masked may hold one. */
      r->argv[i] = secrets_argument_dup(argv->items[i]->text);
    }
  }
  return read_options(rd, run, "options", &r->options, &r->option_count) ||
         read_options(rd, run, "effective_options", &r->effective, &r->effective_count) ? -1
         : 0;
}

/* The FATAL and ALERT lines of the run (version 2), masked again as the command line is. */
static int read_errors(reader *rd, const json_value *run, result_run *r)
{
  int rc;
  const json_value *arr = opt_container(rd, run, "errors", JSON_ARRAY, &rc);
  if (rc != 0 || arr == NULL)
    return rc;
  for (size_t i = 0; i < arr->count; i++) {
    if (arr->items[i]->type != JSON_STRING)
      return bad(rd, "errors", "item %zu: expected a string", i);
    char *masked = secrets_mask_dup(arr->items[i]->text);
    rc = masked == NULL ? -1 : result_strings_push(&r->errors, &r->error_count, masked);
    free(masked);
    if (rc != 0)
      return bad(rd, "errors", "out of memory");
  }
  return 0;
}

static int read_driver_statistics(reader *rd, const json_value *run, result_run *r)
{
  int rc;
  const json_value *ds = opt_container(rd, run, "driver_statistics", JSON_OBJECT, &rc);
  if (rc != 0 || ds == NULL)
    return rc;
  size_t old = enter(rd, "driver_statistics", -1);
  const json_value *counters = opt_container(rd, ds, "counters", JSON_OBJECT, &rc);
  for (size_t i = 0; rc == 0 && counters != NULL && i < counters->count; i++) {
    uint64_t value;
    if (!json_u64(counters->items[i], &value))
      rc = bad(rd, "counters", "%s: expected a non-negative integer", counters->keys[i]);
    else if (result_counter_set(&r->driver_stats, &r->driver_stat_count, counters->keys[i],
                                value) != 0)
      rc = bad(rd, "counters", "out of memory");
  }
  if (rc == 0)
    rc = read_string(rd, ds, "text", &r->driver_stats_text);
  leave(rd, old);
  return rc;
}

static int read_run(reader *rd, const json_value *v, result_run *r)
{
  uint64_t threads, limit_events = 0;
  int rc;

  if (v->type != JSON_OBJECT)
    return bad(rd, NULL, "expected an object, found %s", json_type_name(v->type));
  if (read_string(rd, v, "test", &r->test))
    return -1;
  if (r->test == NULL)
    return bad(rd, "test", "missing (the test's name)");
  if (read_string(rd, v, "sysbench_version", &r->sysbench_version) ||
      read_string(rd, v, "tool", &r->tool) ||
      read_string(rd, v, "tool_version", &r->tool_version) ||
      read_string(rd, v, "tool_commit", &r->tool_commit) ||
      read_string(rd, v, "driver", &r->driver) ||
      read_string(rd, v, "server_version", &r->server_version) ||
      need_u64(rd, v, "threads", &threads) ||
      need_u64(rd, v, "start_unix_ns", &r->start_unix_ns) ||
      need_double(rd, v, "report_interval", &r->report_interval, false))
    return -1;
  if (threads == 0)
    return bad(rd, "threads", "expected 1 or more");
  r->threads = (unsigned) threads;
  const json_value *exit_code = json_get(v, "exit_code");
  double code = 0;
  if (exit_code != NULL && !json_double(exit_code, &code))
    return bad(rd, "exit_code", "expected a number");
  r->exit_code = (int) code;
  const json_value *measured = json_get(v, "measured");
  r->measured = true;
  if (measured != NULL && measured->type != JSON_BOOL)
    return bad(rd, "measured", "expected true or false, found %s",
               json_type_name(measured->type));
  if (measured != NULL)
    r->measured = measured->boolean;

  const json_value *limits = opt_container(rd, v, "limits", JSON_OBJECT, &rc);
  if (rc != 0)
    return rc;
  if (limits != NULL) {
    size_t old = enter(rd, "limits", -1);
    rc = need_double(rd, limits, "time", &r->time_limit, false) ||
         opt_u64(rd, limits, "events", &limit_events) ||
         need_double(rd, limits, "warmup_time", &r->warmup_time, false) ||
         need_double(rd, limits, "rate", &r->rate, false);
    leave(rd, old);
    if (rc != 0)
      return -1;
    r->event_limit = limit_events;
  }
  const json_value *pcts = opt_container(rd, v, "percentiles", JSON_ARRAY, &rc);
  if (rc != 0)
    return rc;
  for (size_t i = 0; pcts != NULL && i < pcts->count && i < RUNNER_MAX_PERCENTILES; i++) {
    if (!json_double(pcts->items[i], &r->percentiles[i]) ||
        !(r->percentiles[i] > 0 && r->percentiles[i] <= 100))
      return bad(rd, "percentiles", "item %zu: expected a number above 0, up to 100", i);
    r->percentile_count = i + 1;
  }
  if (read_strings(rd, v, r) || read_errors(rd, v, r) || read_driver_statistics(rd, v, r) ||
      read_clients(rd, v, r))
    return -1;

  const json_value *final = json_get(v, "final");
  if (final == NULL)
    return bad(rd, "final", "missing (the final figures)");
  size_t old = enter(rd, "final", -1);
  rc = read_period(rd, final, &r->final, false, r->exit_code == 0);
  leave(rd, old);
  if (rc != 0)
    return -1;
  return read_periods(rd, v, "checkpoints", &r->checkpoints, &r->checkpoint_count, false) ||
         read_periods(rd, v, "intervals", &r->intervals, &r->interval_count, true) ? -1 : 0;
}

static int check_layout(reader *rd, const json_value *doc)
{
  const json_value *layout = json_get(doc, "histogram_layout");
  uint64_t exact, sub, max_bits, buckets;

  if (layout == NULL || layout->type != JSON_OBJECT)
    return bad(rd, "histogram_layout", "missing (the layout of the latency histograms)");
  size_t old = enter(rd, "histogram_layout", -1);
  int rc = need_u64(rd, layout, "exact_below", &exact) ||
           need_u64(rd, layout, "sub_bucket_bits", &sub) ||
           need_u64(rd, layout, "max_bits", &max_bits) ||
           need_u64(rd, layout, "buckets", &buckets);
  const char *unit = json_string(json_get(layout, "unit"));
  if (rc == 0 && (unit == NULL || strcmp(unit, "ns") != 0))
    rc = bad(rd, "unit", "expected \"ns\"");
  leave(rd, old);
  if (rc != 0)
    return -1;
  if (exact != HISTOGRAM_EXACT_LIMIT || sub != HISTOGRAM_SUB_BITS ||
      max_bits != HISTOGRAM_MAX_BITS || buckets != HISTOGRAM_BUCKETS)
    return bad(rd, "histogram_layout", "the histograms have another bucket layout (exact "
               "below %llu ns, %llu sub-bucket bits, %llu bits, %llu buckets) than this "
               "sysbench's (%u, %u, %u, %u), so they cannot be read exactly",
               (unsigned long long) exact, (unsigned long long) sub,
               (unsigned long long) max_bits, (unsigned long long) buckets,
               HISTOGRAM_EXACT_LIMIT, HISTOGRAM_SUB_BITS, HISTOGRAM_MAX_BITS, HISTOGRAM_BUCKETS);
  return 0;
}

int result_read_text(const char *text, size_t len, result_doc *out, char *err, size_t errlen)
{
  reader rd = { .err = err, .errlen = errlen };
  char jerr[256];
  json_value *doc = json_parse(text, len, jerr, sizeof(jerr));
  int rc = -1;

  memset(out, 0, sizeof(*out));
  if (doc == NULL) {
    snprintf(err, errlen, "not JSON: %s", jerr);
    return -1;
  }
  const char *format = json_string(json_get(doc, "format"));
  uint64_t version;
  if (doc->type != JSON_OBJECT || format == NULL || strcmp(format, RESULT_FORMAT_NAME) != 0) {
    snprintf(err, errlen, "not a sysbench result file (no \"format\": \"%s\")",
             RESULT_FORMAT_NAME);
    goto done;
  }
  if (need_u64(&rd, doc, "version", &version) != 0)
    goto done;
  if (version < RESULT_FORMAT_OLDEST_READ || version > RESULT_FORMAT_VERSION) {
    snprintf(err, errlen, "result format version %llu; this sysbench reads versions %d to %d",
             (unsigned long long) version, RESULT_FORMAT_OLDEST_READ, RESULT_FORMAT_VERSION);
    goto done;
  }
  if (check_layout(&rd, doc) != 0)
    goto done;
  int crc;
  const json_value *runs = opt_container(&rd, doc, "runs", JSON_ARRAY, &crc);
  if (crc != 0)
    goto done;
  if (runs == NULL || runs->count == 0) {
    bad(&rd, "runs", "missing (an array of at least one run)");
    goto done;
  }
  for (size_t i = 0; i < runs->count; i++) {
    result_run r;
    memset(&r, 0, sizeof(r));
    size_t old = enter(&rd, "runs", (long) i);
    int run_rc = read_run(&rd, runs->items[i], &r);
    leave(&rd, old);
    if (run_rc != 0 || result_doc_add_run(out, &r) != 0) {
      result_run_free(&r);
      goto done;
    }
  }
  rc = 0;
done:
  json_free(doc);
  if (rc != 0)
    result_doc_free(out);
  return rc;
}

int result_read_file(const char *path, result_doc *out, char *err, size_t errlen)
{
  bool from_stdin = strcmp(path, "-") == 0;
  FILE *f = from_stdin ? stdin : fopen(path, "rb");
  char why[400];

  memset(out, 0, sizeof(*out));
  if (errlen > 0)
    err[0] = '\0';
  if (f == NULL) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  size_t cap = 1 << 16, len = 0;
  char *text = malloc(cap);
  while (text != NULL) {
    if (len == cap) {
      if (cap >= (size_t) MAX_FILE_BYTES) {
        snprintf(err, errlen, "%s: larger than 1 GiB; not a result file", path);
        free(text);
        text = NULL;
        break;
      }
      char *grown = realloc(text, cap * 2);
      if (grown == NULL) {
        free(text);
        text = NULL;
        break;
      }
      text = grown;
      cap *= 2;
    }
    size_t n = fread(text + len, 1, cap - len, f);
    len += n;
    if (n == 0)
      break;
  }
  bool read_error = ferror(f);
  int saved = errno;
  if (!from_stdin)
    fclose(f);
  if (text == NULL) {
    if (err[0] == '\0')
      snprintf(err, errlen, "%s: out of memory", path);
    return -1;
  }
  if (read_error) {
    snprintf(err, errlen, "%s: cannot read: %s", path, strerror(saved));
    free(text);
    return -1;
  }
  int rc = result_read_text(text, len, out, why, sizeof(why));
  free(text);
  if (rc != 0)
    snprintf(err, errlen, "%s: %s", path, why);
  return rc;
}
