/*
 * sql_load.c: the row work of `prepare` and `verify` on SQL drivers (see sql_load.h).
 *
 * A block is the unit of loading: one stream statement, or the INSERTs of one transaction.
 * So after an interrupt a block is complete, absent, or (on an engine without transactions)
 * a prefix of itself; --resume looks at the first and last id of each block to tell which,
 * deletes a prefix and loads the block again.
 */
#include "sql_load.h"

#include <inttypes.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load_report.h"
#include "load_state.h"
#include "logger.h"
#include "output_mode.h"
#include "sbtest_rows.h"

/* A failed block is tried again this often when the error was one to retry (a deadlock, a
   lost connection that was re-established). */
#define BLOCK_ATTEMPTS 5
/* Rows verify reads per query. */
#define VERIFY_CHUNK_ROWS 10000
/* Rows between two looks at Ctrl-C while a stream is generated. */
#define STOP_CHECK_ROWS 256

/* ------------------------------------------------------------------------------------------ */
/* Statements                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* Runs a statement, dropping any rows; 0, or -1 with the connection's error set. */
static int run(db_conn *con, const char *sql)
{
  db_result *rs = db_query(con, sql, strlen(sql));
  if (rs != NULL)
    db_free_results(rs);
  return con->error == DB_ERROR_NONE ? 0 : -1;
}

/* The first column of the first row as a number (0 for NULL or no row). */
static int query_number(db_conn *con, const char *sql, int64_t *value)
{
  *value = 0;
  db_result *rs = db_query(con, sql, strlen(sql));
  if (rs == NULL)
    return con->error == DB_ERROR_NONE ? 0 : -1;
  db_row_t *row = db_fetch_row(rs);
  if (row != NULL && rs->nfields > 0 && row->values[0].ptr != NULL) {
    char text[32];
    uint32_t n = row->values[0].len < sizeof(text) - 1 ? row->values[0].len : sizeof(text) - 1;
    memcpy(text, row->values[0].ptr, n);
    text[n] = '\0';
    *value = strtoll(text, NULL, 10);
  }
  db_free_results(rs);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Loading                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* The rows of a block as a stream of tab-separated lines. */
typedef struct {
  const sbtest_rows *rows;
  int64_t first_id, next_id, last_id;
  char line[SBTEST_ROW_TEXT_MAX];
  size_t line_len, line_pos;
  uint32_t table;
  bool test_paused;          /* SYSBENCH_TEST_LOAD_DELAY's wait, once per statement */
} row_stream;

static long fill_stream(void *arg, char *buf, size_t capacity)
{
  row_stream *s = arg;
  size_t n = 0;
  uint64_t made = 0;
  sbtest_row row;

  if (sb_load_stopping())
    return -1;
  /* The tests' delay falls inside the statement, once part of it is sent: an interrupt then
     breaks a statement off, which the server rolls back (load_block() waits before the
     other methods' blocks). */
  if (s->next_id > s->first_id && !s->test_paused) {
    s->test_paused = true;
    if (!sb_load_test_pause())
      return -1;
  }
  while (n < capacity) {
    if (s->line_pos < s->line_len) {
      size_t take = s->line_len - s->line_pos;
      if (take > capacity - n)
        take = capacity - n;
      memcpy(buf + n, s->line + s->line_pos, take);
      s->line_pos += take;
      n += take;
      continue;
    }
    if (s->next_id > s->last_id)
      break;
    sbtest_row_make(s->rows, s->next_id++, &row);
    s->line_len = sbtest_row_tsv(s->rows, &row, s->line);
    s->line_pos = 0;
    if (++made % STOP_CHECK_ROWS == 0 && sb_load_stopping())
      return -1;
  }
  sb_load_rows_done(s->table, made);
  return (long) n;
}

static int load_block_stream(db_conn *con, const sql_table_spec *spec, const sbtest_rows *rows,
                             int64_t first, int64_t last)
{
  row_stream s = { .rows = rows, .first_id = first, .next_id = first, .last_id = last,
                   .table = spec->table };
  int rc = db_stream_in(con, spec->stream_statement, strlen(spec->stream_statement), fill_stream,
                        &s);
  if (rc == 0)   /* one statement: its rows are in once it succeeded, none before */
    sb_load_rows_committed(spec->table, (uint64_t) (last - first + 1));
  return rc;
}

static int load_block_insert(db_conn *con, const sql_table_spec *spec, const sbtest_rows *rows,
                             int64_t first, int64_t last, char *sql)
{
  size_t prefix_len = strlen(spec->insert_prefix);
  sbtest_row row;

  if (spec->transactions && run(con, "BEGIN") != 0)
    return -1;
  for (int64_t id = first; id <= last;) {
    if (sb_load_stopping()) {
      if (spec->transactions)
        run(con, "ROLLBACK");
      return SQL_LOAD_STOPPED;
    }
    size_t len = prefix_len;
    memcpy(sql, spec->insert_prefix, prefix_len);
    uint64_t made = 0;
    for (; id <= last; id++) {
      sbtest_row_make(rows, id, &row);
      char text[SBTEST_ROW_TEXT_MAX];
      size_t n = sbtest_row_values(rows, &row, text);
      if (made > 0 && len + 1 + n > spec->statement_bytes)
        break;
      if (made > 0)
        sql[len++] = ',';
      memcpy(sql + len, text, n);
      len += n;
      made++;
    }
    sql[len] = '\0';
    if (run(con, sql) != 0)
      return -1;
    sb_load_rows_done(spec->table, made);
    if (!spec->transactions)
      sb_load_rows_committed(spec->table, made);
  }
  if (spec->transactions && run(con, "COMMIT") != 0)
    return -1;
  if (spec->transactions)
    sb_load_rows_committed(spec->table, (uint64_t) (last - first + 1));
  return 0;
}

/* --resume: 2 the block is complete, 1 it holds some rows (a prefix: delete them), 0 none. */
static int block_state(db_conn *con, uint32_t table, int64_t first, int64_t last, int *state)
{
  char sql[200];
  int64_t found;
  snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM sbtest%u WHERE id IN (%" PRId64 ", %" PRId64
           ")", table, first, last);
  if (query_number(con, sql, &found) != 0)
    return -1;
  if (found >= (first == last ? 1 : 2)) {
    *state = 2;
    return 0;
  }
  if (found > 0) {
    *state = 1;
    return 0;
  }
  snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM (SELECT id FROM sbtest%u WHERE id BETWEEN %"
           PRId64 " AND %" PRId64 " LIMIT 1) t", table, first, last);
  if (query_number(con, sql, &found) != 0)
    return -1;
  *state = found > 0 ? 1 : 0;
  return 0;
}

static int clear_block(db_conn *con, uint32_t table, int64_t first, int64_t last)
{
  char sql[160];
  snprintf(sql, sizeof(sql), "DELETE FROM sbtest%u WHERE id BETWEEN %" PRId64 " AND %" PRId64,
           table, first, last);
  return run(con, sql);
}

/* One block, tried again after errors the driver classified as ones to retry. */
static int load_block(db_conn *con, const sql_table_spec *spec, const sbtest_rows *rows,
                      int64_t first, int64_t last, char *sql)
{
  if (spec->resume) {
    int state;
    if (block_state(con, spec->table, first, last, &state) != 0)
      return -1;
    if (state == 2) {
      sb_load_rows_present(spec->table, (uint64_t) (last - first + 1));
      return 0;
    }
    if (state == 1 && clear_block(con, spec->table, first, last) != 0)
      return -1;
  }
  for (int attempt = 1;; attempt++) {
    if (spec->method != SQL_LOAD_STREAM && !sb_load_test_pause())
      return SQL_LOAD_STOPPED;
    int rc = spec->method == SQL_LOAD_STREAM ? load_block_stream(con, spec, rows, first, last)
                                             : load_block_insert(con, spec, rows, first, last,
                                                                 sql);
    if (rc == 0)
      return 0;
    if (sb_load_stopping())
      return SQL_LOAD_STOPPED;
    if (rc != -1 || con->error != DB_ERROR_IGNORABLE || attempt == BLOCK_ATTEMPTS)
      return rc;
    log_text(LOG_DEBUG, "Loading ids %" PRId64 "..%" PRId64 " of sbtest%u again after error "
             "%d: %s", first, last, spec->table, con->sql_errno,
             con->sql_errmsg != NULL ? con->sql_errmsg : "");
    if (spec->transactions)
      run(con, "ROLLBACK");
    if (clear_block(con, spec->table, first, last) != 0 && con->error == DB_ERROR_FATAL)
      return -1;
  }
}

int sb_sql_load_range(db_conn *con, const sql_table_spec *spec, int64_t first, int64_t last)
{
  sbtest_rows rows;
  const char *why = NULL;
  if (!sbtest_rows_init(&rows, spec->seed, spec->table, spec->table_size, spec->c_template,
                        spec->pad_template, &why)) {
    db_set_error(con, DRIVER_ERROR_FATAL, 0, "HY000", why);
    return -1;
  }
  if (spec->method == SQL_LOAD_STREAM && spec->stream_statement == NULL) {
    db_set_error(con, DRIVER_ERROR_FATAL, 0, "HY000", "no statement to stream rows with");
    return -1;
  }
  char *sql = NULL;
  if (spec->method == SQL_LOAD_INSERT) {
    if (spec->insert_prefix == NULL || spec->statement_bytes < 1024) {
      db_set_error(con, DRIVER_ERROR_FATAL, 0, "HY000", "no INSERT statement to load rows with");
      return -1;
    }
    sql = malloc(spec->statement_bytes + SBTEST_ROW_TEXT_MAX + 2);
    if (sql == NULL) {
      db_set_error(con, DRIVER_ERROR_FATAL, 0, "HY001", "out of memory for an INSERT statement");
      return -1;
    }
  }
  int64_t block = sb_load_block_rows(spec->table_size);
  int rc = 0;
  for (int64_t b = first; b <= last && rc == 0; b += block) {
    int64_t end = b + block - 1 < last ? b + block - 1 : last;
    rc = load_block(con, spec, &rows, b, end, sql);
  }
  free(sql);
  if (rc != 0 && sb_load_stopping() && rc == -1 && con->error == DB_ERROR_FATAL &&
      sb_load_interrupted())
    rc = SQL_LOAD_STOPPED;     /* the statement failed because we broke it off */
  return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Verifying                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static pthread_mutex_t verify_lock = PTHREAD_MUTEX_INITIALIZER;

static void keep_problem(load_verify_result *r, const char *fmt, ...)
  __attribute__((format(printf, 2, 3)));

static void keep_problem(load_verify_result *r, const char *fmt, ...)
{
  if (r->problems_kept < sizeof(r->first_problems) / sizeof(r->first_problems[0])) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->first_problems[r->problems_kept++], sizeof(r->first_problems[0]), fmt, ap);
    va_end(ap);
  }
}

#define MISSING_RUNS_MAX (sizeof(((load_verify_result *) 0)->missing_runs) / \
                          sizeof(((load_verify_result *) 0)->missing_runs[0]))

/* A run of missing ids, first..last: joined to the previous one when it goes on from it. */
static void keep_missing(load_verify_result *r, int64_t first, int64_t last)
{
  r->missing += (uint64_t) (last - first + 1);
  if (r->missing_runs_kept > 0 && r->missing_runs[r->missing_runs_kept - 1][1] == first - 1) {
    r->missing_runs[r->missing_runs_kept - 1][1] = last;
    return;
  }
  if (r->missing_runs_kept < MISSING_RUNS_MAX) {
    r->missing_runs[r->missing_runs_kept][0] = first;
    r->missing_runs[r->missing_runs_kept][1] = last;
    r->missing_runs_kept++;
  }
}

static int compare_runs(const void *a, const void *b)
{
  const int64_t *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* A CHAR(n) column holds `want`: PostgreSQL sends it padded with blanks to n characters,
   MySQL without them. */
static bool same_char_value(const db_value_t *v, const char *want, size_t len)
{
  if (v->ptr == NULL || v->len < len || memcmp(v->ptr, want, len) != 0)
    return false;
  for (size_t i = len; i < v->len; i++)
    if (v->ptr[i] != ' ')
      return false;
  return true;
}

/* Adds the rows of one query result (ids in order) to r; *expected is the next id due. */
static void check_rows(db_result *rs, const sql_table_spec *spec, const sbtest_rows *rows,
                       int64_t *expected, int64_t last, load_verify_result *r)
{
  db_row_t *row;
  sbtest_row want;
  int64_t previous = INT64_MIN;

  while ((row = db_fetch_row(rs)) != NULL) {
    char text[32];
    int64_t field[2];
    for (int i = 0; i < 2; i++) {
      uint32_t n = row->values[i].len < sizeof(text) - 1 ? row->values[i].len : sizeof(text) - 1;
      memcpy(text, row->values[i].ptr != NULL ? row->values[i].ptr : "0", n);
      text[n] = '\0';
      field[i] = strtoll(text, NULL, 10);
    }
    int64_t id = field[0], k = field[1];
    r->rows++;
    r->sum_k += (uint64_t) k;
    r->sum_id += (uint64_t) id;
    if (id == previous) {
      if (r->duplicate++ == 0 || r->problems_kept < 2)
        keep_problem(r, "id %" PRId64 " appears more than once", id);
      continue;
    }
    previous = id;
    if (id > *expected)
      keep_missing(r, *expected, id - 1);
    *expected = id + 1;
    if (k < 1 || (uint64_t) k > spec->table_size) {
      if (r->k_out_of_range++ == 0)
        keep_problem(r, "id %" PRId64 ": k is %" PRId64 ", outside 1..%" PRId64, id, k,
                     (int64_t) spec->table_size);
      continue;
    }
    if (!spec->compare_contents)
      continue;
    sbtest_row_make(rows, id, &want);
    if (k != want.k) {
      if (r->wrong_k++ == 0 || r->problems_kept < 2)
        keep_problem(r, "id %" PRId64 ": k is %" PRId64 ", the generated row has %" PRId64, id,
                     k, want.k);
    }
    bool c_ok = same_char_value(&row->values[2], want.c, rows->c_len);
    bool pad_ok = same_char_value(&row->values[3], want.pad, rows->pad_len);
    if (!c_ok || !pad_ok) {
      if (r->wrong_text++ == 0)
        keep_problem(r, "id %" PRId64 ": %s from the generated row", id,
                     !c_ok && !pad_ok ? "c and pad differ" : !c_ok ? "c differs"
                                                              : "pad differs");
    }
  }
  (void) last;
}

static void merge_result(uint32_t table, const load_verify_result *part)
{
  load_table *t = load_state_table(table);
  if (t == NULL)
    return;
  pthread_mutex_lock(&verify_lock);
  load_verify_result *r = &t->verify;
  r->rows += part->rows;
  r->sum_k += part->sum_k;
  r->sum_id += part->sum_id;
  r->missing += part->missing;
  r->duplicate += part->duplicate;
  r->k_out_of_range += part->k_out_of_range;
  r->wrong_k += part->wrong_k;
  r->wrong_text += part->wrong_text;
  for (unsigned i = 0; i < part->problems_kept; i++)
    if (r->problems_kept < sizeof(r->first_problems) / sizeof(r->first_problems[0]))
      memcpy(r->first_problems[r->problems_kept++], part->first_problems[i],
             sizeof(r->first_problems[0]));
  for (unsigned i = 0; i < part->missing_runs_kept; i++)
    if (r->missing_runs_kept < MISSING_RUNS_MAX) {
      r->missing_runs[r->missing_runs_kept][0] = part->missing_runs[i][0];
      r->missing_runs[r->missing_runs_kept][1] = part->missing_runs[i][1];
      r->missing_runs_kept++;
    }
  pthread_mutex_unlock(&verify_lock);
}

int sb_sql_verify_range(db_conn *con, const sql_table_spec *spec, int64_t first, int64_t last)
{
  sbtest_rows rows;
  const char *why = NULL;
  if (!sbtest_rows_init(&rows, spec->seed, spec->table, spec->table_size, spec->c_template,
                        spec->pad_template, &why)) {
    db_set_error(con, DRIVER_ERROR_FATAL, 0, "HY000", why);
    return -1;
  }
  load_verify_result part;
  memset(&part, 0, sizeof(part));
  int64_t expected = first;
  for (int64_t from = first; from <= last; from += VERIFY_CHUNK_ROWS) {
    if (sb_load_stopping() || !sb_load_test_pause())
      return SQL_LOAD_STOPPED;
    int64_t to = from + VERIFY_CHUNK_ROWS - 1 < last ? from + VERIFY_CHUNK_ROWS - 1 : last;
    char sql[200];
    snprintf(sql, sizeof(sql), "SELECT id, k, c, pad FROM sbtest%u WHERE id BETWEEN %" PRId64
             " AND %" PRId64 " ORDER BY id", spec->table, from, to);
    db_result *rs = db_query(con, sql, strlen(sql));
    if (rs == NULL && con->error != DB_ERROR_NONE)
      return -1;
    if (rs != NULL) {
      check_rows(rs, spec, &rows, &expected, to, &part);
      db_free_results(rs);
    }
    if (expected <= to) {
      /* the ids after the last row found, up to the end of the chunk */
      keep_missing(&part, expected, to);
      expected = to + 1;
    }
    sb_load_rows_done(spec->table, (uint64_t) (to - from + 1));
  }
  merge_result(spec->table, &part);
  return 0;
}

void sb_load_verify_verdict(uint32_t table, int ok, const char *text)
{
  load_table *t = load_state_table(table);
  if (t != NULL && !ok)
    t->verify_failed = true;
  sb_load_say(text);
}

static const char *plural(uint64_t n)
{
  return n == 1 ? "" : "s";
}

/* Appends a part of a verdict to buf. */
static void append(char *buf, size_t len, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
  size_t used = strlen(buf);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, len - used, fmt, ap);
  va_end(ap);
}

int sb_sql_verify_table(db_conn *con, const sql_table_spec *spec, int index_state,
                        const char *index_name, uint64_t index_rows, uint64_t index_sum_k,
                        uint64_t index_sum_id)
{
  load_table *t = load_state_table(spec->table);
  if (t == NULL)
    return -1;
  char sql[200];
  int64_t outside = 0;
  snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM sbtest%u WHERE id < 1 OR id > %" PRIu64,
           spec->table, spec->table_size);
  if (query_number(con, sql, &outside) != 0)
    return -1;

  pthread_mutex_lock(&verify_lock);
  load_verify_result r = t->verify;
  pthread_mutex_unlock(&verify_lock);
  r.outside = (uint64_t) outside;
  uint64_t all_rows = r.rows + r.outside;

  char wrong[600] = "";
  if (all_rows != spec->table_size)
    append(wrong, sizeof(wrong), "; %" PRIu64 " row%s where --table-size is %" PRIu64, all_rows,
           plural(all_rows), spec->table_size);
  if (r.missing)
    append(wrong, sizeof(wrong), "; %" PRIu64 " id%s of 1..table-size missing", r.missing,
           plural(r.missing));
  if (r.duplicate)
    append(wrong, sizeof(wrong), "; %" PRIu64 " id%s repeated", r.duplicate,
           plural(r.duplicate));
  if (r.outside)
    append(wrong, sizeof(wrong), "; %" PRIu64 " row%s with an id outside 1..table-size",
           r.outside, plural(r.outside));
  if (r.k_out_of_range)
    append(wrong, sizeof(wrong), "; %" PRIu64 " row%s with k outside 1..table-size",
           r.k_out_of_range, plural(r.k_out_of_range));
  if (r.wrong_k)
    append(wrong, sizeof(wrong), "; %" PRIu64 " row%s whose k is not the generated one",
           r.wrong_k, plural(r.wrong_k));
  if (r.wrong_text)
    append(wrong, sizeof(wrong), "; %" PRIu64 " row%s whose c or pad is not the generated one",
           r.wrong_text, plural(r.wrong_text));

  char index[300] = "";
  const char *name = index_name != NULL ? index_name : "the index on k";
  switch (index_state) {
    case VERIFY_INDEX_READ:
      if (index_rows != r.rows + r.outside || index_sum_k != r.sum_k ||
          index_sum_id != r.sum_id) {
        append(wrong, sizeof(wrong), "; index %s does not match the rows (%" PRIu64 " entries "
               "for %" PRIu64 " rows%s)", name, index_rows, all_rows,
               index_rows == all_rows ? ", with other k or id values" : "");
      } else {
        snprintf(index, sizeof(index), ", index %s consistent with the rows", name);
      }
      break;
    case VERIFY_INDEX_MISSING:
      append(wrong, sizeof(wrong), "; the index on k is missing");
      break;
    case VERIFY_INDEX_UNEXPECTED:
      snprintf(index, sizeof(index), ", an index on k although --create_secondary is off");
      break;
    default:
      break;
  }

  char text[1200];
  bool ok = wrong[0] == '\0';
  if (ok) {
    snprintf(text, sizeof(text), "sbtest%u: ok: %" PRIu64 " rows, ids 1..%" PRIu64 " without "
             "gaps%s, %s", spec->table, all_rows, spec->table_size, index,
             spec->compare_contents ? "rows as generated from --rand-seed" :
             "contents not compared (give verify the --rand-seed of prepare for that)");
    if (spec->compare_contents) {
      size_t used = strlen(text);
      snprintf(text + used, sizeof(text) - used, "=%" PRIu64, spec->seed);
    }
  } else {
    snprintf(text, sizeof(text), "sbtest%u: WRONG: %s", spec->table, wrong + 2);
  }
  sb_load_verify_verdict(spec->table, ok, text);
  /* the runs of missing ids in order, those that touch joined (they come from several
     threads' ranges) */
  qsort(r.missing_runs, r.missing_runs_kept, sizeof(r.missing_runs[0]), compare_runs);
  unsigned runs = 0;
  for (unsigned i = 0; i < r.missing_runs_kept; i++) {
    if (runs > 0 && r.missing_runs[runs - 1][1] == r.missing_runs[i][0] - 1) {
      r.missing_runs[runs - 1][1] = r.missing_runs[i][1];
      continue;
    }
    r.missing_runs[runs][0] = r.missing_runs[i][0];
    r.missing_runs[runs][1] = r.missing_runs[i][1];
    runs++;
  }
  for (unsigned i = 0; !ok && i < runs && i < 4; i++) {
    if (r.missing_runs[i][0] == r.missing_runs[i][1])
      snprintf(text, sizeof(text), "  sbtest%u: id %" PRId64 " is missing", spec->table,
               r.missing_runs[i][0]);
    else
      snprintf(text, sizeof(text), "  sbtest%u: ids %" PRId64 "..%" PRId64 " are missing",
               spec->table, r.missing_runs[i][0], r.missing_runs[i][1]);
    sb_load_say(text);
  }
  for (unsigned i = 0; !ok && i < r.problems_kept; i++) {
    snprintf(text, sizeof(text), "  sbtest%u: %s", spec->table, r.first_problems[i]);
    sb_load_say(text);
  }
  /* A complete table of another --table-size reads as rows outside 1..table-size, or as
     the ids after its last one missing: say what it holds. (Hints, so none in the exact
     mode.) */
  bool tail_missing = runs == 1 && r.missing_runs[0][0] == (int64_t) all_rows + 1 &&
                      r.missing_runs[0][1] == (int64_t) spec->table_size;
  bool other_size = r.duplicate == 0 && all_rows > 0 &&
                    ((r.outside > 0 && r.missing == 0) || (r.outside == 0 && tail_missing));
  if (other_size && !output_exact()) {
    snprintf(text, sizeof(text), "HINT: sbtest%u holds %" PRIu64 " row%s: verify needs the "
             "--table-size prepare used (--table-size=%" PRIu64 " if it loaded them all)",
             spec->table, all_rows, plural(all_rows), all_rows);
    sb_load_say(text);
  }
  if (spec->compare_contents && r.rows > 0 && r.wrong_k + r.wrong_text >= r.rows * 9 / 10 &&
      !output_exact()) {
    snprintf(text, sizeof(text), "HINT: almost no row of sbtest%u is the generated one: was "
             "prepare run with another --rand-seed than %" PRIu64 "? (it prints the one it "
             "used)", spec->table, spec->seed);
    sb_load_say(text);
  }
  return ok ? 0 : 1;
}
