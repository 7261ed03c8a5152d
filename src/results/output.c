/*
 * output.c: the report options (--report-format, --report-file, --start-at), the session's
 * result document and where it is written: CSV rows as the run goes, the JSON document on
 * standard output and in --report-file at the end, or, in a sweep's child process, the run's
 * document sent to the parent through a pipe.
 */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "logger.h"
#include "report.h"
#include "results/output.h"
#include "results/result_io.h"

static const char *const format_names[] = {"text", "json", "csv", NULL};

const option_decl results_args[] = {
  {.name = "report-format", .desc = "format of the report on standard output {text,json,csv}; "
   "with json or csv, all other output goes to standard error", .default_text = "text",
   .type = SB_ARG_TYPE_STRING, .choices = format_names},
  {.name = "report-file", .desc = "write the result document (JSON: options, environment, "
   "every interval, final figures, latency histograms) to this file",
   .type = SB_ARG_TYPE_STRING},
  {.name = "start-at", .desc = "start the measurement at a wall-clock time: Unix seconds, "
   "+SECONDS from now, or YYYY-MM-DDTHH:MM:SS[Z] (several clients run as one)",
   .type = SB_ARG_TYPE_STRING},
  {.name = NULL}
};

/* How far ahead --start-at may be: further is taken for a typo. */
#define START_AT_MAX_AHEAD_S (7 * 24 * 3600.0)

static report_format format = REPORT_FORMAT_TEXT;
static bool recording;
static char *report_file;
static FILE *machine_stream;          /* json/csv output: the original standard output */
static bool csv_header_done;
static int sweep_child_fd = -1;
static result_doc session;

int results_register(char *err, size_t errlen)
{
  return options_declare(results_args, err, errlen);
}

bool results_recording(void)
{
  return recording;
}

void results_enable_recording(void)
{
  recording = true;
}

double results_interval_seconds(void)
{
  double interval = run_config_of_options()->report_interval;
  return interval > 0 ? interval : recording ? 1.0 : 0;
}

const char *results_report_file(void)
{
  return report_file;
}

void results_set_report_file(const char *path)
{
  free(report_file);
  report_file = path ? strdup(path) : NULL;
}

bool results_machine_readable(void)
{
  return format != REPORT_FORMAT_TEXT;
}

FILE *results_stream(void)
{
  return machine_stream != NULL ? machine_stream : stdout;
}

result_doc *results_session(void)
{
  return &session;
}

/* --start-at: Unix seconds, +seconds, or an ISO 8601 date and time (Z = UTC, else local). */
static bool parse_start_at(const char *text, uint64_t *out)
{
  char *end;
  double seconds;

  if (text[0] == '+') {
    seconds = strtod(text + 1, &end);
    if (end == text + 1 || *end != '\0' || !(seconds >= 0 && seconds <= START_AT_MAX_AHEAD_S))
      return false;
    *out = clock_wall_ns() + (uint64_t) (seconds * 1e9);
    return true;
  }
  seconds = strtod(text, &end);
  if (end != text && *end == '\0') {
    if (!(seconds > 0 && seconds < 1e11))
      return false;
    *out = (uint64_t) (seconds * 1e9 + 0.5);
    return true;
  }
  struct tm tm;
  memset(&tm, 0, sizeof(tm));
  const char *rest = strptime(text, "%Y-%m-%dT%H:%M:%S", &tm);
  if (rest == NULL)
    rest = strptime(text, "%Y-%m-%d %H:%M:%S", &tm);
  if (rest == NULL)
    return false;
  double fraction = 0;
  if (*rest == '.') {
    fraction = strtod(rest, &end);
    rest = end;
  }
  time_t t;
  if (strcmp(rest, "Z") == 0) {
    t = timegm(&tm);
  } else if (*rest == '\0') {
    tm.tm_isdst = -1;
    t = mktime(&tm);
  } else {
    return false;
  }
  if (t == (time_t) -1)
    return false;
  *out = (uint64_t) t * 1000000000u + (uint64_t) (fraction * 1e9);
  return true;
}

static int check_report_file(const char *path)
{
  char *copy = strdup(path);
  const char *dir = copy ? dirname(copy) : ".";
  int rc = 0;

  if (path[0] == '\0') {
    option_report_invalid("report-file", path, NULL, "a file name");
    rc = -1;
  } else if (access(path, F_OK) == 0 ? access(path, W_OK) != 0 : access(dir, W_OK) != 0) {
    log_text(LOG_FATAL, "Cannot write the result file '%s': %s", path, strerror(errno));
    rc = -1;
  }
  free(copy);
  return rc;
}

int results_configure(const char *command, run_config *run)
{
  const char *name = opt_string("report-format");
  for (int i = 0; format_names[i] != NULL; i++)
    if (name != NULL && strcmp(name, format_names[i]) == 0)
      format = (report_format) i;

  const char *file = opt_string("report-file");
  if (opt_is_set("report-file")) {
    if (check_report_file(file ? file : "") != 0)
      return -1;
    results_set_report_file(file);
  }

  run->start_at_unix_ns = 0;
  const char *start = opt_string("start-at");
  if (opt_is_set("start-at")) {
    uint64_t at;
    if (start == NULL || !parse_start_at(start, &at)) {
      option_report_invalid("start-at", start ? start : "", NULL,
                            "Unix seconds (date +%s), +SECONDS from now, or "
                            "YYYY-MM-DDTHH:MM:SS[Z] within the next 7 days");
      return -1;
    }
    if (at > clock_wall_ns() + (uint64_t) (START_AT_MAX_AHEAD_S * 1e9)) {
      option_report_invalid("start-at", start, NULL, "a time within the next 7 days");
      return -1;
    }
    run->start_at_unix_ns = at;
  }

  recording = format != REPORT_FORMAT_TEXT || report_file != NULL;
  if (format != REPORT_FORMAT_TEXT && command != NULL && strcmp(command, "run") == 0) {
    /* Standard output carries only the JSON or CSV; the rest (1.0.20's text, messages,
       what scripts print) goes to standard error. */
    fflush(stdout);
    int fd = dup(STDOUT_FILENO);
    if (fd < 0 || (machine_stream = fdopen(fd, "w")) == NULL ||
        dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
      log_text(LOG_FATAL, "Cannot set up --report-format=%s: %s", name, strerror(errno));
      return -1;
    }
  }
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* CSV                                                                                        */
/* ------------------------------------------------------------------------------------------ */

void results_csv_header(void)
{
  const run_config *cfg = run_config_of_options();
  FILE *out = results_stream();

  if (format != REPORT_FORMAT_CSV || csv_header_done)
    return;
  csv_header_done = true;
  fputs("threads,kind,time,duration,events,tps,qps,reads_per_sec,writes_per_sec,"
        "other_per_sec,errors_per_sec,reconnects_per_sec,rows_per_sec,latency_avg_ms,"
        "latency_min_ms,latency_max_ms", out);
  for (size_t i = 0; i < cfg->percentile_count; i++) {
    char pct[32];
    fprintf(out, ",latency_p%s_ms", percentile_text(cfg->percentiles[i], pct, sizeof(pct)));
  }
  fputc('\n', out);
  fflush(out);
}

void results_csv_period(const result_run *run, const result_period *p, const char *kind)
{
  FILE *out = results_stream();
  double t = p->duration;

  if (format != REPORT_FORMAT_CSV)
    return;
  results_csv_header();
  fprintf(out, "%u,%s,%.4f,%.4f,%llu,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.3f,", run->threads,
          kind, p->time, t, (unsigned long long) p->events, result_rate(p->events, t),
          result_rate(result_queries(p), t), result_rate(p->reads, t),
          result_rate(p->writes, t), result_rate(p->other, t), result_rate(p->errors, t),
          result_rate(p->reconnects, t), result_rate(p->rows, t),
          result_latency_avg_ns(p) / 1e6);
  if (p->has_extremes)
    fprintf(out, "%.3f,%.3f", (double) p->latency_min_ns / 1e6,
            (double) p->latency_max_ns / 1e6);
  else
    fputc(',', out);
  for (size_t i = 0; i < run->percentile_count; i++)
    fprintf(out, ",%.3f", (double) result_percentile_ns(p, run->percentiles[i]) / 1e6);
  fputc('\n', out);
  fflush(out);
}

/* ------------------------------------------------------------------------------------------ */
/* The session's document                                                                     */
/* ------------------------------------------------------------------------------------------ */

void results_enter_sweep_child(int fd)
{
  sweep_child_fd = fd;
  recording = true;
}

void results_run_finished(result_run *run)
{
  if (run == NULL)
    return;
  if (sweep_child_fd >= 0) {
    FILE *pipe_out = fdopen(sweep_child_fd, "w");
    if (pipe_out != NULL) {
      result_write_run_json(pipe_out, run);
      fclose(pipe_out);
    }
    sweep_child_fd = -1;
  } else if (result_doc_add_run(&session, run) != 0) {
    log_text(LOG_ALERT, "Out of memory keeping the result of the run");
  }
  result_run_free(run);
  free(run);
}

static int write_document_file(const char *path)
{
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    log_text(LOG_FATAL, "Cannot write the result file '%s': %s", path, strerror(errno));
    return -1;
  }
  result_write_json(f, &session);
  if (fclose(f) != 0) {
    log_text(LOG_FATAL, "Cannot write the result file '%s': %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

int results_finish(int rc)
{
  if (session.run_count == 0) {
    result_doc_free(&session);
    return rc;
  }
  if (format == REPORT_FORMAT_JSON) {
    result_write_json(results_stream(), &session);
    fflush(results_stream());
  }
  if (report_file != NULL && write_document_file(report_file) != 0 && rc == 0)
    rc = 1;
  result_doc_free(&session);
  return rc;
}


