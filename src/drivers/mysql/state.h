/*
 * state.h: what the driver keeps for one connection (db_conn.ptr) and for one prepared
 * statement (db_stmt.ptr). Types only, shared by the files that work on them; no file here
 * calls another through this header.
 */
#ifndef SB_MYSQL_STATE_H
#define SB_MYSQL_STATE_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mysql.h>

#include "db.h"
#include "drivers/mysql/endpoints.h"

/* A column of a prepared statement's result, as far as decoding the binary protocol needs. */
typedef struct {
  uint8_t type;                /* enum enum_field_types */
  uint8_t decimals;
  uint16_t flags;              /* UNSIGNED_FLAG, ZEROFILL_FLAG, ... */
  uint32_t length;             /* display width (for ZEROFILL) */
} mysqldrv_column;

/* The wire path's buffers on one connection (wire.c, binary_row.c). */
typedef struct {
  int fd;                      /* the plain socket; -1: the client library does all I/O */
  unsigned char *in;           /* the response being read: bytes [0, in_len), parsed to in_pos */
  size_t in_cap, in_len, in_pos;
  unsigned char *out;          /* the request being built */
  size_t out_cap;
  uint32_t *rows;              /* rows of the open result: (payload offset, length) pairs */
  size_t row_cap, row_count, row_next;
  char *text;                  /* fetch_row's numbers and dates as text */
  size_t text_cap;
} mysqldrv_wire;

typedef struct {
  MYSQL *mysql;                /* NULL while disconnected */
  mysqldrv_endpoint endpoint;  /* the server this connection talks to */
  mysqldrv_wire wire;
  /* What the connection is doing, for 1.0.20's FATAL line on an error that stops the run:
     "<call> returned error N (message) for query '<text>'". */
  const char *call;
  const char *call_query;
  size_t call_query_len;
  struct mysqldrv_stream *stream;  /* the LOAD DATA LOCAL INFILE being fed (stream.c) */
  bool lost;                   /* the server dropped it: reconnects follow */
  unsigned reconnect_attempt;  /* reconnects tried since it was lost */
  uint64_t layer[];            /* the layered driver's state (hooks.connection_state_size) */
} mysqldrv_conn;

/* A prepared statement (statement.c; wire.c executes it on plain connections). */
typedef struct {
  MYSQL_STMT *handle;
  bool wire_ok;                /* parameter types the wire path sends, and not a CALL */
  bool wire_result;            /* the open result was read by the wire path */
  bool user_results_bound;     /* db_bind_result() bound the script's own buffers */
  uint32_t column_count;       /* the result's columns, for the wire path's fetch_row */
  mysqldrv_column *columns;
  /* fetch_row() through the client library: every column as a string, in our buffers */
  uint32_t row_fields;
  MYSQL_BIND *row_binds;
  char **row_buffers;
  unsigned long *row_lengths;
  my_bool *row_nulls;
  my_bool *row_errors;
} mysqldrv_stmt;

/* The layered driver's state of this connection (see mysqldrv_hooks). */
static inline void *mysqldrv_layer_state(db_conn *con)
{
  assert(con->ptr != NULL);
  return ((mysqldrv_conn *) con->ptr)->layer;
}

/* Remember the client call and statement text an error would be reported against. */
static inline void mysqldrv_doing(db_conn *con, const char *call, const char *query, size_t len)
{
  mysqldrv_conn *c = con->ptr;
  if (c != NULL) {
    c->call = call;
    c->call_query = query;
    c->call_query_len = len;
  }
}

static inline MYSQL *mysqldrv_handle(db_conn *con)
{
  return con->ptr != NULL ? ((mysqldrv_conn *) con->ptr)->mysql : NULL;
}

#endif
