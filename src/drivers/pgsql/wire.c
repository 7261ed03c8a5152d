/*
 * wire.c: prepared statements executed with PostgreSQL's extended query protocol directly on
 * the connection's socket.
 *
 * A benchmark client spends most of its time waiting, and on a machine it shares with the
 * server, what it spends otherwise is taken from the server. libpq's PQexecPrepared() sends
 * Bind, Describe, Execute and Sync, then waits in poll() before each recv() on its
 * non-blocking socket, and builds a PGresult (several allocations) for every answer: three
 * system calls and a RowDescription per statement. This file sends Bind, Execute and Sync
 * with one send() on a socket it puts in blocking mode, reads the answer with one recv() in
 * the common case into a buffer the connection keeps, and counts the rows; fetch_row()
 * reads a row's values in place when a script asks. The result's column count comes from
 * one Describe when the statement is prepared.
 *
 * libpq still connects, prepares, runs text queries and closes: before each of those the
 * socket goes back to non-blocking mode (pgsqldrv_wire_release), and each exchange here
 * ends at the server's ReadyForQuery, where libpq expects the connection. Not used on TLS or
 * GSSAPI-encrypted connections; SYSBENCH_PGSQL_LIBRARY_IO=1 turns it off.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <libpq-fe.h>

#include "drivers/pgsql/errors.h"
#include "drivers/pgsql/state.h"
#include "drivers/pgsql/wire.h"
#include "logger.h"

#define IN_BUFFER_START 16384
#define OUT_BUFFER_START 1024

/* ---------------------------------------------------------------------------------------- */
/* The socket                                                                               */
/* ---------------------------------------------------------------------------------------- */

void pgsqldrv_wire_attach(pgsqldrv_conn *c)
{
  pgsqldrv_wire *w = &c->wire;
  const char *off = getenv("SYSBENCH_PGSQL_LIBRARY_IO");

  w->fd = -1;
  w->blocking = false;
  w->used_last = false;
  w->transaction = 'I';
  w->in_len = w->in_pos = 0;
  w->row_count = 0;
  if (c->pg == NULL || (off != NULL && *off != '\0' && strcmp(off, "0") != 0) ||
      PQsslInUse(c->pg) || PQgssEncInUse(c->pg))
    return;
  w->fd = PQsocket(c->pg);
}

void pgsqldrv_wire_detach(pgsqldrv_conn *c)
{
  pgsqldrv_wire *w = &c->wire;
  pgsqldrv_wire_release(c);
  free(w->in);
  free(w->out);
  free(w->rows);
  memset(w, 0, sizeof(*w));
  w->fd = -1;
  w->transaction = 'I';
}

static void set_blocking(pgsqldrv_wire *w, bool blocking)
{
  int flags = fcntl(w->fd, F_GETFL);
  if (flags >= 0)
    fcntl(w->fd, F_SETFL, blocking ? flags & ~O_NONBLOCK : flags | O_NONBLOCK);
  w->blocking = blocking;
}

void pgsqldrv_wire_release(pgsqldrv_conn *c)
{
  pgsqldrv_wire *w = &c->wire;
  w->used_last = false;
  if (w->fd >= 0 && w->blocking)
    set_blocking(w, false);
}

static int reserve(unsigned char **buf, size_t *cap, size_t need, size_t start)
{
  if (need <= *cap)
    return 0;
  size_t grown_cap = *cap ? *cap : start;
  while (grown_cap < need)
    grown_cap *= 2;
  unsigned char *grown = realloc(*buf, grown_cap);
  if (grown == NULL)
    return -1;
  *buf = grown;
  *cap = grown_cap;
  return 0;
}

static int send_all(int fd, const unsigned char *p, size_t len)
{
  while (len > 0) {
    ssize_t r = send(fd, p, len, MSG_NOSIGNAL);
    if (r < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    p += r;
    len -= (size_t) r;
  }
  return 0;
}

/* Read at least one more byte of the response into w->in; -1 when the connection is gone. */
static int read_more(pgsqldrv_wire *w, size_t need)
{
  if (reserve(&w->in, &w->in_cap, need > w->in_len + 4096 ? need : w->in_len + 4096,
              IN_BUFFER_START) != 0)
    return -1;
  for (;;) {
    ssize_t r = recv(w->fd, w->in + w->in_len, w->in_cap - w->in_len, 0);
    if (r > 0) {
      w->in_len += (size_t) r;
      return 0;
    }
    if (r < 0 && errno == EINTR)
      continue;
    return -1;
  }
}

/* ---------------------------------------------------------------------------------------- */
/* The request: Bind (the bound values in binary), Execute, Sync                            */
/* ---------------------------------------------------------------------------------------- */

static unsigned char *put16(unsigned char *p, uint16_t v)
{
  p[0] = (unsigned char) (v >> 8);
  p[1] = (unsigned char) v;
  return p + 2;
}

static unsigned char *put32(unsigned char *p, uint32_t v)
{
  p[0] = (unsigned char) (v >> 24);
  p[1] = (unsigned char) (v >> 16);
  p[2] = (unsigned char) (v >> 8);
  p[3] = (unsigned char) v;
  return p + 4;
}

static unsigned char *put64(unsigned char *p, uint64_t v)
{
  p = put32(p, (uint32_t) (v >> 32));
  return put32(p, (uint32_t) v);
}

static uint32_t get32(const unsigned char *p)
{
  return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3];
}

static uint16_t get16(const unsigned char *p)
{
  return (uint16_t) (p[0] << 8 | p[1]);
}

/* Bytes a parameter's value takes in the Bind message (without its length word). */
static size_t value_size(const db_bind_t *p)
{
  if (p->is_null != NULL && *p->is_null)
    return 0;
  switch (p->type) {
    case DB_TYPE_BIGINT:
    case DB_TYPE_DOUBLE:   return 8;
    case DB_TYPE_INT:
    case DB_TYPE_FLOAT:    return 4;
    case DB_TYPE_SMALLINT:
    case DB_TYPE_TINYINT:  return 2;
    default: {
      unsigned long len = p->data_len != NULL ? *p->data_len : 0;
      return len > p->max_len ? p->max_len : len;
    }
  }
}

/* One parameter: its length word and its value, in the format (binary for numbers and
   strings; text for the types the Lua API cannot bind) statement.c prepared it with. */
static unsigned char *put_value(unsigned char *p, const db_bind_t *b)
{
  if (b->is_null != NULL && *b->is_null)
    return put32(p, 0xffffffffu);
  switch (b->type) {
    case DB_TYPE_BIGINT:
      p = put32(p, 8);
      return put64(p, (uint64_t) *(const int64_t *) b->buffer);
    case DB_TYPE_DOUBLE: {
      uint64_t bits;
      memcpy(&bits, b->buffer, 8);
      p = put32(p, 8);
      return put64(p, bits);
    }
    case DB_TYPE_INT:
      p = put32(p, 4);
      return put32(p, (uint32_t) *(const int32_t *) b->buffer);
    case DB_TYPE_FLOAT: {
      uint32_t bits;
      memcpy(&bits, b->buffer, 4);
      p = put32(p, 4);
      return put32(p, bits);
    }
    case DB_TYPE_SMALLINT:
      p = put32(p, 2);
      return put16(p, (uint16_t) *(const int16_t *) b->buffer);
    case DB_TYPE_TINYINT:
      p = put32(p, 2);
      return put16(p, (uint16_t) (int16_t) *(const int8_t *) b->buffer);
    default: {
      size_t len = value_size(b);
      p = put32(p, (uint32_t) len);
      memcpy(p, b->buffer, len);
      return p + len;
    }
  }
}

/* The request into w->out; its length, or 0 when out of memory. */
static size_t build_request(pgsqldrv_wire *w, const db_stmt *stmt, const pgsqldrv_stmt *s)
{
  size_t name_len = strlen(s->name);
  size_t n = (size_t) s->nparams;
  size_t bind_len = 4 + 1 + name_len + 1 + 2 + 2 * n + 2 + 2;
  for (size_t i = 0; i < n; i++)
    bind_len += 4 + value_size(&stmt->params[i]);
  size_t total = 1 + bind_len + 1 + 9 + 1 + 4;
  if (reserve(&w->out, &w->out_cap, total, OUT_BUFFER_START) != 0)
    return 0;

  unsigned char *p = w->out;
  *p++ = 'B';
  p = put32(p, (uint32_t) bind_len);
  *p++ = '\0';                                       /* the unnamed portal */
  memcpy(p, s->name, name_len + 1);
  p += name_len + 1;
  p = put16(p, (uint16_t) n);
  for (size_t i = 0; i < n; i++)
    p = put16(p, s->types[i] != 0 ? 1 : 0);        /* the types statement.c prepared */
  p = put16(p, (uint16_t) n);
  for (size_t i = 0; i < n; i++)
    p = put_value(p, &stmt->params[i]);
  p = put16(p, 0);                                   /* every column as text */

  *p++ = 'E';
  p = put32(p, 9);
  *p++ = '\0';
  p = put32(p, 0);                                   /* all rows */

  *p++ = 'S';
  p = put32(p, 4);
  return (size_t) (p - w->out);
}

/* ---------------------------------------------------------------------------------------- */
/* The response                                                                             */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
  bool error;                  /* an ErrorResponse came */
  bool lost;                   /* the connection ended (or spoke nonsense) */
  bool copy;                   /* the statement started a COPY: not for the SQL API */
  bool empty;                  /* an empty statement: neither is it */
  unsigned long rows_affected; /* from CommandComplete */
  char state[6];
  char message[512];
} response;

/* ErrorResponse fields: C (SQLSTATE), M (message), V (severity, not translated). */
static void read_error(response *r, const unsigned char *p, size_t len)
{
  const unsigned char *end = p + len;
  r->error = true;
  while (p < end && *p != '\0') {
    char field = (char) *p++;
    const unsigned char *value = p;
    while (p < end && *p != '\0')
      p++;
    size_t value_len = (size_t) (p - value);
    if (field == 'C')
      snprintf(r->state, sizeof(r->state), "%.*s", (int) value_len, (const char *) value);
    else if (field == 'M')
      snprintf(r->message, sizeof(r->message), "%.*s", (int) value_len, (const char *) value);
    else if (field == 'V' && ((value_len == 5 && memcmp(value, "FATAL", 5) == 0) ||
                              (value_len == 5 && memcmp(value, "PANIC", 5) == 0)))
      r->lost = true;           /* the server ends the session after it */
    p++;
  }
}

/* A NoticeResponse under --db-debug, as libpq's notice processor shows it (connection.c). */
static void log_notice(const unsigned char *p, size_t len)
{
  const unsigned char *end = p + len;
  const char *severity = "NOTICE";
  size_t severity_len = 6;
  while (p < end && *p != '\0') {
    char field = (char) *p++;
    const unsigned char *value = p;
    while (p < end && *p != '\0')
      p++;
    if (field == 'S') {
      severity = (const char *) value;
      severity_len = (size_t) (p - value);
    } else if (field == 'M') {
      log_text(LOG_DEBUG, "server notice: %.*s:  %.*s", (int) severity_len, severity,
               (int) (p - value), (const char *) value);
      return;
    }
    p++;
  }
}

/* The row count at the end of a CommandComplete tag ("UPDATE 3", "INSERT 0 1"). */
static unsigned long tag_rows(const unsigned char *p, size_t len)
{
  const char *tag = (const char *) p;
  size_t end = strnlen(tag, len);
  size_t start = end;
  while (start > 0 && tag[start - 1] >= '0' && tag[start - 1] <= '9')
    start--;
  if (start == end || start == 0 || tag[start - 1] != ' ')
    return 0;
  return strtoul(tag + start, NULL, 10);
}

static int remember_row(pgsqldrv_wire *w, size_t offset)
{
  if (w->row_count == w->row_cap) {
    size_t cap = w->row_cap ? 2 * w->row_cap : 64;
    uint32_t *grown = realloc(w->rows, cap * sizeof(uint32_t));
    if (grown == NULL)
      return -1;
    w->rows = grown;
    w->row_cap = cap;
  }
  w->rows[w->row_count++] = (uint32_t) offset;
  return 0;
}

/* Read messages up to ReadyForQuery. */
static void read_response(pgsqldrv_wire *w, response *r)
{
  for (;;) {
    if (w->in_len - w->in_pos < 5 && read_more(w, w->in_pos + 5) != 0) {
      r->lost = true;
      return;
    }
    const unsigned char *head = w->in + w->in_pos;
    char type = (char) head[0];
    uint32_t len = get32(head + 1);
    if (len < 4 || len > 0x40000000u) {
      r->lost = true;           /* not the protocol we speak: stop using this connection */
      return;
    }
    size_t total = 1 + (size_t) len;
    while (w->in_len - w->in_pos < total) {
      if (read_more(w, w->in_pos + total) != 0) {
        r->lost = true;
        return;
      }
    }
    size_t payload = w->in_pos + 5, payload_len = len - 4;
    w->in_pos += total;
    switch (type) {
      case 'D':
        if (remember_row(w, payload) != 0) {
          r->lost = true;
          return;
        }
        break;
      case 'C':
        r->rows_affected = tag_rows(w->in + payload, payload_len);
        break;
      case 'I':
        r->empty = true;
        break;
      case 'N':
        if (db_debug_enabled())
          log_notice(w->in + payload, payload_len);
        break;
      case 'E':
        read_error(r, w->in + payload, payload_len);
        break;
      case 'G': {
        /* COPY FROM STDIN: refuse it; the server answers with an error, then ReadyForQuery */
        static const char why[] = "COPY FROM STDIN is not supported by the SQL API";
        unsigned char fail[5 + sizeof(why)];
        fail[0] = 'f';
        put32(fail + 1, (uint32_t) (4 + sizeof(why)));
        memcpy(fail + 5, why, sizeof(why));
        r->copy = true;
        if (send_all(w->fd, fail, sizeof(fail)) != 0) {
          r->lost = true;
          return;
        }
        break;
      }
      case 'H':
      case 'W':
        r->copy = true;
        break;
      case 'Z':
        w->transaction = payload_len > 0 ? (char) w->in[payload] : 'I';
        return;
      default:
        /* BindComplete, notices, parameter changes, notifications, COPY data */
        break;
    }
  }
}

/* ---------------------------------------------------------------------------------------- */
/* Execute, fetch, free                                                                     */
/* ---------------------------------------------------------------------------------------- */

int pgsqldrv_wire_execute(db_stmt *stmt, db_result *rs, driver_error_class *rc)
{
  db_conn *con = stmt->connection;
  pgsqldrv_conn *c = con->ptr;
  pgsqldrv_wire *w = &c->wire;
  const pgsqldrv_stmt *s = stmt->ptr;

  if (w->fd < 0 || s->nfields < 0 || stmt->param_count != (size_t) s->nparams)
    return 1;
  if (!w->blocking)
    set_blocking(w, true);
  w->used_last = true;

  /* bytes after the last ReadyForQuery (a notice, a notification) go first */
  if (w->in_pos < w->in_len) {
    memmove(w->in, w->in + w->in_pos, w->in_len - w->in_pos);
    w->in_len -= w->in_pos;
  } else {
    w->in_len = 0;
  }
  w->in_pos = 0;
  w->row_count = 0;

  response r;
  memset(&r, 0, sizeof(r));
  size_t len = build_request(w, stmt, s);
  if (len == 0)
    return 1;
  /* A send that fails finds the server gone: what it said before it went (57P01 after
     pg_terminate_backend) may still be there to read. */
  if (send_all(w->fd, w->out, len) != 0) {
    read_response(w, &r);
    r.lost = true;
  } else {
    read_response(w, &r);
  }

  if (r.lost || r.error) {
    pgsqldrv_failure how = {"PQexecPrepared", NULL, 0, false};
    pgsqldrv_error e = {
      .state = r.error && r.state[0] ? r.state : NULL,
      .message = r.error ? r.message : "server closed the connection unexpectedly",
      .full = NULL,
      .status = (int) PGRES_FATAL_ERROR,
      .lost = r.lost,
    };
    if (r.lost) {
      /* libpq finds the connection dead on its next call; this path no longer uses it */
      pgsqldrv_wire_release(c);
      w->fd = -1;
    }
    w->row_count = 0;
    *rc = pgsqldrv_fail_with(con, &e, &how);
    return 0;
  }
  if (r.copy || r.empty) {
    w->row_count = 0;
    db_set_api_error(con);
    *rc = DRIVER_ERROR_FATAL;
    return 0;
  }
  if (s->nfields > 0) {
    rs->ptr = w;
    rs->stat_type = SB_CNT_READ;
    rs->nrows = (uint32_t) w->row_count;
    rs->nfields = (uint32_t) s->nfields;
  } else {
    w->row_count = 0;
    rs->nrows = (uint32_t) r.rows_affected;
    rs->stat_type = r.rows_affected > 0 ? SB_CNT_WRITE : SB_CNT_OTHER;
  }
  *rc = DRIVER_ERROR_NONE;
  return 0;
}

int pgsqldrv_wire_fetch_row(pgsqldrv_conn *c, db_result *rs, db_row_t *row)
{
  pgsqldrv_wire *w = &c->wire;
  if (rs->rows_fetched >= w->row_count)
    return 1;
  const unsigned char *p = w->in + w->rows[rs->rows_fetched];
  uint16_t columns = get16(p);
  p += 2;
  for (uint32_t i = 0; i < rs->nfields; i++) {
    if (i >= columns) {
      row->values[i].ptr = NULL;
      row->values[i].len = 0;
      continue;
    }
    uint32_t len = get32(p);
    p += 4;
    if (len == 0xffffffffu) {
      row->values[i].ptr = NULL;
      row->values[i].len = 0;
    } else {
      row->values[i].ptr = (const char *) p;
      row->values[i].len = len;
      p += len;
    }
  }
  row->ptr = (void *) w;
  return 0;
}

void pgsqldrv_wire_free_result(pgsqldrv_conn *c)
{
  c->wire.row_count = 0;
}
