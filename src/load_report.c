/*
 * load_report.c: the output of `prepare` and `verify` besides 1.0.20's messages (see
 * load_report.h). A reporter thread reads the shared state (load_state.c) and prints progress;
 * it is also the one that makes an interrupted command end within a second.
 */
#include "load_report.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "load_state.h"
#include "logger.h"
#include "options.h"
#include "output_mode.h"

#define DEFAULT_INTERVAL_S 10.0
#define TICK_NS (100 * NS_PER_MS)
#define TTY_REDRAW_NS (500 * NS_PER_MS)
#define TTY_MAX_LINES 16
/* An interrupted command waits this long for its threads to reach a point where they can
   stop, then prints where the tables are and exits. */
#define INTERRUPT_GRACE_NS NS_PER_SEC

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t run_cond = PTHREAD_COND_INITIALIZER;
static pthread_t reporter;
static bool reporter_running, reporter_stop;
static int tty_lines;              /* live lines on the terminal below the output */
static bool summary_printed;       /* the interrupt summary is out (by one thread only) */

/* ------------------------------------------------------------------------------------------ */
/* Figures                                                                                    */
/* ------------------------------------------------------------------------------------------ */

void load_report_mib(char *buf, size_t len, int64_t bytes)
{
  if (bytes < 0)
    snprintf(buf, len, "-");
  else
    snprintf(buf, len, "%.1f", (double) bytes / 1048576.0);
}

static const char *verb(void)
{
  return load_state_command() == LOAD_VERIFY ? "checked" : "loaded";
}

/* "ETA 1h02m", "ETA 45s" */
static void format_eta(char *buf, size_t len, double seconds)
{
  if (seconds < 0 || seconds > 1e8)
    snprintf(buf, len, "ETA -");
  else if (seconds >= 3600)
    snprintf(buf, len, "ETA %dh%02dm", (int) (seconds / 3600), (int) (seconds / 60) % 60);
  else if (seconds >= 60)
    snprintf(buf, len, "ETA %dm%02ds", (int) (seconds / 60), (int) seconds % 60);
  else
    snprintf(buf, len, "ETA %.0fs", seconds);
}

typedef struct {
  uint64_t target, done, present;
  uint32_t tables, complete, active;
  char activities[160];
} totals;

static void add_table(const load_table *t, void *arg)
{
  totals *sum = arg;
  sum->tables++;
  sum->target += t->rows_target;
  sum->done += __atomic_load_n(&t->rows_done, __ATOMIC_RELAXED);
  sum->present += __atomic_load_n(&t->rows_present, __ATOMIC_RELAXED);
  if (t->phase == TABLE_DONE || t->phase == TABLE_SKIPPED)
    sum->complete++;
  else if (t->phase != TABLE_PENDING)
    sum->active++;
  if (t->phase == TABLE_FINISHING && t->activity != NULL && t->activity[0] != '\0') {
    size_t used = strlen(sum->activities);
    snprintf(sum->activities + used, sizeof(sum->activities) - used, "; sbtest%u: %s",
             t->number, t->activity);
  }
}

static totals current_totals(void)
{
  totals sum;
  memset(&sum, 0, sizeof(sum));
  load_state_each_table(add_table, &sum);
  return sum;
}

/* ------------------------------------------------------------------------------------------ */
/* Output that keeps a terminal's live lines at the bottom                                    */
/* ------------------------------------------------------------------------------------------ */

/* Caller holds out_lock. */
static void erase_live_lines(void)
{
  if (tty_lines > 0) {
    printf("\033[%dA\033[J", tty_lines);
    fflush(stdout);
    tty_lines = 0;
  }
}

static void load_report_say(const char *text)
{
  pthread_mutex_lock(&out_lock);
  erase_live_lines();
  log_flush();
  fputs(text, stdout);
  fputc('\n', stdout);
  fflush(stdout);
  pthread_mutex_unlock(&out_lock);
}

/* ------------------------------------------------------------------------------------------ */
/* Progress                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
  uint64_t *rows_then;      /* per table, at the previous redraw */
  uint64_t then_ns;
  char lines[TTY_MAX_LINES][200];
  int count, more;
} live_view;

static void live_line(const load_table *t, void *arg)
{
  live_view *v = arg;
  if (t->phase != TABLE_CREATING && t->phase != TABLE_LOADING && t->phase != TABLE_FINISHING)
    return;
  if (v->count == TTY_MAX_LINES) {
    v->more++;
    return;
  }
  char *line = v->lines[v->count++];
  uint64_t done = __atomic_load_n(&t->rows_done, __ATOMIC_RELAXED);
  uint64_t now = clock_now_ns();
  if (t->phase == TABLE_FINISHING) {
    snprintf(line, 200, "  sbtest%u: all %" PRIu64 " rows %s%s%s", t->number, done, verb(),
             t->activity[0] ? ", " : "", t->activity);
  } else if (t->phase == TABLE_CREATING) {
    snprintf(line, 200, "  sbtest%u: %s", t->number,
             load_state_command() == LOAD_VERIFY ? "starting" : "creating");
  } else {
    uint64_t before = v->rows_then[t->number - 1];
    double secs = v->then_ns > 0 ? (double) (now - v->then_ns) / 1e9 : 0;
    double since = (double) (now - t->started_ns) / 1e9;
    double average = since > 0 ? (double) done / since : 0;
    double rate = secs > 0 && done >= before ? (double) (done - before) / secs : average;
    char eta[32];
    format_eta(eta, sizeof(eta), average > 0 ? (double) (t->rows_target - done) / average : -1);
    snprintf(line, 200, "  sbtest%u: %" PRIu64 " of %" PRIu64 " rows %s (%.1f%%), %.0f rows/s, "
             "%s", t->number, done, t->rows_target, verb(),
             t->rows_target ? 100.0 * (double) done / (double) t->rows_target : 100.0, rate, eta);
  }
  v->rows_then[t->number - 1] = done;
}

static void draw_live_lines(live_view *v)
{
  v->count = v->more = 0;
  uint64_t now = clock_now_ns();
  load_state_each_table(live_line, v);
  v->then_ns = now;
  pthread_mutex_lock(&out_lock);
  log_flush();
  if (tty_lines > 0)
    printf("\033[%dA", tty_lines);
  for (int i = 0; i < v->count; i++)
    printf("\r\033[K%s\n", v->lines[i]);
  int drawn = v->count;
  if (v->more > 0) {
    printf("\r\033[K  ... and %d more tables\n", v->more);
    drawn++;
  }
  printf("\033[J");
  fflush(stdout);
  tty_lines = drawn;
  pthread_mutex_unlock(&out_lock);
}

static void plain_line(double interval, uint64_t *done_then, uint64_t *then_ns)
{
  totals sum = current_totals();
  uint64_t now = clock_now_ns();
  double elapsed = (double) load_state_elapsed_ns() / 1e9;
  double secs = (double) (now - *then_ns) / 1e9;
  double rate = secs > 0 && sum.done >= *done_then ? (double) (sum.done - *done_then) / secs : 0;
  double average = elapsed > 0 ? (double) (sum.done - sum.present) / elapsed : 0;
  char eta[32];
  format_eta(eta, sizeof(eta), average > 0 ? (double) (sum.target - sum.done) / average : -1);
  log_text(LOG_NOTICE, "[ %.*fs ] %s %" PRIu64 " of %" PRIu64 " rows (%.1f%%), %.0f rows/s, %s, "
           "%u of %u tables done%s", interval < 1 ? 1 : 0, elapsed, verb(), sum.done, sum.target,
           sum.target ? 100.0 * (double) sum.done / (double) sum.target : 100.0, rate, eta,
           sum.complete, sum.tables, sum.activities);
  *done_then = sum.done;
  *then_ns = now;
}

/* ------------------------------------------------------------------------------------------ */
/* Interrupts                                                                                 */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
  char complete[256], incomplete[512], untouched[256];
  uint32_t n_complete, n_incomplete, n_untouched;
} interrupt_view;

/* Appends "sbtestN" to a list, or "..." once it is long. */
static void list_add(char *list, size_t len, const char *item)
{
  size_t used = strlen(list);
  if (used + strlen(item) + 8 >= len) {
    if (used < 4 || strcmp(list + used - 3, "...") != 0)
      snprintf(list + used, len - used, ", ...");
    return;
  }
  snprintf(list + used, len - used, "%s%s", used ? ", " : "", item);
}

static void interrupt_table(const load_table *t, void *arg)
{
  interrupt_view *v = arg;
  char item[96];
  if (t->phase == TABLE_DONE || t->phase == TABLE_SKIPPED) {
    snprintf(item, sizeof(item), "sbtest%u", t->number);
    list_add(v->complete, sizeof(v->complete), item);
    v->n_complete++;
  } else if (t->phase == TABLE_PENDING) {
    snprintf(item, sizeof(item), "sbtest%u", t->number);
    list_add(v->untouched, sizeof(v->untouched), item);
    v->n_untouched++;
  } else {
    /* what the table holds: a statement broken off was rolled back by the server */
    uint64_t done = __atomic_load_n(&t->rows_committed, __ATOMIC_RELAXED);
    snprintf(item, sizeof(item), "sbtest%u (%" PRIu64 " of %" PRIu64 " rows)", t->number,
             done, t->rows_target);
    list_add(v->incomplete, sizeof(v->incomplete), item);
    v->n_incomplete++;
  }
}

/* Prints where every table is, once (the reporter and the last thread may both try). */
static void print_interrupt_summary(void)
{
  pthread_mutex_lock(&out_lock);
  if (summary_printed) {
    pthread_mutex_unlock(&out_lock);
    return;
  }
  summary_printed = true;
  erase_live_lines();
  pthread_mutex_unlock(&out_lock);

  interrupt_view v;
  memset(&v, 0, sizeof(v));
  load_state_each_table(interrupt_table, &v);
  bool verify = load_state_command() == LOAD_VERIFY;
  log_text(LOG_WARNING, "%s was interrupted by signal %d", verify ? "verify" : "prepare",
           load_state_signal());
  if (verify) {
    log_text(LOG_NOTICE, "Checked completely: %s", v.n_complete ? v.complete : "none");
    return;
  }
  log_text(LOG_NOTICE, "Complete tables: %s", v.n_complete ? v.complete : "none");
  if (v.n_incomplete)
    log_text(LOG_NOTICE, "Incomplete tables: %s", v.incomplete);
  if (v.n_untouched)
    log_text(LOG_NOTICE, "Tables not created: %s", v.untouched);
  if (v.n_incomplete)
    log_text(LOG_NOTICE, "Run `cleanup` to drop the tables, or the same `prepare` with "
             "--resume to finish loading them");
  fflush(stdout);
}

/* The threads were asked to stop; they normally do within milliseconds, but one may be
   waiting for a long statement (an index being built). */
static void handle_interrupt(void)
{
  uint64_t until = clock_now_ns() + INTERRUPT_GRACE_NS;
  while (clock_now_ns() < until) {
    if (load_state_all_threads_done())
      return;   /* the last thread prints the summary */
    usleep(20000);
  }
  print_interrupt_summary();
  load_state_forced_exit();
  log_flush();
  fflush(stdout);
  fflush(stderr);
  _exit(128 + load_state_signal());
}

/* ------------------------------------------------------------------------------------------ */
/* The reporter thread                                                                        */
/* ------------------------------------------------------------------------------------------ */

static void *reporter_main(void *arg)
{
  (void) arg;
  bool tty = isatty(STDOUT_FILENO);
  double interval = opt_is_set("report-interval") ? opt_double("report-interval")
                                                  : DEFAULT_INTERVAL_S;
  uint64_t interval_ns = interval > 0 ? (uint64_t) (interval * 1e9) : 0;
  uint64_t start = clock_now_ns(), next_plain = start + interval_ns;
  uint64_t next_draw = start + NS_PER_SEC, done_then = 0, then_ns = start;
  live_view view;
  memset(&view, 0, sizeof(view));
  view.rows_then = calloc(load_state_table_count() + 1, sizeof(uint64_t));
  bool interrupt_seen = false;

  pthread_mutex_lock(&run_lock);
  while (!reporter_stop) {
    uint64_t wake = clock_now_ns() + TICK_NS;
    struct timespec ts = clock_wall_after(TICK_NS);
    pthread_cond_timedwait(&run_cond, &run_lock, &ts);
    if (reporter_stop)
      break;
    pthread_mutex_unlock(&run_lock);
    (void) wake;
    uint64_t now = clock_now_ns();
    if (sb_load_interrupted() && !interrupt_seen) {
      interrupt_seen = true;
      handle_interrupt();
    } else if (!interrupt_seen && !output_exact()) {
      if (tty && view.rows_then != NULL && now >= next_draw) {
        draw_live_lines(&view);
        next_draw = now + TTY_REDRAW_NS;
      } else if (!tty && interval_ns > 0 && now >= next_plain) {
        plain_line(interval, &done_then, &then_ns);
        while (next_plain <= now)
          next_plain += interval_ns;
      }
    }
    pthread_mutex_lock(&run_lock);
  }
  pthread_mutex_unlock(&run_lock);
  free(view.rows_then);
  return NULL;
}

static void load_report_start(void)
{
  pthread_mutex_lock(&run_lock);
  if (!reporter_running) {
    reporter_stop = false;
    reporter_running = pthread_create(&reporter, NULL, reporter_main, NULL) == 0;
  }
  pthread_mutex_unlock(&run_lock);
}

static void load_report_stop(void)
{
  pthread_mutex_lock(&run_lock);
  bool running = reporter_running;
  reporter_stop = true;
  pthread_cond_broadcast(&run_cond);
  pthread_mutex_unlock(&run_lock);
  if (running)
    pthread_join(reporter, NULL);
  reporter_running = false;
  pthread_mutex_lock(&out_lock);
  erase_live_lines();
  pthread_mutex_unlock(&out_lock);
}

/* ------------------------------------------------------------------------------------------ */
/* The final report                                                                           */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
  uint64_t rows, present, logical;
  int64_t data, index;
  uint32_t reported, skipped, wrong;
  bool data_known, index_known;
  uint64_t seed;
  uint32_t seeded;           /* tables loaded (not kept by --resume): their seed is known */
  bool several_seeds;
} size_totals;

static void size_line(const char *name, uint64_t rows, uint64_t logical, int64_t data,
                      int64_t index)
{
  char l[32], d[32], i[32], disk[32], ratio[32];
  int64_t on_disk = data >= 0 ? data + (index > 0 ? index : 0) : -1;
  load_report_mib(l, sizeof(l), (int64_t) logical);
  load_report_mib(d, sizeof(d), data);
  load_report_mib(i, sizeof(i), index);
  load_report_mib(disk, sizeof(disk), on_disk);
  if (on_disk >= 0 && logical > 0)
    snprintf(ratio, sizeof(ratio), "%.2f", (double) on_disk / (double) logical);
  else
    snprintf(ratio, sizeof(ratio), "-");
  log_text(LOG_NOTICE, "  %-10s %12" PRIu64 " %12s %10s %10s %12s %8s", name, rows, l, d, i,
           disk, ratio);
}

static void sum_table(const load_table *t, void *arg)
{
  size_totals *s = arg;
  if (t->phase != TABLE_DONE && t->phase != TABLE_SKIPPED)
    return;
  if (t->phase == TABLE_DONE) {
    if (s->seeded > 0 && t->seed != s->seed)
      s->several_seeds = true;
    s->seed = t->seed;
    s->seeded++;
  }
  s->reported++;
  s->skipped += t->phase == TABLE_SKIPPED;
  s->wrong += t->verify_failed;
  s->rows += t->rows_target;
  s->present += t->phase == TABLE_SKIPPED ? t->rows_target : t->rows_present;
  s->logical += t->logical_bytes;
  if (t->data_bytes >= 0)
    s->data += t->data_bytes;
  else
    s->data_known = false;
  if (t->index_bytes >= 0)
    s->index += t->index_bytes;
  else
    s->index_known = false;
}

static void table_size_line(const load_table *t, void *arg)
{
  (void) arg;
  if (t->phase != TABLE_DONE && t->phase != TABLE_SKIPPED)
    return;
  char name[32];
  snprintf(name, sizeof(name), "sbtest%u", t->number);
  size_line(name, t->rows_target, t->logical_bytes, t->data_bytes, t->index_bytes);
}

static void prepare_report(void)
{
  size_totals s = { .data_known = true, .index_known = true };
  load_state_each_table(sum_table, &s);
  if (s.reported == 0)
    return;
  double secs = (double) load_state_elapsed_ns() / 1e9;
  uint64_t loaded = s.rows - s.present;
  char resumed[160] = "", seed[64];
  if (s.present > 0 || s.skipped > 0)
    snprintf(resumed, sizeof(resumed), "; %" PRIu64 " rows were there already (--resume)",
             s.present);
  if (s.seeded == 0)
    seed[0] = '\0';
  else if (s.several_seeds)
    snprintf(seed, sizeof(seed), ", rows from several seeds");
  else
    snprintf(seed, sizeof(seed), ", rows from --rand-seed=%" PRIu64, s.seed);
  log_text(LOG_NOTICE, "Loaded %" PRIu64 " rows into %u table%s in %.1fs (%.0f rows/s)%s%s",
           loaded, s.reported, s.reported == 1 ? "" : "s", secs,
           secs > 0 ? (double) loaded / secs : 0, seed, resumed);
  log_text(LOG_NOTICE, "Table sizes (MiB; logical: rows x (8 + c + pad bytes) + 8 per index "
           "entry on k):");
  log_text(LOG_NOTICE, "  %-10s %12s %12s %10s %10s %12s %8s", "table", "rows", "logical",
           "data", "index", "on disk", "ratio");
  load_state_each_table(table_size_line, NULL);
  if (s.reported > 1)
    size_line("total", s.rows, s.logical, s.data_known ? s.data : -1,
              s.index_known ? s.index : -1);
}

static int verify_report(void)
{
  size_totals s = { .data_known = true, .index_known = true };
  load_state_each_table(sum_table, &s);
  if (s.reported == 0)
    return 0;
  if (s.wrong == 0)
    log_text(LOG_NOTICE, "Verified %u table%s: no problem found", s.reported,
             s.reported == 1 ? "" : "s");
  else
    log_text(LOG_NOTICE, "Verified %u table%s: %u wrong", s.reported, s.reported == 1 ? "" : "s",
             s.wrong);
  return s.wrong > 0;
}

static int load_report_final(void)
{
  if (sb_load_interrupted()) {
    print_interrupt_summary();
    return 0;
  }
  if (load_state_command() == LOAD_VERIFY)
    return verify_report();
  if (!load_state_failed() && !output_exact())
    prepare_report();
  return 0;
}

/* ---- the command's beginning, end and lines, for Lua ------------------------------------- */

int sb_load_start(int command, uint32_t tables, uint64_t rows, uint32_t threads)
{
  bool first;
  int rc = load_state_begin(command, tables, rows, threads, &first);
  if (rc == 0 && first)
    load_report_start();
  return rc;
}

int sb_load_finish(void)
{
  if (!load_state_started())
    return 0;
  load_report_stop();
  load_state_end();
  return load_report_final();
}

void sb_load_say(const char *text)
{
  load_report_say(text);
}

void sb_load_note_once(const char *text)
{
  static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;
  static char *said[16];
  static size_t said_count;
  if (output_exact())
    return;
  pthread_mutex_lock(&said_lock);
  for (size_t i = 0; i < said_count; i++) {
    if (strcmp(said[i], text) == 0) {
      pthread_mutex_unlock(&said_lock);
      return;
    }
  }
  if (said_count < sizeof(said) / sizeof(said[0]))
    said[said_count++] = strdup(text);
  pthread_mutex_unlock(&said_lock);
  load_report_say(text);
}
