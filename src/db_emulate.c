/*
 * db_emulate.c: builds the text of a client-side prepared statement. Placeholders inside
 * quoted strings, quoted identifiers and comments are left alone; every other '?' takes the
 * next bound parameter. The text is built in a buffer kept by the statement, so executing it
 * again allocates nothing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_emulate.h"

size_t db_escape_generic(char *dst, const char *src, size_t len)
{
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    char c = src[i];
    switch (c) {
      case '\'': dst[n++] = '\''; dst[n++] = '\''; break;
      case '\\': dst[n++] = '\\'; dst[n++] = '\\'; break;
      case '\0': dst[n++] = '\\'; dst[n++] = '0'; break;
      default: dst[n++] = c; break;
    }
  }
  dst[n] = '\0';
  return n;
}

static int reserve(db_stmt *stmt, size_t need)
{
  if (need <= stmt->emulation_capacity)
    return 0;
  size_t capacity = stmt->emulation_capacity ? stmt->emulation_capacity : 256;
  while (capacity < need)
    capacity *= 2;
  char *grown = realloc(stmt->emulation_buffer, capacity);
  if (grown == NULL)
    return -1;
  stmt->emulation_buffer = grown;
  stmt->emulation_capacity = capacity;
  return 0;
}

/* Append one parameter's SQL literal at *used. */
static int append_value(db_stmt *stmt, size_t *used, const db_bind_t *p)
{
  char number[64];
  int n = -1;

  if (p->is_null != NULL && *p->is_null) {
    n = snprintf(number, sizeof(number), "NULL");
  } else {
    switch (p->type) {
      case DB_TYPE_TINYINT:  n = snprintf(number, sizeof(number), "%d", *(int8_t *) p->buffer); break;
      case DB_TYPE_SMALLINT: n = snprintf(number, sizeof(number), "%d", *(int16_t *) p->buffer); break;
      case DB_TYPE_INT:      n = snprintf(number, sizeof(number), "%" PRId32, *(int32_t *) p->buffer); break;
      case DB_TYPE_BIGINT:   n = snprintf(number, sizeof(number), "%" PRId64, *(int64_t *) p->buffer); break;
      case DB_TYPE_FLOAT:    n = snprintf(number, sizeof(number), "%.9g", (double) *(float *) p->buffer); break;
      case DB_TYPE_DOUBLE:   n = snprintf(number, sizeof(number), "%.17g", *(double *) p->buffer); break;
      case DB_TYPE_CHAR:
      case DB_TYPE_VARCHAR: {
        size_t len = p->data_len != NULL ? *p->data_len : 0;
        if (len > p->max_len)
          len = p->max_len;
        if (reserve(stmt, *used + 2 * len + 3) != 0)
          return -1;
        char *out = stmt->emulation_buffer + *used;
        const db_driver_ops *ops = stmt->connection->driver->def->ops;
        *out++ = '\'';
        size_t escaped = ops->escape != NULL
            ? ops->escape(stmt->connection, out, p->buffer, len)
            : db_escape_generic(out, p->buffer, len);
        out[escaped] = '\'';
        *used += escaped + 2;
        return 0;
      }
      default:
        return -1;            /* dates and times are not bindable through the Lua API either */
    }
  }
  if (n < 0 || reserve(stmt, *used + (size_t) n + 1) != 0)
    return -1;
  memcpy(stmt->emulation_buffer + *used, number, (size_t) n);
  *used += (size_t) n;
  return 0;
}

const char *db_emulate_statement(db_stmt *stmt, size_t *len)
{
  const char *q = stmt->query;
  size_t used = 0, next_param = 0;
  char quote = 0;

  if (reserve(stmt, stmt->query_len + 1) != 0)
    return NULL;
  for (size_t i = 0; i < stmt->query_len; i++) {
    char c = q[i];
    if (quote) {
      if (c == '\\' && quote != '`' && i + 1 < stmt->query_len) {
        if (reserve(stmt, used + 3) != 0)
          return NULL;
        stmt->emulation_buffer[used++] = c;
        stmt->emulation_buffer[used++] = q[++i];
        continue;
      }
      if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"' || c == '`') {
      quote = c;
    } else if (c == '?') {
      if (next_param >= stmt->param_count)
        return NULL;          /* more placeholders than bound parameters */
      if (append_value(stmt, &used, &stmt->params[next_param++]) != 0)
        return NULL;
      continue;
    }
    if (reserve(stmt, used + 2) != 0)
      return NULL;
    stmt->emulation_buffer[used++] = c;
  }
  stmt->emulation_buffer[used] = '\0';
  *len = used;
  return stmt->emulation_buffer;
}
