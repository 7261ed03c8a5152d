/*
 * statement.c: server-side prepared statements (mysql_stmt_*): prepare (falling back to
 * client-side emulation for statements the server cannot prepare), parameter and result
 * binding, execution with 1.0's read/write/other classification (handed to the wire path,
 * wire.c, when the connection and statement allow), and rows of a prepared statement's
 * result as strings for fetch_row().
 */
#include <errmsg.h>
#include <mysqld_error.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "drivers/mysql/binary_row.h"
#include "drivers/mysql/errors.h"
#include "drivers/mysql/settings.h"
#include "drivers/mysql/query.h"
#include "drivers/mysql/state.h"
#include "drivers/mysql/statement.h"
#include "drivers/mysql/wire.h"
#include "logger.h"

#define ROW_BUFFER_START 256

static enum enum_field_types bind_type(db_bind_type_t type)
{
  switch (type) {
    case DB_TYPE_TINYINT:   return MYSQL_TYPE_TINY;
    case DB_TYPE_SMALLINT:  return MYSQL_TYPE_SHORT;
    case DB_TYPE_INT:       return MYSQL_TYPE_LONG;
    case DB_TYPE_BIGINT:    return MYSQL_TYPE_LONGLONG;
    case DB_TYPE_FLOAT:     return MYSQL_TYPE_FLOAT;
    case DB_TYPE_DOUBLE:    return MYSQL_TYPE_DOUBLE;
    case DB_TYPE_DATETIME:  return MYSQL_TYPE_DATETIME;
    case DB_TYPE_TIMESTAMP: return MYSQL_TYPE_TIMESTAMP;
    case DB_TYPE_CHAR:      return MYSQL_TYPE_STRING;
    case DB_TYPE_VARCHAR:   return MYSQL_TYPE_VAR_STRING;
    default:                return MYSQL_TYPE_NULL;
  }
}

/* The script's binds as client-library binds (the library copies them). */
static MYSQL_BIND *convert_binds(const db_bind_t *binds, size_t count)
{
  MYSQL_BIND *out = calloc(count ? count : 1, sizeof(MYSQL_BIND));
  if (out == NULL)
    return NULL;
  for (size_t i = 0; i < count; i++) {
    out[i].buffer_type = bind_type(binds[i].type);
    if (out[i].buffer_type == MYSQL_TYPE_NULL) {
      log_text(LOG_FATAL, "Unsupported bind type %d for parameter %zu", (int) binds[i].type,
               i + 1);
      free(out);
      return NULL;
    }
    out[i].buffer = binds[i].buffer;
    out[i].buffer_length = binds[i].max_len;
    out[i].length = binds[i].data_len;
    /* the Lua API's is_null is a char, as my_bool */
    out[i].is_null = (my_bool *) binds[i].is_null;
  }
  return out;
}

static driver_error_class fail_statement(db_conn *con, MYSQL_STMT *h)
{
  return mysqldrv_fail(con, mysql_stmt_errno(h), mysql_stmt_sqlstate(h), mysql_stmt_error(h));
}

static void free_row_binds(mysqldrv_stmt *s)
{
  if (s->row_buffers != NULL)
    for (uint32_t i = 0; i < s->row_fields; i++)
      free(s->row_buffers[i]);
  free(s->row_binds);
  free(s->row_buffers);
  free(s->row_lengths);
  free(s->row_nulls);
  free(s->row_errors);
  s->row_binds = NULL;
  s->row_buffers = NULL;
  s->row_lengths = NULL;
  s->row_nulls = NULL;
  s->row_errors = NULL;
  s->row_fields = 0;
}

/* A CALL may return several results; the wire path leaves those to the library. */
static bool is_call(const char *query, size_t len)
{
  size_t i = 0;
  while (i < len && (query[i] == ' ' || query[i] == '\t' || query[i] == '\n' ||
                     query[i] == '\r' || query[i] == '('))
    i++;
  return len - i >= 4 && strncasecmp(query + i, "call", 4) == 0;
}

/* What the wire path needs to decode rows: the result's columns as prepared. */
static int remember_columns(mysqldrv_stmt *s)
{
  unsigned count = mysql_stmt_field_count(s->handle);
  free(s->columns);
  s->columns = NULL;
  s->column_count = 0;
  if (count == 0 || s->handle->fields == NULL)
    return 0;
  s->columns = calloc(count, sizeof(mysqldrv_column));
  if (s->columns == NULL)
    return -1;
  for (unsigned i = 0; i < count; i++) {
    const MYSQL_FIELD *f = &s->handle->fields[i];
    s->columns[i].type = (uint8_t) f->type;
    s->columns[i].flags = (uint16_t) f->flags;
    s->columns[i].decimals = (uint8_t) f->decimals;
    s->columns[i].length = (uint32_t) f->length;
  }
  s->column_count = count;
  return 0;
}

/* The wire path can run this statement: not a CALL (several results), its columns known
   from the prepare, its parameters of the Lua API's types (BIGINT, DOUBLE, strings), rows not
   going to the script's own buffers. */
static bool wire_capable(const db_stmt *stmt, const mysqldrv_stmt *s, const db_bind_t *params,
                         size_t count)
{
  if (is_call(stmt->query, stmt->query_len) || s->user_results_bound ||
      s->column_count != mysql_stmt_field_count(s->handle))
    return false;
  for (size_t i = 0; i < count; i++)
    if (params[i].type != DB_TYPE_BIGINT && params[i].type != DB_TYPE_DOUBLE &&
        params[i].type != DB_TYPE_CHAR && params[i].type != DB_TYPE_VARCHAR)
      return false;
  return true;
}

int mysqldrv_prepare(db_stmt *stmt, const char *query, size_t len)
{
  if (mysqldrv_config.dry_run)
    return 0;
  db_conn *con = stmt->connection;
  MYSQL *m = mysqldrv_handle(con);
  if (m == NULL) {
    mysqldrv_fail_disconnected(con);
    return -1;
  }

  mysqldrv_stmt *s = calloc(1, sizeof(*s));
  if (s == NULL)
    return -1;
  s->handle = mysql_stmt_init(m);
  MYSQLDRV_TRACE("mysql_stmt_init(%p) = %p", (void *) m, (void *) s->handle);
  if (s->handle == NULL) {
    mysqldrv_fail(con, mysql_errno(m), mysql_sqlstate(m), mysql_error(m));
    free(s);
    return -1;
  }
  int rc = mysql_stmt_prepare(s->handle, query, (unsigned long) len);
  MYSQLDRV_TRACE("mysql_stmt_prepare(%p, \"%.*s\", %zu) = %d", (void *) s->handle, (int) len,
                 query, len, rc);
  if (rc != 0) {
    unsigned err = mysql_stmt_errno(s->handle);
    if (err == ER_UNSUPPORTED_PS) {
      log_text(LOG_INFO, "Failed to prepare query \"%.*s\" (%u: %s), using emulation",
               (int) len, query, err, mysql_stmt_error(s->handle));
      mysql_stmt_close(s->handle);
      free(s);
      return 1;
    }
    driver_error_class cls = mysqldrv_failure_class(con, err, mysql_stmt_sqlstate(s->handle));
    if (cls == DRIVER_ERROR_FATAL) {
      /* 1.0.20's two lines; the script then gets its "SQL API error" */
      log_text(LOG_FATAL, "mysql_stmt_prepare() failed");
      log_text(LOG_FATAL, "MySQL error: %u \"%s\"", err, mysql_stmt_error(s->handle));
      db_set_api_error(con);
    } else {
      mysqldrv_fail_as(con, cls, err, mysql_stmt_sqlstate(s->handle),
                       mysql_stmt_error(s->handle));
    }
    mysql_stmt_close(s->handle);
    free(s);
    return -1;
  }
  if (remember_columns(s) != 0) {
    mysql_stmt_close(s->handle);
    free(s);
    return -1;
  }
  /* a statement without parameters is complete now; others once their types are bound */
  s->wire_ok = mysql_stmt_param_count(s->handle) == 0 && wire_capable(stmt, s, NULL, 0);
  stmt->ptr = s;
  return 0;
}

int mysqldrv_bind_param(db_stmt *stmt, db_bind_t *params, size_t count)
{
  if (mysqldrv_config.dry_run)
    return 0;
  mysqldrv_stmt *s = stmt->ptr;
  if (s == NULL)
    return 1;
  /* db.c holds the new values already: until they are bound, the wire path (which sends
     db.c's values) must not run this statement */
  s->wire_ok = false;
  unsigned long expected = mysql_stmt_param_count(s->handle);
  if (expected != count) {
    log_text(LOG_FATAL, "Wrong number of parameters to mysql_stmt_bind_param");
    log_hint("%zu bound for \"%s\", which has %lu", count, stmt->query,
             expected);
    return 1;
  }
  MYSQL_BIND *binds = convert_binds(params, count);
  if (binds == NULL)
    return 1;
  my_bool rc = mysql_stmt_bind_param(s->handle, binds);
  MYSQLDRV_TRACE("mysql_stmt_bind_param(%p, %p) = %d", (void *) s->handle, (void *) binds,
                 (int) rc);
  free(binds);
  if (rc) {
    log_text(LOG_FATAL, "mysql_stmt_bind_param() failed: error %u: %s",
             mysql_stmt_errno(s->handle), mysql_stmt_error(s->handle));
    return 1;
  }
  s->wire_ok = wire_capable(stmt, s, params, count);
  return 0;
}

int mysqldrv_bind_result(db_stmt *stmt, db_bind_t *results, size_t count)
{
  if (mysqldrv_config.dry_run)
    return 0;
  mysqldrv_stmt *s = stmt->ptr;
  if (s == NULL)
    return 1;
  MYSQL_BIND *binds = convert_binds(results, count);
  if (binds == NULL)
    return 1;
  my_bool rc = mysql_stmt_bind_result(s->handle, binds);
  MYSQLDRV_TRACE("mysql_stmt_bind_result(%p, %p) = %d", (void *) s->handle, (void *) binds,
                 (int) rc);
  free(binds);
  s->user_results_bound = rc == 0;
  if (s->user_results_bound)
    s->wire_ok = false;        /* rows must land in the script's buffers: the library's job */
  return rc != 0;
}

driver_error_class mysqldrv_execute(db_stmt *stmt, db_result *rs)
{
  if (mysqldrv_config.dry_run)
    return DRIVER_ERROR_NONE;
  db_conn *con = stmt->connection;
  mysqldrv_stmt *s = stmt->ptr;
  MYSQL *m = mysqldrv_handle(con);
  if (m == NULL || s == NULL)
    return mysqldrv_fail_disconnected(con);
  mysqldrv_doing(con, "mysql_stmt_execute()", stmt->query, stmt->query_len);
  driver_error_class wire_rc;
  if (mysqldrv_wire_ready(con->ptr, s) && mysqldrv_wire_execute(stmt, rs, &wire_rc) == 0)
    return wire_rc;
  if (mysql_more_results(m))
    mysqldrv_drain_results(m);
  MYSQL_STMT *h = s->handle;

  int rc = mysql_stmt_execute(h);
  MYSQLDRV_TRACE("mysql_stmt_execute(%p) = %d", (void *) h, rc);
  if (rc != 0)
    return fail_statement(con, h);

  unsigned fields = mysql_stmt_field_count(h);
  if (fields == 0) {
    my_ulonglong affected = mysql_stmt_affected_rows(h);
    rs->nrows = (uint32_t) affected;
    rs->stat_type = affected > 0 && affected != (my_ulonglong) -1 ? SB_CNT_WRITE
                                                                  : SB_CNT_OTHER;
    return DRIVER_ERROR_NONE;
  }
  rc = mysql_stmt_store_result(h);
  MYSQLDRV_TRACE("mysql_stmt_store_result(%p) = %d", (void *) h, rc);
  if (rc != 0)
    return fail_statement(con, h);
  rs->stat_type = SB_CNT_READ;
  rs->nrows = (uint32_t) mysql_stmt_num_rows(h);
  rs->nfields = fields;
  return DRIVER_ERROR_NONE;
}

int mysqldrv_stmt_fetch(db_result *rs)
{
  if (mysqldrv_config.dry_run)
    return 1;
  mysqldrv_stmt *s = rs->statement != NULL ? rs->statement->ptr : NULL;
  if (s == NULL)
    return -1;
  int rc = mysql_stmt_fetch(s->handle);
  if (rc == MYSQL_NO_DATA)
    return 1;
  return rc == 0 || rc == MYSQL_DATA_TRUNCATED ? 0 : -1;
}

static int bind_row_buffers(mysqldrv_stmt *s, uint32_t fields)
{
  if (s->row_binds == NULL || s->row_fields != fields) {
    free_row_binds(s);
    s->row_binds = calloc(fields, sizeof(MYSQL_BIND));
    s->row_buffers = calloc(fields, sizeof(char *));
    s->row_lengths = calloc(fields, sizeof(unsigned long));
    s->row_nulls = calloc(fields, sizeof(my_bool));
    s->row_errors = calloc(fields, sizeof(my_bool));
    s->row_fields = fields;
    if (s->row_binds == NULL || s->row_buffers == NULL || s->row_lengths == NULL ||
        s->row_nulls == NULL || s->row_errors == NULL)
      return -1;
    for (uint32_t i = 0; i < fields; i++) {
      s->row_buffers[i] = malloc(ROW_BUFFER_START);
      if (s->row_buffers[i] == NULL)
        return -1;
      s->row_binds[i].buffer_type = MYSQL_TYPE_STRING;
      s->row_binds[i].buffer = s->row_buffers[i];
      s->row_binds[i].buffer_length = ROW_BUFFER_START;
      s->row_binds[i].length = &s->row_lengths[i];
      s->row_binds[i].is_null = &s->row_nulls[i];
      s->row_binds[i].error = &s->row_errors[i];
    }
  }
  s->user_results_bound = false;
  return mysql_stmt_bind_result(s->handle, s->row_binds) ? -1 : 0;
}

/* Columns cut short by the buffer size: grow the buffers and fetch those columns again. */
static int refetch_truncated(mysqldrv_stmt *s)
{
  for (uint32_t i = 0; i < s->row_fields; i++) {
    if (!s->row_errors[i] || s->row_nulls[i])
      continue;
    size_t need = s->row_lengths[i] + 1;
    char *grown = realloc(s->row_buffers[i], need);
    if (grown == NULL)
      return -1;
    s->row_buffers[i] = grown;
    s->row_binds[i].buffer = grown;
    s->row_binds[i].buffer_length = need;
    if (mysql_stmt_fetch_column(s->handle, &s->row_binds[i], i, 0) != 0)
      return -1;
  }
  /* the library copied the old buffer pointers: bind the grown ones for the next rows */
  return mysql_stmt_bind_result(s->handle, s->row_binds) ? -1 : 0;
}

int mysqldrv_stmt_fetch_row(db_result *rs, db_row_t *row)
{
  if (mysqldrv_config.dry_run)
    return 1;
  mysqldrv_stmt *s = rs->statement->ptr;
  if (s == NULL)
    return -1;
  if (s->wire_result)
    return mysqldrv_binary_row_fetch(rs, row);
  if ((s->row_binds == NULL || s->user_results_bound || s->row_fields != rs->nfields) &&
      bind_row_buffers(s, rs->nfields) != 0)
    return -1;

  int rc = mysql_stmt_fetch(s->handle);
  if (rc == MYSQL_NO_DATA)
    return 1;
  if (rc == MYSQL_DATA_TRUNCATED)
    rc = refetch_truncated(s);
  if (rc != 0)
    return -1;
  for (uint32_t i = 0; i < rs->nfields; i++) {
    row->values[i].ptr = s->row_nulls[i] ? NULL : s->row_buffers[i];
    row->values[i].len = s->row_nulls[i] ? 0 : (uint32_t) s->row_lengths[i];
  }
  return 0;
}

int mysqldrv_stmt_free_result(db_stmt *stmt)
{
  mysqldrv_stmt *s = stmt->ptr;
  if (s == NULL)
    return 0;
  if (s->wire_result) {
    s->wire_result = false;
    mysqldrv_wire_free_result(stmt->connection->ptr);
    return 0;
  }
  MYSQLDRV_TRACE("mysql_stmt_free_result(%p)", (void *) s->handle);
  return mysql_stmt_free_result(s->handle) ? -1 : 0;
}

int mysqldrv_close(db_stmt *stmt)
{
  if (mysqldrv_config.dry_run)
    return 0;
  mysqldrv_stmt *s = stmt->ptr;
  if (s == NULL)
    return 0;
  MYSQLDRV_TRACE("mysql_stmt_close(%p)", (void *) s->handle);
  my_bool rc = mysql_stmt_close(s->handle);
  free_row_binds(s);
  free(s->columns);
  free(s);
  stmt->ptr = NULL;
  return rc ? 1 : 0;
}
