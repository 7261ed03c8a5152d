/*
 * recorder.c: turns the runner's reports into a result_run. Intervals come from the reporter
 * thread, the measurement start, checkpoints and the final report from the reporter or the
 * main thread, never at once (the runner stops the reporter before its final report), so the
 * run being built needs no lock. The FATAL and ALERT lines any thread prints are kept with the
 * run (the errors of a run that fails, even before its measurement begins).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "logger.h"
#include "options.h"
#include "results/environment.h"
#include "results/output.h"
#include "results/recorder.h"
#include "tool_version.h"

static result_run run;
static bool measuring;
static bool out_of_memory;
/* fileio's latency by operation, told before the cumulative report it belongs to. */
static result_period pending_operations;

/* The FATAL and ALERT lines printed since the last run ended, from any thread (the logger
   calls under its lock, but the main thread takes them under this one). */
#define RECORDED_ERRORS_MAX 32
static pthread_mutex_t errors_mutex = PTHREAD_MUTEX_INITIALIZER;
static char **errors;
static size_t error_count;

static void observe_error(const char *line)
{
  size_t len = strlen(line);
  while (len > 0 && line[len - 1] == '\n')
    len--;
  char *text = strndup(line, len);
  if (text == NULL)
    return;
  pthread_mutex_lock(&errors_mutex);
  /* A line every thread prints alike ("Thread initialization failed!") is kept once. */
  bool repeated = error_count > 0 && strcmp(errors[error_count - 1], text) == 0;
  /* Out of memory, the line is only lost from the file: it was printed. */
  if (!repeated && error_count < RECORDED_ERRORS_MAX)
    (void) result_strings_push(&errors, &error_count, text);
  pthread_mutex_unlock(&errors_mutex);
  free(text);
}

void recorder_watch_errors(void)
{
  log_observe_errors(observe_error);
}

static void take_errors(result_run *r)
{
  pthread_mutex_lock(&errors_mutex);
  r->errors = errors;
  r->error_count = error_count;
  errors = NULL;
  error_count = 0;
  pthread_mutex_unlock(&errors_mutex);
}

void recorder_begin(const char *test_name, const run_config *cfg)
{
  char run_id[ENVIRONMENT_RUN_ID_SIZE];

  result_run_free(&run);
  result_period_free(&pending_operations);
  recorder_watch_errors();
  measuring = false;
  out_of_memory = false;
  run.test = result_strdup(test_name);
  run.sysbench_version = result_strdup(SB_COMPAT_VERSION);
  run.tool = result_strdup(tool_name);
  run.tool_version = result_strdup(tool_version);
  run.tool_commit = result_strdup(tool_commit);
  run.threads = cfg->threads;
  run.time_limit = cfg->max_time;
  run.event_limit = cfg->max_events;
  run.warmup_time = cfg->warmup_time;
  run.rate = cfg->rate;
  run.report_interval = results_interval_seconds();
  run.percentile_count = cfg->percentile_count;
  memcpy(run.percentiles, cfg->percentiles, sizeof(run.percentiles));
  run.clients = calloc(1, sizeof(result_client));
  if (run.clients == NULL || run.test == NULL ||
      environment_command_line(&run.argv, &run.argc) != 0 ||
      environment_given_options(cfg, &run.options, &run.option_count) != 0 ||
      environment_effective_options(cfg, &run.effective, &run.effective_count) != 0) {
    out_of_memory = true;
    return;
  }
  run.client_count = 1;
  environment_describe_client(&run.clients[0]);
  run.clients[0].threads = cfg->threads;
  environment_new_run_id(run_id);
  run.clients[0].run_id = result_strdup(run_id);
  run.clients[0].pid = (uint64_t) getpid();
  /* Until the measurement starts: when the run was begun (a run that fails before keeps it). */
  run.start_unix_ns = run.clients[0].start_unix_ns = clock_wall_ns();
}

void recorder_operation_latency(const char *name, uint64_t count, uint64_t sum_ns,
                                uint64_t min_ns, uint64_t max_ns,
                                const latency_histogram *histogram)
{
  if (out_of_memory)
    return;
  result_operation *o = result_operation_get(&pending_operations, name);
  if (o == NULL || result_buckets_from_histogram(&o->histogram, histogram) != 0) {
    out_of_memory = true;
    return;
  }
  o->count = count;
  o->latency_sum_ns = sum_ns;
  o->latency_min_ns = count ? min_ns : 0;
  o->latency_max_ns = count ? max_ns : 0;
}

void recorder_measurement_started(void)
{
  measuring = true;
  run.start_unix_ns = clock_wall_ns();
  if (run.client_count > 0)
    run.clients[0].start_unix_ns = run.start_unix_ns;
}

/* The parts every period has, from a report. */
static int fill_period(result_period *p, const sb_stat_t *stat)
{
  p->time = stat->time_total;
  p->duration = stat->time_interval;
  p->threads_running = stat->threads_running;
  p->events = stat->events;
  p->reads = stat->reads;
  p->writes = stat->writes;
  p->other = stat->other;
  p->errors = stat->errors;
  p->reconnects = stat->reconnects;
  p->rows = stat->rows;
  p->bytes_read = stat->bytes_read;
  p->bytes_written = stat->bytes_written;
  memcpy(p->statements, stat->statements, sizeof(p->statements));
  p->latency_sum_ns = (uint64_t) (stat->latency_sum * 1e9 + 0.5);
  for (unsigned i = 0; i < stat->error_code_count; i++) {
    char code[16];
    if (result_add_error_code(p, stats_error_code_text(stat->error_codes[i].code, code),
                              stat->error_codes[i].count) != 0)
      return -1;
  }
  return stat->histogram != NULL ? result_buckets_from_histogram(&p->histogram,
                                                                 stat->histogram) : 0;
}

void recorder_interval(const sb_stat_t *stat, bool with_queue)
{
  if (!measuring || out_of_memory)
    return;
  result_period *p = result_periods_push(&run.intervals, &run.interval_count);
  if (p == NULL || fill_period(p, stat) != 0) {
    out_of_memory = true;
    return;
  }
  p->has_queue = with_queue;
  p->queue_length = stat->queue_length;
  p->concurrency = stat->concurrency;
  results_csv_period(&run, p, "interval");
}

void recorder_cumulative(const sb_stat_t *stat, const stats_snapshot *from,
                         const stats_snapshot *to, bool checkpoint)
{
  if (out_of_memory)
    return;
  if (!measuring)                      /* stopped during the warm-up: the run starts now */
    recorder_measurement_started();
  result_period *p = checkpoint ? result_periods_push(&run.checkpoints, &run.checkpoint_count)
                                : &run.final;
  if (p == NULL) {
    out_of_memory = true;
    return;
  }
  result_period_free(p);
  if (fill_period(p, stat) != 0) {
    out_of_memory = true;
    return;
  }
  /* The exact latency sum of the period, not the seconds the report rounded it to. */
  p->latency_sum_ns = to->latency_sum_ns - from->latency_sum_ns;
  p->has_extremes = true;
  p->latency_min_ns = stat->events ? stat->latency_min_ns : 0;
  p->latency_max_ns = stat->events ? stat->latency_max_ns : 0;
  p->thread_count = to->threads;
  p->thread_events = calloc(to->threads ? to->threads : 1, sizeof(uint64_t));
  p->thread_time_ns = calloc(to->threads ? to->threads : 1, sizeof(uint64_t));
  if (p->thread_events == NULL || p->thread_time_ns == NULL) {
    out_of_memory = true;
    return;
  }
  for (unsigned i = 0; i < to->threads; i++) {
    p->thread_events[i] = to->thread_events[i] - from->thread_events[i];
    p->thread_time_ns[i] = to->thread_latency_ns[i] - from->thread_latency_ns[i];
  }
  p->operations = pending_operations.operations;
  p->operation_count = pending_operations.operation_count;
  pending_operations.operations = NULL;
  pending_operations.operation_count = 0;
  if (!checkpoint && stat->outage != NULL) {
    run.has_outage = true;
    run.outage = *stat->outage;
  }
  results_csv_period(&run, p, checkpoint ? "checkpoint" : "final");
}

result_run *recorder_finish(int exit_code)
{
  if (out_of_memory) {
    log_text(LOG_ALERT, "Out of memory recording the results: no result for this run");
    result_run_free(&run);
    return NULL;
  }
  if (run.test == NULL)
    return NULL;
  run.measured = measuring;
  measuring = false;
  if (!run.measured) {
    /* Failed before the measurement: no figures, an empty final period. */
    result_period_free(&run.final);
    run.final.has_extremes = true;
  }
  if (environment_driver() != NULL) {
    run.driver = result_strdup(environment_driver());
    run.server_version = result_strdup(environment_server_version());
  }
  environment_take_driver_statistics(&run);
  take_errors(&run);
  run.exit_code = exit_code;
  result_run *out = malloc(sizeof(*out));
  if (out == NULL) {
    result_run_free(&run);
    return NULL;
  }
  *out = run;
  memset(&run, 0, sizeof(run));
  return out;
}

result_run *recorder_not_started(const char *test_name, int exit_code)
{
  if (run.test == NULL)
    recorder_begin(test_name, run_config_of_options());
  return recorder_finish(exit_code);
}

void results_forced_exit(int code)
{
  if (results_recording()) {
    results_run_finished(recorder_finish(code));
    results_finish(code);
  }
  log_flush();
  fflush(NULL);
  _exit(code);
}
