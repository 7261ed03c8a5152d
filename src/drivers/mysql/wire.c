/*
 * wire.c: prepared statements executed with the MySQL binary protocol directly on the
 * connection's socket.
 *
 * A benchmark client spends most of its time waiting; what it does between two waits runs
 * with caches cold from the server's turn on the CPU. The client library's execute, store
 * and free of a point select touch a lot of code and memory for that (about 2 us of user CPU
 * per query here). This file does the same protocol exchange with one send(), one recv() in
 * the common case, and buffers reused for the connection's life: the COM_STMT_EXECUTE request
 * is built from the bound values, the response is read into one buffer, rows are only
 * located (binary_row.c turns one into text when a script fetches it).
 *
 * It is used only between two of the client library's own commands, on plain connections
 * whose socket the library leaves idle (mysqldrv_wire_ready), for statements whose parameters
 * are the Lua API's types (BIGINT, DOUBLE, strings); everything else, and the connect,
 * prepare, text queries and close, stays the library's. The library's handle learns the
 * server status of each response, so what it does next (escaping under NO_BACKSLASH_ESCAPES,
 * more_results) stays right. SYSBENCH_MYSQL_LIBRARY_IO=1 turns this path off.
 */
#include <assert.h>
#include <errmsg.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "drivers/mysql/errors.h"
#include "drivers/mysql/packet.h"
#include "drivers/mysql/socket_io.h"
#include "drivers/mysql/state.h"
#include "drivers/mysql/wire.h"

/* The protocol is little-endian; numbers are copied as they are in memory. */
#if defined(MARIADB_PACKAGE_VERSION_ID) && defined(HAVE_MA_PVIO_H) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__

#define COM_STMT_EXECUTE_CODE 0x17
#define MAX_PACKET 0xffffffu
#define IN_BUFFER_START 16384

/* ---------------------------------------------------------------------------------------- */
/* Buffers and packets                                                                       */
/* ---------------------------------------------------------------------------------------- */

/* CLIENT_DEPRECATE_EOF: results end with OK packets instead of EOF ones. Connector/C 3.x does
   not ask for it; should a later one, this path steps aside rather than misread results. */
#define DEPRECATE_EOF_FLAG (1UL << 24)

void mysqldrv_wire_attach(mysqldrv_conn *c)
{
  mysqldrv_wire *w = &c->wire;
  w->fd = -1;
  if (c->mysql == NULL || c->mysql->net.compress ||
      (c->mysql->client_flag & c->mysql->server_capabilities & DEPRECATE_EOF_FLAG) ||
      !mysqldrv_socket_io_attach(c->mysql))
    return;
  w->fd = (int) mysql_get_socket(c->mysql);
  w->in_len = w->in_pos = 0;
  w->row_count = w->row_next = 0;
}

void mysqldrv_wire_detach(mysqldrv_conn *c)
{
  mysqldrv_wire *w = &c->wire;
  free(w->in);
  free(w->out);
  free(w->rows);
  free(w->text);
  memset(w, 0, sizeof(*w));
  w->fd = -1;
}

bool mysqldrv_wire_ready(mysqldrv_conn *c, mysqldrv_stmt *s)
{
  MYSQL *m = c->mysql;
  return c->wire.fd >= 0 && s->wire_ok && m->status == MYSQL_STATUS_READY &&
         !(m->server_status & SERVER_MORE_RESULTS_EXIST) && mysqldrv_socket_io_idle(m);
}

static int reserve(unsigned char **buf, size_t *cap, size_t need)
{
  if (need <= *cap)
    return 0;
  size_t grown = *cap ? *cap : IN_BUFFER_START;
  while (grown < need)
    grown *= 2;
  unsigned char *p = realloc(*buf, grown);
  if (p == NULL)
    return -1;
  *buf = p;
  *cap = grown;
  return 0;
}

/* Receive at least `need` more bytes than are buffered past in_pos. -1: connection lost. */
static int fill(mysqldrv_wire *w, size_t need)
{
  while (w->in_len - w->in_pos < need) {
    size_t want = w->in_pos + need;
    if (reserve(&w->in, &w->in_cap, want < w->in_len + 4096 ? w->in_len + 4096 : want) != 0)
      return -1;
    ssize_t r;
    do
      r = recv(w->fd, w->in + w->in_len, w->in_cap - w->in_len, 0);
    while (r < 0 && errno == EINTR);
    if (r <= 0)
      return -1;
    w->in_len += (size_t) r;
  }
  return 0;
}

/* The next packet's payload (joined in place when it spans several 16 MiB packets):
   offset into w->in and length. -1: connection lost or out of memory. */
static int next_packet(mysqldrv_wire *w, size_t *offset, size_t *length)
{
  if (fill(w, 4) != 0)
    return -1;
  size_t start = w->in_pos + 4, len = mysqldrv_get3(w->in + w->in_pos), chunk = len;
  if (fill(w, 4 + len) != 0)
    return -1;
  w->in_pos = start + len;
  while (chunk == MAX_PACKET) {
    /* the next packet continues this one: move its payload over its header */
    if (fill(w, 4) != 0)
      return -1;
    chunk = mysqldrv_get3(w->in + w->in_pos);
    if (fill(w, 4 + chunk) != 0)
      return -1;
    memmove(w->in + w->in_pos, w->in + w->in_pos + 4, w->in_len - w->in_pos - 4);
    w->in_len -= 4;
    w->in_pos += chunk;
    len += chunk;
  }
  *offset = start;
  *length = len;
  return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Errors                                                                                    */
/* ---------------------------------------------------------------------------------------- */

/* The connection broke under us: the client library's handle is unusable, as after its own
   lost connection (the reconnect, if any, replaces it). */
static driver_error_class lost(db_conn *con, bool sending)
{
  mysqldrv_conn *c = con->ptr;
  c->wire.fd = -1;
  if (sending)
    return mysqldrv_fail_disconnected(con);
  return mysqldrv_fail(con, CR_SERVER_LOST, "HY000", "Lost connection to server during query");
}

static driver_error_class malformed(db_conn *con)
{
  mysqldrv_conn *c = con->ptr;
  c->wire.fd = -1;     /* the stream is out of step: leave it to the library (and its errors) */
  return mysqldrv_fail(con, CR_MALFORMED_PACKET, "HY000", "Malformed packet");
}

/* An ERR packet: 0xff, errno, '#', SQLSTATE, message. */
static driver_error_class server_error(db_conn *con, const unsigned char *p, size_t len)
{
  char state[6] = "HY000", message[MYSQL_ERRMSG_SIZE];
  if (len < 3)
    return malformed(con);
  unsigned sql_errno = mysqldrv_get2(p + 1);
  size_t at = 3;
  if (len >= 9 && p[3] == '#') {
    memcpy(state, p + 4, 5);
    at = 9;
  }
  size_t n = len - at < sizeof(message) - 1 ? len - at : sizeof(message) - 1;
  memcpy(message, p + at, n);
  message[n] = '\0';
  return mysqldrv_fail(con, sql_errno, state, message);
}

/* ---------------------------------------------------------------------------------------- */
/* The request                                                                               */
/* ---------------------------------------------------------------------------------------- */

static unsigned char *put_lenenc(unsigned char *p, uint64_t v)
{
  if (v < 251) {
    *p++ = (unsigned char) v;
  } else if (v < 65536) {
    *p++ = 0xfc;
    *p++ = (unsigned char) v;
    *p++ = (unsigned char) (v >> 8);
  } else if (v < 16777216) {
    *p++ = 0xfd;
    *p++ = (unsigned char) v;
    *p++ = (unsigned char) (v >> 8);
    *p++ = (unsigned char) (v >> 16);
  } else {
    *p++ = 0xfe;
    for (int i = 0; i < 8; i++)
      *p++ = (unsigned char) (v >> (8 * i));
  }
  return p;
}

static size_t string_length(const db_bind_t *b)
{
  size_t len = b->data_len != NULL ? *b->data_len : 0;
  return len > b->max_len ? b->max_len : len;
}

static bool is_null(const db_bind_t *b)
{
  return b->is_null != NULL && *b->is_null;
}

/* COM_STMT_EXECUTE with the statement's current values, in w->out; its length, 0 when it
   would not fit one packet (the caller uses the client library then). */
static size_t build_request(mysqldrv_wire *w, const db_stmt *stmt, uint32_t stmt_id)
{
  size_t n = stmt->param_count, need = 4 + 1 + 4 + 1 + 4;

  if (n > 0)
    need += (n + 7) / 8 + 1 + 2 * n;
  for (size_t i = 0; i < n; i++) {
    const db_bind_t *b = &stmt->params[i];
    if (is_null(b))
      continue;
    need += b->type == DB_TYPE_BIGINT || b->type == DB_TYPE_DOUBLE ? 8 : 9 + string_length(b);
  }
  if (need - 4 >= MAX_PACKET || reserve(&w->out, &w->out_cap, need) != 0)
    return 0;

  unsigned char *p = w->out + 4;
  *p++ = COM_STMT_EXECUTE_CODE;
  for (int i = 0; i < 4; i++)
    *p++ = (unsigned char) (stmt_id >> (8 * i));
  *p++ = 0;                                    /* no cursor */
  *p++ = 1; *p++ = 0; *p++ = 0; *p++ = 0;      /* iteration count 1 */
  if (n > 0) {
    unsigned char *nulls = p;
    memset(nulls, 0, (n + 7) / 8);
    p += (n + 7) / 8;
    *p++ = 1;                                  /* types follow */
    for (size_t i = 0; i < n; i++) {
      db_bind_type_t t = stmt->params[i].type;
      *p++ = t == DB_TYPE_BIGINT ? MYSQL_TYPE_LONGLONG : t == DB_TYPE_DOUBLE ? MYSQL_TYPE_DOUBLE
           : t == DB_TYPE_CHAR ? MYSQL_TYPE_STRING : MYSQL_TYPE_VAR_STRING;
      *p++ = 0;                                /* signed */
    }
    for (size_t i = 0; i < n; i++) {
      const db_bind_t *b = &stmt->params[i];
      if (is_null(b)) {
        nulls[i / 8] |= (unsigned char) (1u << (i % 8));
      } else if (b->type == DB_TYPE_BIGINT || b->type == DB_TYPE_DOUBLE) {
        memcpy(p, b->buffer, 8);
        p += 8;
      } else {
        size_t len = string_length(b);
        p = put_lenenc(p, len);
        memcpy(p, b->buffer, len);
        p += len;
      }
    }
  }
  size_t payload = (size_t) (p - w->out) - 4;
  w->out[0] = (unsigned char) payload;
  w->out[1] = (unsigned char) (payload >> 8);
  w->out[2] = (unsigned char) (payload >> 16);
  w->out[3] = 0;                               /* sequence number */
  return payload + 4;
}

static int send_all(int fd, const unsigned char *p, size_t len)
{
  while (len > 0) {
    ssize_t r = send(fd, p, len, MSG_NOSIGNAL);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return -1;
    p += r;
    len -= (size_t) r;
  }
  return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* The response                                                                              */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
  uint64_t affected_rows;
  uint16_t status;
  uint16_t warnings;
} end_info;

/* OK packet (0x00 or, ending rows, 0xfe): affected rows, insert id, status, warnings. */
static bool parse_ok(const unsigned char *p, size_t len, end_info *end)
{
  const unsigned char *q = p + 1, *e = p + len;
  uint64_t insert_id;
  if (!mysqldrv_get_lenenc(&q, e, &end->affected_rows) ||
      !mysqldrv_get_lenenc(&q, e, &insert_id) || q + 4 > e)
    return false;
  end->status = mysqldrv_get2(q);
  end->warnings = mysqldrv_get2(q + 2);
  return true;
}

/* EOF packet: 0xfe, warnings, status. */
static bool is_eof(const unsigned char *p, size_t len)
{
  return len < 9 && p[0] == 0xfe;
}

static void parse_eof(const unsigned char *p, size_t len, end_info *end)
{
  end->affected_rows = 0;
  end->warnings = len >= 3 ? mysqldrv_get2(p + 1) : 0;
  end->status = len >= 5 ? mysqldrv_get2(p + 3) : 0;
}

/* A column definition: six length-encoded strings, then 0x0c and the fixed fields (with
   MariaDB's extended metadata another string comes first: read from the end). */
static bool parse_column(const unsigned char *p, size_t len, mysqldrv_column *col)
{
  if (len < 13 || p[len - 13] != 0x0c)
    return false;
  const unsigned char *f = p + len - 12;
  col->length = mysqldrv_get4(f + 2);
  col->type = f[6];
  col->flags = mysqldrv_get2(f + 7);
  col->decimals = f[9];
  return true;
}

static int add_row(mysqldrv_wire *w, size_t offset, size_t length)
{
  if (w->row_count * 2 + 2 > w->row_cap) {
    size_t cap = w->row_cap ? w->row_cap * 2 : 64;
    uint32_t *grown = realloc(w->rows, cap * sizeof(uint32_t));
    if (grown == NULL)
      return -1;
    w->rows = grown;
    w->row_cap = cap;
  }
  w->rows[w->row_count * 2] = (uint32_t) offset;
  w->rows[w->row_count * 2 + 1] = (uint32_t) length;
  w->row_count++;
  return 0;
}

/* Column definitions sent with this execution (the server does not repeat them when it caches
   metadata and nothing changed): they replace what the statement knew. -1 lost, -2 bad. */
static int read_columns(mysqldrv_wire *w, mysqldrv_stmt *s, uint64_t count)
{
  if (count != s->column_count) {
    mysqldrv_column *grown = realloc(s->columns, (size_t) count * sizeof(mysqldrv_column));
    if (grown == NULL && count > 0)
      return -1;
    s->columns = grown;
    s->column_count = (uint32_t) count;
  }
  for (uint64_t i = 0; i < count; i++) {
    size_t off, len;
    if (next_packet(w, &off, &len) != 0)
      return -1;
    if (!parse_column(w->in + off, len, &s->columns[i]))
      return -2;
  }
  return 0;
}

/* Results after the first (a CALL's status, say): read and dropped. -1 lost, -2 malformed,
   -3 an error packet (left at `*err_off`). */
static int drain_more(mysqldrv_wire *w, uint16_t *status, size_t *err_off, size_t *err_len)
{
  while (*status & SERVER_MORE_RESULTS_EXIST) {
    size_t off, len;
    if (next_packet(w, &off, &len) != 0)
      return -1;
    const unsigned char *p = w->in + off;
    end_info end;
    if (len > 0 && p[0] == 0xff) {
      *err_off = off;
      *err_len = len;
      return -3;
    }
    if (len > 0 && p[0] == 0x00) {
      if (!parse_ok(p, len, &end))
        return -2;
      *status = end.status;
      continue;
    }
    /* a text result set: columns, EOF, rows, EOF */
    for (int eofs = 0; eofs < 2;) {
      if (next_packet(w, &off, &len) != 0)
        return -1;
      p = w->in + off;
      if (len > 0 && p[0] == 0xff) {
        *err_off = off;
        *err_len = len;
        return -3;
      }
      if (is_eof(p, len)) {
        eofs++;
        parse_eof(p, len, &end);
        *status = end.status;
      }
    }
  }
  return 0;
}

/* Send the request built in w->out and read the whole response. */
static driver_error_class execute_built(db_stmt *stmt, db_result *rs, size_t request)
{
  db_conn *con = stmt->connection;
  mysqldrv_conn *c = con->ptr;
  mysqldrv_stmt *s = stmt->ptr;
  mysqldrv_wire *w = &c->wire;
  MYSQL *m = c->mysql;

  w->in_len = w->in_pos = 0;
  w->row_count = w->row_next = 0;
  if (send_all(w->fd, w->out, request) != 0)
    return lost(con, true);

  size_t off, len;
  if (next_packet(w, &off, &len) != 0)
    return lost(con, false);
  const unsigned char *p = w->in + off;
  if (len == 0)
    return malformed(con);
  end_info end;
  if (p[0] == 0xff)
    return server_error(con, p, len);

  if (p[0] == 0x00) {                          /* no result set */
    if (!parse_ok(p, len, &end))
      return malformed(con);
    rs->nrows = (uint32_t) end.affected_rows;
    rs->stat_type = end.affected_rows > 0 ? SB_CNT_WRITE : SB_CNT_OTHER;
  } else {                                     /* column count [, metadata follows] */
    const unsigned char *q = p, *e = p + len;
    uint64_t columns;
    if (!mysqldrv_get_lenenc(&q, e, &columns) || columns == 0 || columns > 4096)
      return malformed(con);
    bool metadata = q == e || *q != 0;         /* no flag byte: metadata always comes */
    if (!metadata && columns != s->column_count)
      return malformed(con);
    if (metadata) {
      int rc = read_columns(w, s, columns);
      if (rc == -1)
        return lost(con, false);
      if (rc != 0)
        return malformed(con);
    }
    /* the EOF that ends the column definitions comes even when they do not (Connector/C
       3.x does not ask for CLIENT_DEPRECATE_EOF) */
    if (next_packet(w, &off, &len) != 0)
      return lost(con, false);
    if (!is_eof(w->in + off, len))
      return malformed(con);
    for (;;) {
      if (next_packet(w, &off, &len) != 0)
        return lost(con, false);
      p = w->in + off;
      if (len > 0 && p[0] == 0x00) {
        if (add_row(w, off, len) != 0)
          return mysqldrv_fail(con, CR_OUT_OF_MEMORY, "HY000", "Out of memory");
        continue;
      }
      if (len > 0 && p[0] == 0xff)
        return server_error(con, p, len);
      if (!is_eof(p, len))
        return malformed(con);
      parse_eof(p, len, &end);
      break;
    }
    rs->stat_type = SB_CNT_READ;
    rs->nrows = (uint32_t) w->row_count;
    rs->nfields = s->column_count;
    s->wire_result = true;
  }

  if (end.status & SERVER_MORE_RESULTS_EXIST) {
    size_t err_off = 0, err_len = 0;
    int rc = drain_more(w, &end.status, &err_off, &err_len);
    if (rc == -1)
      return lost(con, false);
    if (rc == -2)
      return malformed(con);
    if (rc == -3)
      return server_error(con, w->in + err_off, err_len);
  }
  /* what the client library would have learnt from this response */
  m->server_status = end.status;
  m->warning_count = end.warnings;
  if (w->in_pos != w->in_len)
    return malformed(con);
  return DRIVER_ERROR_NONE;
}

int mysqldrv_wire_execute(db_stmt *stmt, db_result *rs, driver_error_class *rc)
{
  mysqldrv_conn *c = stmt->connection->ptr;
  mysqldrv_stmt *s = stmt->ptr;
  /* the request carries every value the statement takes (bind_param checked the count) */
  assert(s->wire_ok && stmt->param_count == s->handle->param_count);
  size_t request = build_request(&c->wire, stmt, (uint32_t) s->handle->stmt_id);

  if (request == 0)
    return 1;                                  /* more than one packet: the library's job */
  *rc = execute_built(stmt, rs, request);
  return 0;
}

void mysqldrv_wire_free_result(mysqldrv_conn *c)
{
  c->wire.row_count = c->wire.row_next = 0;
}

#else

/* Other client libraries (their handle's layout is not ours to rely on), big-endian hosts. */
void mysqldrv_wire_attach(mysqldrv_conn *c)
{
  c->wire.fd = -1;
}

void mysqldrv_wire_detach(mysqldrv_conn *c)
{
  c->wire.fd = -1;
}

bool mysqldrv_wire_ready(mysqldrv_conn *c, mysqldrv_stmt *s)
{
  (void) c;
  (void) s;
  return false;
}

int mysqldrv_wire_execute(db_stmt *stmt, db_result *rs, driver_error_class *rc)
{
  (void) stmt;
  (void) rs;
  (void) rc;
  return 1;
}

void mysqldrv_wire_free_result(mysqldrv_conn *c)
{
  (void) c;
}

#endif
