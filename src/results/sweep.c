/*
 * sweep.c: a thread sweep. The parent process has parsed the options and loaded the test; for
 * each thread count it forks a child that sets that count and runs the test exactly as a
 * single run would (print_run_mode, warm-up, reports), then sends its result document back
 * through a pipe. The parent keeps the runs, prints the summary table and writes the result
 * file, the SVG chart and the HTML page. A failing or interrupted run ends the sweep, and what
 * was measured until then is still written.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "logger.h"
#include "lua_env.h"
#include "rand.h"
#include "results/output.h"
#include "results/page.h"
#include "results/result_io.h"
#include "results/sweep.h"
#include "runner.h"
#include "signals.h"
#include "stats.h"

#define SWEEP_MAX_RUNS 64
/* Under --start-at, run k starts at start + k * (warm-up + time + this pause). */
#define SWEEP_PAUSE_S 10.0

/* The step running now; 0 between steps. */
static volatile sig_atomic_t child_pid;

bool sweep_requested(void)
{
  double values[2];
  return opt_numbers("threads", values, 2) > 1;
}

int sweep_check_options(const run_config *cfg)
{
  double values[SWEEP_MAX_RUNS + 1];
  size_t n = opt_numbers("threads", values, SWEEP_MAX_RUNS + 1);

  if (n > SWEEP_MAX_RUNS) {
    option_report_invalid("threads", opt_string("threads"), NULL,
                          "up to 64 thread counts in a sweep");
    return -1;
  }
  if (n > 1 && opt_is_set("start-at") && cfg->max_time <= 0) {
    log_text(LOG_FATAL, "--start-at with a thread sweep needs --time: each run starts "
             "--warmup-time + --time + %g seconds after the one before", SWEEP_PAUSE_S);
    return -1;
  }
  return 0;
}

/* SIGINT or SIGTERM to the sweep (signals.h) goes on to the running step, which stops, reports
   and sends its result; no further step starts. A supervisor signals the sweep's pid alone,
   and the step must hear it too; a signal to the whole group reaches the step twice, and the
   policy takes the copies for one request. A forcing signal goes on the same way. */
static void pass_on_to_step(int sig)
{
  pid_t step = (pid_t) child_pid;
  if (step > 0)
    kill(step, sig);
}

/* Owned until the process ends: a signal while the summary and the files are written finds
   no step to pass it on to, and they are written. */
static const signal_owner sweep_signal_owner = { .stop = pass_on_to_step,
                                                 .force = pass_on_to_step };
/* A step's own until its run owns the signals: a request is recorded, and the run stops at
   once when it takes them over (runner.c). */
static const signal_owner step_starting = { .stop = NULL };

/* SIGINT and SIGTERM held back (or let through again) in the calling thread. */
static void hold_stop_signals(int how, sigset_t *old)
{
  sigset_t both;
  sigemptyset(&both);
  sigaddset(&both, SIGINT);
  sigaddset(&both, SIGTERM);
  sigprocmask(how, &both, old);
}

/* Everything the child writes into the pipe. */
static char *read_all(int fd, size_t *len)
{
  size_t cap = 1 << 16;
  char *buf = malloc(cap);
  *len = 0;
  while (buf != NULL) {
    if (*len == cap) {
      char *grown = realloc(buf, cap * 2);
      if (grown == NULL) {
        free(buf);
        return NULL;
      }
      buf = grown;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + *len, cap - *len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    *len += (size_t) n;
  }
  return buf;
}

/* In the child: become a run with `threads` threads and run it. Never returns. The stop
   signals are held back on entry (`unblock` lets them through): the child keeps the sweep's
   handlers (and the signals the sweep ignored stay ignored), not its owner. */
static void child_run(sb_test *test, const run_config *sweep, worker *main, unsigned threads,
                      uint64_t start_at, int fd, const sigset_t *unblock)
{
  run_config cfg = *sweep;             /* this step's own configuration */

  signal_policy_forget();
  signal_policy_own(&step_starting);
  sigprocmask(SIG_SETMASK, unblock, NULL);
  cfg.threads = threads;
  cfg.sweep_step = true;
  cfg.start_at_unix_ns = start_at;
  if (lua_env_loaded())
    lua_env_refresh_options(&cfg);     /* sysbench.opt.threads in the main state */
  /* The main thread's stream is that of id `threads`, as in a single run of that many. */
  main->id = threads;
  rand_state_seed(&main->rand, threads);
  results_enter_sweep_child(fd);

  int rc = runner_run(test, &cfg, main);

  if (lua_env_loaded())
    lua_env_done();
  db_done();
  log_flush();
  fflush(NULL);
  _exit(rc);
}

/* Run step `step` of `steps`, one thread count; its runs go into the session. Returns the
   child's exit code, or 0 without starting it when a stop was asked for. */
static int run_one(sb_test *test, const run_config *sweep, worker *main, unsigned threads,
                   uint64_t start_at, size_t step, size_t steps)
{
  int fds[2];
  sigset_t unblock;

  /* Held back until child_pid names the child: a signal in between is passed on, not lost. */
  hold_stop_signals(SIG_BLOCK, &unblock);
  if (signal_stop_requested()) {
    sigprocmask(SIG_SETMASK, &unblock, NULL);
    return 0;
  }
  log_text(LOG_NOTICE, "Thread sweep: run %zu of %zu, %u threads\n", step, steps, threads);
  if (pipe(fds) != 0) {
    sigprocmask(SIG_SETMASK, &unblock, NULL);
    log_text(LOG_FATAL, "Cannot create a pipe for the sweep's run: %s", strerror(errno));
    return 1;
  }
  log_flush();
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    sigprocmask(SIG_SETMASK, &unblock, NULL);
    log_text(LOG_FATAL, "Cannot start the sweep's run: %s", strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return 1;
  }
  if (pid == 0) {
    close(fds[0]);
    child_run(test, sweep, main, threads, start_at, fds[1], &unblock);
  }
  close(fds[1]);
  child_pid = pid;
  sigprocmask(SIG_SETMASK, &unblock, NULL);

  size_t len;
  char *text = read_all(fds[0], &len);
  close(fds[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  child_pid = 0;
  int rc = WIFEXITED(status) ? WEXITSTATUS(status)
           : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;

  if (text != NULL && len > 0) {
    result_doc doc;
    char err[512];
    if (result_read_text(text, len, &doc, err, sizeof(err)) != 0) {
      log_text(LOG_FATAL, "The run with %u threads sent an unreadable result: %s", threads,
               err);
      rc = rc ? rc : 1;
    } else {
      for (size_t i = 0; i < doc.run_count; i++)
        result_doc_add_run(results_session(), &doc.runs[i]);
      result_doc_free(&doc);
    }
  } else if (rc == 0) {
    log_text(LOG_FATAL, "The run with %u threads measured nothing", threads);
    rc = 1;
  }
  free(text);
  return rc;
}

static void print_summary(const result_doc *d)
{
  log_text(LOG_NOTICE, "Thread sweep summary:");
  log_text(LOG_NOTICE, "    threads          tps          qps   p95 (ms)   p99 (ms)     errors");
  for (size_t r = 0; r < d->run_count; r++) {
    const result_run *run = &d->runs[r];
    const result_period *f = &run->final;
    log_text(LOG_NOTICE, "    %7u %12.2f %12.2f %10.2f %10.2f %10llu", run->threads,
             result_rate(f->events, f->duration),
             result_rate(result_queries(f), f->duration),
             (double) result_percentile_ns(f, 95) / 1e6,
             (double) result_percentile_ns(f, 99) / 1e6, (unsigned long long) f->errors);
  }
  log_text(LOG_NOTICE, "%s", "");
}

/* base.json -> base.svg / base.html */
static char *sibling_path(const char *json_path, const char *extension)
{
  size_t n = strlen(json_path);
  if (n > 5 && strcmp(json_path + n - 5, ".json") == 0)
    n -= 5;
  char *out = malloc(n + strlen(extension) + 1);
  if (out != NULL) {
    memcpy(out, json_path, n);
    strcpy(out + n, extension);
  }
  return out;
}

static void write_pages(const char *test_name)
{
  const char *json = results_report_file();
  char *svg = sibling_path(json, ".svg"), *html = sibling_path(json, ".html");
  char title[300];
  page_source src = { .doc = results_session(), .label = "A", .name = test_name };

  snprintf(title, sizeof(title), "sysbench thread sweep: %s", test_name);
  if (svg == NULL || html == NULL) {
    log_text(LOG_ALERT, "Out of memory writing the sweep's charts");
  } else {
    if (page_write_svg(svg, &src, 1) != 0)
      log_text(LOG_ALERT, "Cannot write the chart '%s': %s", svg, strerror(errno));
    if (page_write_html(html, title, &src, 1) != 0)
      log_text(LOG_ALERT, "Cannot write the page '%s': %s", html, strerror(errno));
    log_text(LOG_NOTICE, "Result file: %s", json);
    log_text(LOG_NOTICE, "Chart:       %s", svg);
    log_text(LOG_NOTICE, "Page:        %s", html);
    log_text(LOG_NOTICE, "%s", "");
  }
  free(svg);
  free(html);
}

int sweep_run(sb_test *test, const run_config *cfg, worker *main)
{
  double values[SWEEP_MAX_RUNS];
  size_t n = opt_numbers("threads", values, SWEEP_MAX_RUNS);
  int rc = 0;

  results_enable_recording();
  if (results_report_file() == NULL) {
    char name[300], stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
    char test_name[200];
    snprintf(test_name, sizeof(test_name), "%s", test->name);
    size_t len = strlen(test_name);
    if (len > 4 && strcmp(test_name + len - 4, ".lua") == 0)
      test_name[len - 4] = '\0';
    for (char *c = test_name; *c; c++)
      if (*c == '/' || *c == ' ')
        *c = '_';
    snprintf(name, sizeof(name), "sysbench-%s-%s.json", test_name, stamp);
    results_set_report_file(name);
  }
  results_csv_header();

  signal_policy_install();
  signal_policy_own(&sweep_signal_owner);

  for (size_t k = 0; k < n && rc == 0 && !signal_stop_requested(); k++) {
    unsigned threads = (unsigned) values[k];
    uint64_t start_at = cfg->start_at_unix_ns;
    if (start_at != 0)
      start_at += (uint64_t) ((double) k * (cfg->warmup_time + cfg->max_time + SWEEP_PAUSE_S)
                              * 1e9);
    rc = run_one(test, cfg, main, threads, start_at, k + 1, n);
  }
  if (rc == 0 && signal_stop_requested())
    rc = 128 + signal_stop_requested();

  if (results_session()->run_count > 0) {
    print_summary(results_session());
    write_pages(test->name);
  }
  return rc;
}
