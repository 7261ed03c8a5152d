/*
 * db.c: the database layer shared by all drivers. It creates drivers and connections for the
 * Lua API, runs queries and prepared statements through the driver, emulates prepared
 * statements on the client when the driver cannot or --db-ps-mode=disable says so, batches
 * bulk inserts, acts on the class of a driver's error (rolls back, reconnects, counts),
 * re-prepares statements after a reconnect, and counts every finished query as a read, write
 * or other (1.0's rule: a result set is a read, affected rows a write).
 */
#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "clock.h"
#include "db.h"
#include "db_emulate.h"
#include "db_registry.h"
#include "logger.h"
#include "output_mode.h"
#include "report.h"
#include "results/environment.h"
#include "runner.h"

/* As in 1.0: a bulk INSERT is sent once it would exceed this, and drivers that need it
   commit every ROWS_BEFORE_COMMIT rows. */
#define BULK_PACKET_SIZE (512 * 1024)
#define ROWS_BEFORE_COMMIT 1000

static bool driver_created;
static pthread_mutex_t init_mutex = PTHREAD_MUTEX_INITIALIZER;
static const db_driver_def *initialized[8];
static int initialized_count;
/* Drivers whose init failed: every thread asks for the driver, and the failure (a bad
   option, a database that is not there) is reported by the first one only. */
static const db_driver_def *failed_drivers[8];
static int failed_count;

bool db_used(void)
{
  return __atomic_load_n(&driver_created, __ATOMIC_ACQUIRE);
}

/* The general database options, read once, by the first driver creation (under
   init_mutex, which every worker takes before its first query: so they are set before any
   worker reads them, and never written again while workers run). */
static struct {
  bool loaded;
  bool debug;            /* --db-debug: DEBUG lines at --verbosity=5, as 1.0.20's */
  bool ps_disabled;      /* --db-ps-mode=disable */
} settings;

static void load_settings(void)
{
  const char *mode = opt_string("db-ps-mode");
  settings.debug = opt_bool("db-debug");
  settings.ps_disabled = mode != NULL && strcmp(mode, "disable") == 0;
  settings.loaded = true;
}

bool db_debug_enabled(void)
{
  return settings.debug;
}

bool db_ps_disabled(void)
{
  assert(settings.loaded);
  return settings.ps_disabled;
}

/* ------------------------------------------------------------------------------------------ */
/* Drivers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static bool listed(const db_driver_def *const *list, int count, const db_driver_def *def)
{
  for (int i = 0; i < count; i++)
    if (list[i] == def)
      return true;
  return false;
}

/* The driver's init runs once per process; a failure is remembered, so the threads after
   the first fail without running it (and printing its messages) again. */
static int init_driver_once(const db_driver_def *def)
{
  int rc = 0;
  int capacity = (int) (sizeof(initialized) / sizeof(initialized[0]));

  pthread_mutex_lock(&init_mutex);
  if (!settings.loaded)
    load_settings();
  if (listed(failed_drivers, failed_count, def)) {
    rc = 1;
  } else if (!listed(initialized, initialized_count, def)) {
    rc = def->ops->init != NULL ? def->ops->init() : 0;
    if (rc == 0 && initialized_count < capacity)
      initialized[initialized_count++] = def;
    else if (rc != 0 && failed_count < capacity)
      failed_drivers[failed_count++] = def;
    if (rc == 0) {
      __atomic_store_n(&driver_created, true, __ATOMIC_RELEASE);
      environment_note_driver(def->name);
    }
  }
  pthread_mutex_unlock(&init_mutex);
  return rc;
}

/* --db-ps-mode is checked where 1.0.20 checks it, when the first driver is created: 1.0.20's
   line (once, where each of its threads said it), and the hint after the lines of the
   script's error that follows. True when the value is one it takes. */
static bool ps_mode_valid(void)
{
  static int checked;            /* 0: not yet, 1: valid, -1: not (under init_mutex) */
  static bool said;
  pthread_mutex_lock(&init_mutex);
  if (checked == 0) {
    const char *mode = opt_string("db-ps-mode");
    checked = mode != NULL && (strcmp(mode, "auto") == 0 || strcmp(mode, "disable") == 0)
              ? 1 : -1;
    if (checked < 0)
      log_hint_at_end("--db-ps-mode expects auto or disable");
  }
  /* said once (exact mode: by each thread, as 1.0.20) */
  if (checked < 0 && (!said || output_exact())) {
    const char *mode = opt_string("db-ps-mode");
    log_text(LOG_FATAL, "Invalid value for db-ps-mode: %s", mode ? mode : "");
    said = true;
  }
  pthread_mutex_unlock(&init_mutex);
  return checked > 0;
}

db_driver *db_create(const char *name)
{
  if (!ps_mode_valid())
    return NULL;
  if (name == NULL || *name == '\0')
    name = opt_string("db-driver");
  if (name == NULL || *name == '\0') {
    log_text(LOG_FATAL, "No database driver: this binary was built without any (see "
             "'sysbench --help')");
    return NULL;
  }
  const db_driver_def *def = db_registry_find(name);
  if (def == NULL) {
    /* 1.0.20's line, once per run (every thread asks for the driver; exact mode: each
       thread says it, as in 1.0.20) */
    static int reported;
    if (__atomic_exchange_n(&reported, 1, __ATOMIC_ACQ_REL) == 0 || output_exact()) {
      char known[256] = "";
      for (const db_driver_def *const *d = db_driver_defs; *d != NULL; d++) {
        strncat(known, known[0] ? ", " : "", sizeof(known) - strlen(known) - 1);
        strncat(known, (*d)->name, sizeof(known) - strlen(known) - 1);
      }
      log_text(LOG_FATAL, "invalid database driver name: '%s'", name);
      log_hint_at_end("--db-driver expects one of the drivers compiled in: %s",
                      known[0] ? known : "none");
    }
    return NULL;
  }
  if (init_driver_once(def) != 0)
    return NULL;
  return (db_driver *) &def->instance;
}

/* Driver handles live as long as the process: a connection may outlive the Lua object of
   the driver it came from (finalizers run in any order when a state closes). */
int db_destroy(db_driver *drv)
{
  (void) drv;
  return 0;
}

int db_driver_family(db_driver *drv)
{
  return drv != NULL && drv->def->family == DB_FAMILY_KV ? 1 : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Connections                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* The reasons a connection failed are kept in the connection itself: every worker makes
   its own connections, and one's failure says nothing about another's. */
const char *db_connect_error(db_conn *con)
{
  return con != NULL && con->connect_error != NULL ? con->connect_error : "";
}

static void forget_connect_error(db_conn *con)
{
  free(con->connect_error);
  con->connect_error = NULL;
  con->connect_error_logged = false;
}

bool db_connect_failure_first(void)
{
  static int reported;
  /* exact mode: every thread's lines, as 1.0.20 prints them */
  return __atomic_exchange_n(&reported, 1, __ATOMIC_ACQ_REL) == 0 || output_exact();
}

void db_connect_error_logged(db_conn *con)
{
  free(con->connect_error);
  con->connect_error = NULL;
  con->connect_error_logged = true;
}

void db_set_connect_error(db_conn *con, const char *fmt, ...)
{
  char *text;
  va_list ap;
  va_start(ap, fmt);
  int n = vasprintf(&text, fmt, ap);
  va_end(ap);
  free(con->connect_error);
  con->connect_error = n >= 0 ? text : NULL;
}

void db_set_error(db_conn *con, driver_error_class cls, int sql_errno, const char *sql_state,
                  const char *message)
{
  assert(cls != DRIVER_ERROR_NONE);
  con->error_class = cls;
  con->error = db_error_outcome(cls);
  con->sql_errno = sql_errno;
  snprintf(con->sqlstate_buf, sizeof(con->sqlstate_buf), "%s", sql_state ? sql_state : "");
  snprintf(con->errmsg_buf, sizeof(con->errmsg_buf), "%s", message ? message : "");
  con->sql_state = con->sqlstate_buf;
  con->sql_errmsg = con->errmsg_buf;
}

void db_clear_error(db_conn *con)
{
  con->error = DB_ERROR_NONE;
  con->sql_errno = 0;
  con->sql_state = NULL;
  con->sql_errmsg = NULL;
}

void db_api_alert(const char *what)
{
  log_text(LOG_ALERT, "%s", what);
}

void db_set_api_error(db_conn *con)
{
  con->error_class = DRIVER_ERROR_FATAL;
  con->error = DB_ERROR_FATAL;
  con->sql_errno = 0;
  con->sql_state = NULL;
  con->sql_errmsg = NULL;
}

/* A connection that could not be made: its reason into `why`, and it goes. */
static db_conn *failed_connection(db_conn *con, char *why, size_t why_size)
{
  if (con->connect_error == NULL && !con->connect_error_logged)
    db_set_connect_error(con, "the %s driver could not connect", con->driver->sname);
  if (why_size > 0)
    snprintf(why, why_size, "%s", db_connect_error(con));
  free(con->connect_error);
  free(con);
  return NULL;
}

db_conn *db_worker_connect(db_driver *drv, worker *w, char *why, size_t why_size)
{
  if (why_size > 0)
    why[0] = '\0';
  if (drv == NULL)
    return NULL;
  db_conn *con = calloc(1, sizeof(*con));
  if (con == NULL)
    return NULL;
  con->driver = drv;
  con->worker = w != NULL ? w : runner_worker(-1);
  con->thread_id = (int) con->worker->id;
  if (drv->def->ops->thread_init != NULL && drv->def->ops->thread_init(con->thread_id) != 0) {
    free(con);
    return NULL;
  }
  if (drv->def->ops->connect(con) != 0)
    return failed_connection(con, why, why_size);
  con->state = DB_CONN_READY;
  return con;
}

db_conn *db_connection_create(db_driver *drv)
{
  return db_worker_connect(drv, worker_of_thread(), NULL, 0);
}

static int free_results_internal(db_conn *con)
{
  int rc = 0;
  if (con->state == DB_CONN_RESULT_SET) {
    const db_driver_ops *ops = con->driver->def->ops;
    if (ops->free_results != NULL)
      rc = ops->free_results(&con->rs);
    con->state = DB_CONN_READY;
  }
  return rc;
}

static int close_connection(db_conn *con)
{
  if (con == NULL || con->state == DB_CONN_INVALID)
    return 0;
  free_results_internal(con);
  int rc = con->driver->def->ops->disconnect(con);
  con->state = DB_CONN_INVALID;
  return rc;
}

int db_connection_close(db_conn *con)
{
  if (con != NULL && con->state == DB_CONN_INVALID) {
    log_text(LOG_ALERT, "attempt to close an already closed connection");
    return 0;
  }
  return close_connection(con);
}

int db_connection_reconnect(db_conn *con)
{
  const db_driver_ops *ops = con->driver->def->ops;
  int rc;

  free_results_internal(con);
  forget_connect_error(con);
  if (ops->reconnect != NULL) {
    rc = ops->reconnect(con);
  } else {
    if (con->state != DB_CONN_INVALID)
      ops->disconnect(con);
    rc = ops->connect(con);
  }
  con->generation++;
  con->state = rc == 0 ? DB_CONN_READY : DB_CONN_INVALID;
  /* a reconnect the script asked for (con:reconnect(), --reconnect=N) is one too */
  if (rc == 0)
    worker_counter_add(con->worker, SB_CNT_RECONNECT, 1);
  return rc;
}

static int close_statement(db_stmt *stmt);

void db_connection_free(db_conn *con)
{
  if (con == NULL)
    return;
  /* Statements the script never closed go with their connection (server-side statements
     count against the server's max_prepared_stmt_count). An open result set may belong to
     one of them: it goes first. */
  free_results_internal(con);
  while (con->statements != NULL)
    close_statement(con->statements);
  close_connection(con);
  free(con->connect_error);
  free(con->bulk_buffer);
  free(con->values);
  free(con);
}

/* ------------------------------------------------------------------------------------------ */
/* Counting                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static bool word_is(const char *p, const char *end, const char *word)
{
  size_t n = strlen(word);
  if ((size_t) (end - p) < n || strncasecmp(p, word, n) != 0)
    return false;
  return p + n == end || !isalnum((unsigned char) p[n]);
}

/* The kind of an SQL statement by its first word: SELECT, INSERT (and REPLACE), UPDATE,
   DELETE, BEGIN (and START TRANSACTION), COMMIT, or anything else (SB_CNT_STMT_OTHER). */
static sb_counter_type statement_kind(const char *query, size_t len)
{
  static const struct { const char *word; sb_counter_type kind; } words[] = {
    {"select", SB_CNT_STMT_SELECT}, {"insert", SB_CNT_STMT_INSERT},
    {"replace", SB_CNT_STMT_INSERT}, {"update", SB_CNT_STMT_UPDATE},
    {"delete", SB_CNT_STMT_DELETE}, {"begin", SB_CNT_STMT_BEGIN},
    {"start", SB_CNT_STMT_BEGIN}, {"commit", SB_CNT_STMT_COMMIT},
  };
  const char *p = query, *end = query + len;

  /* Blanks, comments and opening parentheses before the first word. */
  while (p < end) {
    if (isspace((unsigned char) *p) || *p == '(') {
      p++;
    } else if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
      const char *close = p + 2;
      while (close + 1 < end && !(close[0] == '*' && close[1] == '/'))
        close++;
      p = close + 2;
    } else if (end - p >= 2 && p[0] == '-' && p[1] == '-') {
      while (p < end && *p != '\n')
        p++;
    } else {
      break;
    }
  }
  for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
    if (word_is(p, end, words[i].word))
      return words[i].kind;
  return SB_CNT_STMT_OTHER;
}

void db_note_server_version(const char *version)
{
  environment_note_server_version(version);
}

void db_note_driver_statistic(const char *name, uint64_t value)
{
  environment_note_driver_statistic(name, value);
}

void db_note_driver_statistics_text(const char *text)
{
  environment_note_driver_statistics_text(text);
}

/* The code an ignored error is counted under: the server's error number, else its SQLSTATE. */
static uint64_t error_code_of(const db_conn *con)
{
  char text[16];
  if (con->sql_errno != 0)
    snprintf(text, sizeof(text), "%d", con->sql_errno);
  else if (con->sql_state != NULL && con->sql_state[0] != '\0')
    snprintf(text, sizeof(text), "%.8s", con->sql_state);
  else
    return 0;
  return stats_error_code_pack(text);
}

/* Per statement that succeeded: its read/write/other class and its kind (and rows), in the
   worker's own counters (stats.h: only the owner writes them). */
static void count_result(db_conn *con, const db_result *rs)
{
  worker *w = con->worker;

  /* drivers answer read, write or other (the test that replaced a clamp to "other") */
  assert(rs->stat_type <= SB_CNT_WRITE);
  worker_counter_add(w, rs->stat_type, 1);
  worker_counter_add(w, con->statement_kind, 1);
  if (rs->stat_type == SB_CNT_READ)
    worker_counter_add(w, SB_CNT_ROWS, rs->nrows);
}

void db_count_ignored_error(db_conn *con)
{
  if (con != NULL)
    worker_error_add(con->worker, error_code_of(con));
}

/* ------------------------------------------------------------------------------------------ */
/* After an error                                                                             */
/* ------------------------------------------------------------------------------------------ */

/* One reconnect: the driver's, or a new connection. */
static int reconnect_once(db_conn *con)
{
  const db_driver_ops *ops = con->driver->def->ops;
  if (ops->reconnect != NULL)
    return ops->reconnect(con);
  ops->disconnect(con);
  return ops->connect(con);
}

/* After the connection was lost: reconnect until it works, backing off from 1 ms to 100 ms
   between attempts; give up only when the run is ending. Statements prepared before are
   prepared again on their next execution (the generation). Attempts that fail while the run
   goes on are an outage of the worker's (outage.h): counted, and reported with the time they
   began; an attempt made as the run ends is not, unless an outage is in progress. */
static bool reconnect_after_loss(db_conn *con)
{
  worker_outage *outage = &con->worker->stats.outage;
  uint64_t lost_ns = clock_now_ns();
  useconds_t pause = 1000;

  for (;;) {
    if (reconnect_once(con) == 0) {
      con->generation++;
      if (!con->worker->shared)
        outage_reconnected(outage, clock_now_ns());
      return true;
    }
    bool ending = runner_failed() || runner_stopping();
    if (!con->worker->shared && (!ending || outage_in_progress(outage))) {
      worker_counter_add(con->worker, SB_CNT_RECONNECT_FAILED, 1);
      outage_reconnect_failed(outage, lost_ns, db_connect_error(con));
    }
    if (ending)
      return false;
    usleep(pause);
    if (pause < 100000)
      pause *= 2;
  }
}

/* "Ignoring error 1213 Deadlock found ..." at --verbosity=5: the server's error number, else
   its SQLSTATE. */
static void log_ignored(const db_conn *con, const char *then)
{
  char code[16];
  if (con->sql_errno != 0)
    snprintf(code, sizeof(code), "%d", con->sql_errno);
  else
    snprintf(code, sizeof(code), "%s", con->sql_state != NULL ? con->sql_state : "");
  log_text(LOG_DEBUG, "Ignoring error %s %s%s", code,
           con->sql_errmsg != NULL ? con->sql_errmsg : "", then);
}

/* Act on the class of an error the driver reported for `con`: roll back, reconnect, and
   count an ignored error (when `count`: 1.0 did not count failed prepares) or a reconnect
   (1.0 counts a reconnect as one, not as an error). The script then sees the connection's
   error (db_error_outcome of the class): the event is retried, or the run stops. */
static void settle(db_conn *con, driver_error_class cls, bool count)
{
  const db_driver_ops *ops = con->driver->def->ops;
  worker *w = con->worker;
  bool counted_as_error = true;

  /* what the script will see is what this class means */
  assert(cls == DRIVER_ERROR_NONE || con->error == db_error_outcome(cls));
  con->error_class = DRIVER_ERROR_NONE;
  switch (cls) {
    case DRIVER_ERROR_NONE:
    case DRIVER_ERROR_FATAL:
      return;
    case DRIVER_ERROR_IGNORE:
      log_ignored(con, "");
      break;
    case DRIVER_ERROR_RESTART_TRANSACTION:
      log_ignored(con, "");
      if (ops->rollback != NULL)
        ops->rollback(con);
      break;
    case DRIVER_ERROR_RECONNECT:
      log_ignored(con, ", reconnecting");
      /* Given up because the run is ending: the error stays ignorable and is counted as
         one; the event ends uncounted instead of being run again (sysbench.lua). */
      if (reconnect_after_loss(con)) {
        worker_counter_add(w, SB_CNT_RECONNECT, 1);
        log_text(LOG_DEBUG, "Reconnected");
        counted_as_error = false;
      }
      break;
  }
  if (count && counted_as_error) {
    worker_error_add(w, error_code_of(con));
  }
}

void db_statement_failed(db_conn *con)
{
  settle(con, con->error_class, false);
}

/* ------------------------------------------------------------------------------------------ */
/* Queries                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Common tail of query and execute: count, keep or drop the result set, or act on the
   error. */
static db_result *finish(db_conn *con, driver_error_class rc)
{
  db_result *rs = &con->rs;

  if (rc != DRIVER_ERROR_NONE) {
    con->error = db_error_outcome(rc);
    settle(con, rc, true);
    return NULL;
  }
  count_result(con, rs);
  db_clear_error(con);
  if (rs->stat_type == SB_CNT_READ) {
    con->state = DB_CONN_RESULT_SET;
    return rs;
  }
  return NULL;
}

static void reset_result(db_conn *con, db_stmt *stmt)
{
  db_result *rs = &con->rs;
  memset(rs, 0, sizeof(*rs));
  rs->connection = con;
  rs->statement = stmt;
  con->statement_kind = stmt != NULL ? stmt->kind : SB_CNT_STMT_OTHER;
}

/* 1.0.20's ALERT when the script uses a closed connection; true when `con` is closed. */
static bool connection_closed(const db_conn *con)
{
  if (con->state != DB_CONN_INVALID)
    return false;
  log_text(LOG_ALERT, "attempt to use an already closed connection");
  return true;
}

static bool connection_usable(db_conn *con)
{
  if (con == NULL)
    return false;
  if (connection_closed(con)) {
    db_set_api_error(con);
    return false;
  }
  if (free_results_internal(con) != 0) {
    db_set_api_error(con);
    return false;
  }
  assert(con->state == DB_CONN_READY);
  return true;
}

bool db_statement_start(db_conn *con)
{
  if (!connection_usable(con))
    return false;
  reset_result(con, NULL);
  return true;
}

db_result *db_statement_finish(db_conn *con, driver_error_class rc)
{
  return finish(con, rc);
}

db_result *db_query(db_conn *con, const char *query, size_t len)
{
  if (!connection_usable(con))
    return NULL;
  reset_result(con, NULL);
  con->statement_kind = statement_kind(query, len);
  if (db_debug_enabled())
    log_text(LOG_DEBUG, "query: %.*s", (int) len, query);
  return finish(con, con->driver->def->ops->query(con, query, len, &con->rs));
}

static bool stream_in_wanted;

void db_want_stream_in(void)
{
  __atomic_store_n(&stream_in_wanted, true, __ATOMIC_RELEASE);
}

bool db_stream_in_wanted(void)
{
  return __atomic_load_n(&stream_in_wanted, __ATOMIC_ACQUIRE);
}

int db_stream_in(db_conn *con, const char *statement, size_t len, db_stream_fill fill,
                 void *arg)
{
  if (!connection_usable(con))
    return -1;
  reset_result(con, NULL);
  const db_driver_ops *ops = con->driver->def->ops;
  if (ops->stream_in == NULL) {
    db_set_error(con, DRIVER_ERROR_FATAL, DB_STREAM_UNSUPPORTED, "HY000",
                 "the driver cannot stream data to the server");
    return -1;
  }
  if (db_debug_enabled())
    log_text(LOG_DEBUG, "stream: %.*s", (int) len, statement);
  driver_error_class rc = ops->stream_in(con, statement, len, fill, arg, &con->rs);
  finish(con, rc);
  return rc == DRIVER_ERROR_NONE ? 0 : -1;
}

/* The next row of a result set; the script's misuses get 1.0.20's ALERTs, in its order. */
db_row_t *db_fetch_row(db_result *rs)
{
  if (rs == NULL || rs->connection == NULL || connection_closed(rs->connection))
    return NULL;
  if (rs->connection->state != DB_CONN_RESULT_SET) {
    log_text(LOG_ALERT, "attempt to fetch row from an invalid result set");
    return NULL;
  }
  if (rs->nrows == 0 || rs->nfields == 0) {
    log_text(LOG_ALERT, "attempt to fetch row from an empty result set");
    return NULL;
  }
  db_conn *con = rs->connection;
  const db_driver_ops *ops = con->driver->def->ops;
  if (ops->fetch_row == NULL)
    return NULL;
  if (rs->nfields > con->values_capacity) {
    db_value_t *grown = realloc(con->values, rs->nfields * sizeof(db_value_t));
    if (grown == NULL)
      return NULL;
    con->values = grown;
    con->values_capacity = rs->nfields;
  }
  rs->row.values = con->values;
  assert(rs->nfields <= con->values_capacity);
  if (ops->fetch_row(rs, &rs->row) != 0)
    return NULL;
  rs->rows_fetched++;
  return &rs->row;
}

bool db_more_results(db_conn *con)
{
  const db_driver_ops *ops = con->driver->def->ops;
  return ops->more_results != NULL && ops->more_results(con);
}

db_result *db_next_result(db_conn *con)
{
  const db_driver_ops *ops = con->driver->def->ops;
  if (ops->next_result == NULL || !db_more_results(con))
    return NULL;
  free_results_internal(con);
  reset_result(con, NULL);
  return finish(con, ops->next_result(con, &con->rs));
}

/* A result set lives until it is freed or the next statement on its connection: freeing it
   after that is the script's mistake, reported as 1.0.20 does. */
int db_free_results(db_result *rs)
{
  if (rs == NULL || rs->connection == NULL)
    return 0;
  if (connection_closed(rs->connection))
    return 1;
  if (rs->connection->state != DB_CONN_RESULT_SET) {
    log_text(LOG_ALERT, "attempt to free an invalid result set");
    return 1;
  }
  return free_results_internal(rs->connection);
}

/* ------------------------------------------------------------------------------------------ */
/* Prepared statements                                                                        */
/* ------------------------------------------------------------------------------------------ */

db_stmt *db_prepare(db_conn *con, const char *query, size_t len)
{
  if (!connection_usable(con))
    return NULL;
  db_stmt *stmt = calloc(1, sizeof(*stmt));
  if (stmt == NULL)
    return NULL;
  stmt->connection = con;
  stmt->query = malloc(len + 1);
  if (stmt->query == NULL) {
    free(stmt);
    return NULL;
  }
  memcpy(stmt->query, query, len);
  stmt->query[len] = '\0';
  stmt->query_len = len;
  stmt->generation = con->generation;
  stmt->kind = statement_kind(query, len);

  const db_driver_ops *ops = con->driver->def->ops;
  int rc = 1;
  if (!db_ps_disabled() && ops->prepare != NULL)
    rc = ops->prepare(stmt, query, len);
  assert(rc >= -1 && rc <= 1);
  if (rc < 0) {
    free(stmt->query);
    free(stmt);
    db_statement_failed(con);
    return NULL;
  }
  /* 1: no server-side statement (disabled, or the driver cannot prepare this one) */
  stmt->emulated = rc == 1;
  db_statement_attach(con, stmt);
  return stmt;
}

void db_statement_attach(db_conn *con, db_stmt *stmt)
{
  stmt->connection = con;
  stmt->prev = NULL;
  stmt->next = con->statements;
  if (con->statements != NULL)
    con->statements->prev = stmt;
  con->statements = stmt;
}

static int copy_binds(db_bind_t **dst, size_t *dst_count, const db_bind_t *src, size_t n)
{
  db_bind_t *copy = n ? malloc(n * sizeof(db_bind_t)) : NULL;
  if (n && copy == NULL)
    return -1;
  if (n)
    memcpy(copy, src, n * sizeof(db_bind_t));
  free(*dst);
  *dst = copy;
  *dst_count = n;
  return 0;
}

int db_bind_param(db_stmt *stmt, db_bind_t *params, size_t len)
{
  if (stmt == NULL || copy_binds(&stmt->params, &stmt->param_count, params, len) != 0)
    return 1;
  if (stmt->emulated)
    return 0;
  const db_driver_ops *ops = stmt->connection->driver->def->ops;
  return ops->bind_param != NULL ? ops->bind_param(stmt, stmt->params, len) : 0;
}

int db_bind_result(db_stmt *stmt, db_bind_t *results, size_t len)
{
  if (stmt == NULL || copy_binds(&stmt->results, &stmt->result_count, results, len) != 0)
    return 1;
  if (stmt->emulated)
    return 0;
  const db_driver_ops *ops = stmt->connection->driver->def->ops;
  return ops->bind_result != NULL ? ops->bind_result(stmt, stmt->results, len) : 0;
}

/* After a reconnect the server forgot the statement: prepare and bind it again. */
static int reprepare(db_stmt *stmt)
{
  const db_driver_ops *ops = stmt->connection->driver->def->ops;

  if (ops->close != NULL)
    ops->close(stmt);
  stmt->ptr = NULL;
  stmt->generation = stmt->connection->generation;
  int rc = ops->prepare(stmt, stmt->query, stmt->query_len);
  if (rc == 1) {
    stmt->emulated = true;
    return 0;
  }
  if (rc == 0 && stmt->param_count && ops->bind_param != NULL)
    rc = ops->bind_param(stmt, stmt->params, stmt->param_count);
  if (rc == 0 && stmt->result_count && ops->bind_result != NULL)
    rc = ops->bind_result(stmt, stmt->results, stmt->result_count);
  return rc;
}

db_result *db_execute(db_stmt *stmt)
{
  if (stmt == NULL)
    return NULL;
  db_conn *con = stmt->connection;
  if (!connection_usable(con))
    return NULL;
  const db_driver_ops *ops = con->driver->def->ops;

  reset_result(con, stmt);
  if (stmt->emulated) {
    size_t len;
    const char *text = db_emulate_statement(stmt, &len);
    if (text == NULL) {
      db_set_api_error(con);
      return NULL;
    }
    if (db_debug_enabled())
      log_text(LOG_DEBUG, "query: %.*s", (int) len, text);
    return finish(con, ops->query(con, text, len, &con->rs));
  }

  if (stmt->generation != con->generation && reprepare(stmt) != 0) {
    if (con->error == DB_ERROR_NONE)
      db_set_api_error(con);
    settle(con, con->error_class, true);
    return NULL;
  }
  if (db_debug_enabled())
    log_text(LOG_DEBUG, "execute: %s", stmt->query);
  return finish(con, ops->execute(stmt, &con->rs));
}

/* A statement closed by the script: on a closed connection 1.0.20 only says so (the
   statement goes with its connection). */
int db_close(db_stmt *stmt)
{
  if (stmt == NULL || connection_closed(stmt->connection))
    return 0;
  return close_statement(stmt);
}

static int close_statement(db_stmt *stmt)
{
  db_conn *con = stmt->connection;
  assert(con != NULL && (stmt->prev != NULL || con->statements == stmt));
  if (con->state == DB_CONN_RESULT_SET && con->rs.statement == stmt)
    free_results_internal(con);
  if (stmt->prev != NULL)
    stmt->prev->next = stmt->next;
  else
    con->statements = stmt->next;
  if (stmt->next != NULL)
    stmt->next->prev = stmt->prev;
  const db_driver_ops *ops = con->driver->def->ops;
  /* also after a disconnect: the driver frees its statement handle (without the server) */
  if (!stmt->emulated && ops->close != NULL)
    ops->close(stmt);
  free(stmt->query);
  free(stmt->params);
  free(stmt->results);
  free(stmt->emulation_buffer);
  free(stmt);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Bulk inserts                                                                               */
/* ------------------------------------------------------------------------------------------ */

static int bulk_reserve(db_conn *con, size_t need)
{
  if (need <= con->bulk_capacity)
    return 0;
  size_t capacity = con->bulk_capacity ? con->bulk_capacity : BULK_PACKET_SIZE + 1024;
  while (capacity < need)
    capacity *= 2;
  char *grown = realloc(con->bulk_buffer, capacity);
  if (grown == NULL)
    return -1;
  con->bulk_buffer = grown;
  con->bulk_capacity = capacity;
  return 0;
}

static int bulk_commit(db_conn *con)
{
  if (!con->driver->def->needs_commit || con->bulk_uncommitted == 0)
    return 0;
  con->bulk_uncommitted = 0;
  db_query(con, "COMMIT", 6);
  return con->error == DB_ERROR_NONE ? 0 : -1;
}

static int bulk_flush(db_conn *con)
{
  if (con->bulk_values == 0)
    return 0;
  /* drivers get NUL-terminated texts (bulk_insert_next reserved the byte) */
  con->bulk_buffer[con->bulk_size] = '\0';
  db_query(con, con->bulk_buffer, con->bulk_size);
  con->bulk_uncommitted += con->bulk_values;
  con->bulk_values = 0;
  con->bulk_size = con->bulk_prefix_len;
  if (con->error != DB_ERROR_NONE)
    return -1;
  return con->bulk_uncommitted >= ROWS_BEFORE_COMMIT ? bulk_commit(con) : 0;
}

/* On a closed connection the bulk calls say so and return 0, as 1.0.20's did. */
int db_bulk_insert_init(db_conn *con, const char *query, size_t len)
{
  if (con != NULL && connection_closed(con))
    return 0;
  if (con == NULL || bulk_reserve(con, len + 1) != 0)
    return 1;
  memcpy(con->bulk_buffer, query, len);
  con->bulk_size = con->bulk_prefix_len = len;
  con->bulk_values = 0;
  con->bulk_uncommitted = 0;
  return 0;
}

int db_bulk_insert_next(db_conn *con, const char *values, size_t len)
{
  if (con == NULL)
    return 1;
  if (connection_closed(con))
    return 0;
  if (con->bulk_prefix_len == 0) {
    log_text(LOG_ALERT, "attempt to call bulk_insert_next() before bulk_insert_init()");
    return 1;
  }
  if (con->bulk_values > 0 && con->bulk_size + len + 1 > BULK_PACKET_SIZE && bulk_flush(con))
    return 1;
  if (bulk_reserve(con, con->bulk_size + len + 2) != 0)
    return 1;
  con->bulk_buffer[con->bulk_size++] = con->bulk_values > 0 ? ',' : ' ';
  memcpy(con->bulk_buffer + con->bulk_size, values, len);
  con->bulk_size += len;
  con->bulk_values++;
  return 0;
}

/* Without a bulk_insert_init() there is nothing to send: done, as in 1.0.20. */
int db_bulk_insert_done(db_conn *con)
{
  if (con == NULL || con->bulk_prefix_len == 0)
    return 0;
  int rc = bulk_flush(con);
  if (rc == 0)
    rc = bulk_commit(con);
  con->bulk_prefix_len = 0;
  return rc != 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Reports and shutdown                                                                       */
/* ------------------------------------------------------------------------------------------ */

void db_report_intermediate(sb_stat_t *stat, const report_layout *layout)
{
  if (db_used())
    report_intermediate_sql(stat, layout);
  else
    report_intermediate_default(stat, layout);
}

void db_report_cumulative(sb_stat_t *stat, const report_layout *layout)
{
  if (db_used())
    report_cumulative_sql(stat);
  report_cumulative_general(stat, layout);
  if (db_used() && !output_exact())
    report_cumulative_sql_details(stat);
  /* (ours, as the block before: not in the exact mode, where a server that never came
     back still fails the run) */
  if (stat->outage != NULL && !output_exact())
    report_outages(stat->outage);
  for (int i = 0; i < initialized_count; i++)
    if (initialized[i]->ops->report_cumulative != NULL)
      initialized[i]->ops->report_cumulative(stat);
}

void db_done(void)
{
  pthread_mutex_lock(&init_mutex);
  for (int i = 0; i < initialized_count; i++)
    if (initialized[i]->ops->done != NULL)
      initialized[i]->ops->done();
  initialized_count = 0;
  pthread_mutex_unlock(&init_mutex);
}
