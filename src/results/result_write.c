/*
 * result_write.c: the result document as JSON (the schema of docs/results.md). Counts and
 * histograms are written exactly; the "summary" of each run and the rates of each interval are
 * derived from them for people and tools that only want the headline numbers, and are not read
 * back.
 */
#include <stdio.h>
#include <time.h>

#include "results/json.h"
#include "results/result_io.h"
#include "secrets.h"

static void put_time(json_writer *w, const char *key, uint64_t unix_ns)
{
  char text[64];
  time_t seconds = (time_t) (unix_ns / 1000000000u);
  struct tm tm;
  gmtime_r(&seconds, &tm);
  size_t n = strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf(text + n, sizeof(text) - n, ".%03uZ", (unsigned) (unix_ns / 1000000u % 1000u));
  json_put_string(w, key, text);
}

static void write_buckets(json_writer *w, const result_buckets *b)
{
  json_begin_array(w, "histogram", true);
  for (size_t i = 0; i < b->n; i++) {
    json_begin_array(w, NULL, true);
    json_put_u64(w, NULL, b->index[i]);
    json_put_u64(w, NULL, b->count[i]);
    json_end(w);
  }
  json_end(w);
}

static void write_period(json_writer *w, const char *key, const result_period *p,
                         bool with_rates)
{
  json_begin_object(w, key);
  json_put_double(w, "time", p->time);
  json_put_double(w, "duration", p->duration);
  json_put_u64(w, "threads_running", p->threads_running);
  json_put_u64(w, "events", p->events);
  json_put_u64(w, "reads", p->reads);
  json_put_u64(w, "writes", p->writes);
  json_put_u64(w, "other", p->other);
  json_put_u64(w, "errors", p->errors);
  json_put_u64(w, "reconnects", p->reconnects);
  json_put_u64(w, "rows", p->rows);
  json_put_u64(w, "bytes_read", p->bytes_read);
  json_put_u64(w, "bytes_written", p->bytes_written);
  if (with_rates) {
    json_put_rounded(w, "tps", result_rate(p->events, p->duration), 6);
    json_put_rounded(w, "qps", result_rate(result_queries(p), p->duration), 6);
  }
  json_begin_object(w, "statements");
  for (unsigned k = 0; k < SB_STMT_KINDS; k++)
    json_put_u64(w, sb_stmt_kind_names[k], p->statements[k]);
  json_end(w);
  json_begin_object(w, "errors_by_code");
  for (size_t i = 0; i < p->error_code_count; i++)
    json_put_u64(w, p->error_codes[i].code, p->error_codes[i].count);
  json_end(w);
  json_put_u64(w, "latency_sum_ns", p->latency_sum_ns);
  if (p->has_extremes) {
    json_put_u64(w, "latency_min_ns", p->latency_min_ns);
    json_put_u64(w, "latency_max_ns", p->latency_max_ns);
  }
  if (p->has_queue) {
    json_put_u64(w, "queue_length", p->queue_length);
    json_put_u64(w, "concurrency", p->concurrency);
  }
  if (p->thread_count > 0) {
    json_begin_array(w, "thread_events", true);
    for (size_t i = 0; i < p->thread_count; i++)
      json_put_u64(w, NULL, p->thread_events[i]);
    json_end(w);
    json_begin_array(w, "thread_time_ns", true);
    for (size_t i = 0; i < p->thread_count; i++)
      json_put_u64(w, NULL, p->thread_time_ns[i]);
    json_end(w);
  }
  if (p->operation_count > 0) {
    json_begin_object(w, "operations");
    for (size_t i = 0; i < p->operation_count; i++) {
      const result_operation *o = &p->operations[i];
      json_begin_object(w, o->name);
      json_put_u64(w, "count", o->count);
      json_put_u64(w, "latency_sum_ns", o->latency_sum_ns);
      json_put_u64(w, "latency_min_ns", o->latency_min_ns);
      json_put_u64(w, "latency_max_ns", o->latency_max_ns);
      write_buckets(w, &o->histogram);
      json_end(w);
    }
    json_end(w);
  }
  write_buckets(w, &p->histogram);
  json_end(w);
}

static void write_percentiles(json_writer *w, const result_run *r, const result_period *p,
                              const result_operation *o)
{
  char key[40];
  for (size_t i = 0; i < r->percentile_count; i++) {
    snprintf(key, sizeof(key), "p%.10g", r->percentiles[i]);
    uint64_t ns = o != NULL ? result_operation_percentile_ns(o, r->percentiles[i])
                            : result_percentile_ns(p, r->percentiles[i]);
    json_put_rounded(w, key, (double) ns / 1e6, 6);
  }
}

static void write_operations_summary(json_writer *w, const result_run *r)
{
  const result_period *f = &r->final;
  if (f->operation_count == 0)
    return;
  json_begin_object(w, "operations");
  for (size_t i = 0; i < f->operation_count; i++) {
    const result_operation *o = &f->operations[i];
    json_begin_object(w, o->name);
    json_put_u64(w, "count", o->count);
    json_begin_object(w, "latency_ms");
    json_put_rounded(w, "min", (double) o->latency_min_ns / 1e6, 6);
    json_put_rounded(w, "avg", o->count ? (double) o->latency_sum_ns / (double) o->count / 1e6
                               : 0, 6);
    json_put_rounded(w, "max", (double) o->latency_max_ns / 1e6, 6);
    write_percentiles(w, r, NULL, o);
    json_end(w);
    json_end(w);
  }
  json_end(w);
}

static void write_summary(json_writer *w, const result_run *r)
{
  const result_period *f = &r->final;

  json_begin_object(w, "summary");
  json_put_rounded(w, "tps", result_rate(f->events, f->duration), 6);
  json_put_rounded(w, "qps", result_rate(result_queries(f), f->duration), 6);
  json_put_rounded(w, "errors_per_sec", result_rate(f->errors, f->duration), 6);
  json_put_rounded(w, "reconnects_per_sec", result_rate(f->reconnects, f->duration), 6);
  if (f->rows > 0)
    json_put_rounded(w, "rows_per_sec", result_rate(f->rows, f->duration), 6);
  json_begin_object(w, "latency_ms");
  json_put_rounded(w, "min", (double) f->latency_min_ns / 1e6, 6);
  json_put_rounded(w, "avg", result_latency_avg_ns(f) / 1e6, 6);
  json_put_rounded(w, "max", (double) f->latency_max_ns / 1e6, 6);
  write_percentiles(w, r, f, NULL);
  json_end(w);
  write_operations_summary(w, r);
  json_end(w);
}

static void write_options(json_writer *w, const char *key, const result_option *items,
                          size_t count)
{
  json_begin_object(w, key);
  for (size_t i = 0; i < count; i++)
    json_put_string(w, items[i].name, items[i].value);
  json_end(w);
}

/* The time the server was unreachable: from the first outage's start to the end of the last
   (the end of the run when it lasted until then). */
static void write_outage(json_writer *w, const outage_summary *o)
{
  bool until_end = o->ongoing_threads > 0;
  double from = o->ended_threads > 0 ? o->ended_from : o->ongoing_from;

  if (until_end && o->ongoing_from < from)
    from = o->ongoing_from;
  json_begin_object(w, "outage");
  json_put_rounded(w, "from", from, 6);
  json_put_rounded(w, "to", until_end ? o->end : o->ended_to, 6);
  json_put_bool(w, "until_end", until_end);
  json_put_u64(w, "failed_reconnects", o->ongoing_failed + o->ended_failed);
  json_put_u64(w, "threads_reconnected", o->ended_threads);
  json_put_u64(w, "threads_unreachable_at_end", o->ongoing_threads);
  json_put_bool(w, "run_failed", o->run_failed);
  /* A library's reason may quote a connection string: masked as every printed line is. */
  char masked[sizeof(o->last_error) * 2];
  json_put_string(w, "last_error", secrets_mask(o->last_error, masked, sizeof(masked)));
  json_end(w);
}

static void write_run(json_writer *w, const result_run *r)
{
  json_begin_object(w, NULL);
  json_put_string(w, "test", r->test);
  json_put_string(w, "sysbench_version", r->sysbench_version);
  json_put_string(w, "tool", r->tool);
  json_put_string(w, "tool_version", r->tool_version);
  json_put_string(w, "tool_commit", r->tool_commit);
  json_put_string(w, "driver", r->driver);
  json_put_string(w, "server_version", r->server_version);
  json_put_u64(w, "threads", r->threads);
  put_time(w, "start_time", r->start_unix_ns);
  json_put_u64(w, "start_unix_ns", r->start_unix_ns);
  json_put_i64(w, "exit_code", r->exit_code);
  json_put_bool(w, "measured", r->measured);
  json_begin_array(w, "errors", false);
  for (size_t i = 0; i < r->error_count; i++)
    json_put_string(w, NULL, r->errors[i]);
  json_end(w);
  write_summary(w, r);
  if (r->has_outage)
    write_outage(w, &r->outage);

  json_begin_object(w, "limits");
  json_put_double(w, "time", r->time_limit);
  json_put_u64(w, "events", r->event_limit);
  json_put_double(w, "warmup_time", r->warmup_time);
  json_put_double(w, "rate", r->rate);
  json_end(w);
  json_put_double(w, "report_interval", r->report_interval);
  json_begin_array(w, "percentiles", true);
  for (size_t i = 0; i < r->percentile_count; i++)
    json_put_double(w, NULL, r->percentiles[i]);
  json_end(w);
  json_begin_array(w, "command_line", true);
  for (size_t i = 0; i < r->argc; i++)
    json_put_string(w, NULL, r->argv[i]);
  json_end(w);
  write_options(w, "options", r->options, r->option_count);
  write_options(w, "effective_options", r->effective, r->effective_count);
  if (r->driver_stat_count > 0 || r->driver_stats_text != NULL) {
    json_begin_object(w, "driver_statistics");
    json_begin_object(w, "counters");
    for (size_t i = 0; i < r->driver_stat_count; i++)
      json_put_u64(w, r->driver_stats[i].name, r->driver_stats[i].value);
    json_end(w);
    if (r->driver_stats_text != NULL)
      json_put_string(w, "text", r->driver_stats_text);
    json_end(w);
  }

  json_begin_array(w, "clients", false);
  for (size_t i = 0; i < r->client_count; i++) {
    const result_client *c = &r->clients[i];
    json_begin_object(w, NULL);
    json_put_string(w, "host", c->host);
    json_put_string(w, "os", c->os);
    json_put_u64(w, "cpus", c->cpus);
    json_put_u64(w, "threads", c->threads);
    put_time(w, "start_time", c->start_unix_ns);
    json_put_u64(w, "start_unix_ns", c->start_unix_ns);
    if (c->run_id != NULL)
      json_put_string(w, "run_id", c->run_id);
    if (c->pid != 0)
      json_put_u64(w, "pid", c->pid);
    if (c->source != NULL)
      json_put_string(w, "source", c->source);
    json_end(w);
  }
  json_end(w);

  write_period(w, "final", &r->final, false);
  json_begin_array(w, "checkpoints", false);
  for (size_t i = 0; i < r->checkpoint_count; i++)
    write_period(w, NULL, &r->checkpoints[i], false);
  json_end(w);
  json_begin_array(w, "intervals", false);
  for (size_t i = 0; i < r->interval_count; i++)
    write_period(w, NULL, &r->intervals[i], true);
  json_end(w);
  json_end(w);
}

void result_write_json(FILE *out, const result_doc *d)
{
  json_writer w;

  json_writer_init(&w, out);
  json_begin_object(&w, NULL);
  json_put_string(&w, "format", RESULT_FORMAT_NAME);
  json_put_u64(&w, "version", RESULT_FORMAT_VERSION);
  json_begin_object(&w, "histogram_layout");
  json_put_string(&w, "unit", "ns");
  json_put_u64(&w, "exact_below", HISTOGRAM_EXACT_LIMIT);
  json_put_u64(&w, "sub_bucket_bits", HISTOGRAM_SUB_BITS);
  json_put_u64(&w, "max_bits", HISTOGRAM_MAX_BITS);
  json_put_u64(&w, "buckets", HISTOGRAM_BUCKETS);
  json_end(&w);
  json_begin_array(&w, "runs", false);
  for (size_t i = 0; i < d->run_count; i++)
    write_run(&w, &d->runs[i]);
  json_end(&w);
  json_end(&w);
  json_finish(&w);
}

void result_write_run_json(FILE *out, const result_run *r)
{
  result_doc one = { .run_count = 1, .runs = (result_run *) r };
  result_write_json(out, &one);
}
