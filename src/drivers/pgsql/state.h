/*
 * state.h: what the driver keeps for one connection (db_conn.ptr) and for one prepared
 * statement (db_stmt.ptr). Types only, shared by the files that work on them.
 */
#ifndef SB_PGSQL_STATE_H
#define SB_PGSQL_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "drivers/pgsql/endpoints.h"

/* libpq's types, declared here so that files without I/O compile without libpq's headers. */
typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

/* Results of a multi-statement query not yet handed to the script (next_result). */
typedef struct {
  PGresult **items;
  size_t count, next, capacity;
} pgsqldrv_pending;

/* The wire path's state on one connection (wire.c). */
typedef struct {
  int fd;                      /* the plain socket; -1: libpq does all I/O */
  bool blocking;               /* the socket is in blocking mode (ours), not libpq's */
  bool used_last;              /* the last statement went this way (its status is ours) */
  char transaction;            /* 'I' idle, 'T' in a transaction, 'E' in a failed one */
  unsigned char *in;           /* responses: bytes [0, in_len), parsed up to in_pos */
  size_t in_cap, in_len, in_pos;
  unsigned char *out;          /* the request being built */
  size_t out_cap;
  uint32_t *rows;              /* rows of the open result: offsets of DataRow payloads */
  size_t row_cap, row_count;
} pgsqldrv_wire;

typedef struct {
  PGconn *pg;                  /* NULL while disconnected (or in a dry run) */
  pgsqldrv_endpoint endpoint;  /* the server this connection talks to */
  uint32_t session;            /* bumped by every (re)connect: server statements are gone */
  uint32_t next_statement;     /* names "sbstmt<N>" of this connection's statements */
  pgsqldrv_pending pending;
  pgsqldrv_wire wire;
} pgsqldrv_conn;

/* A prepared statement on the server. */
typedef struct {
  char name[24];               /* "sbstmt<N>", unique on its connection */
  char *text;                  /* the statement with $1, $2, ... */
  int nparams;                 /* placeholders in text */
  bool on_server;              /* prepared in session `session` of its connection */
  uint32_t session;
  int nfields;                 /* columns of its result (0: a command without rows) */
  /* parameters as libpq takes them: binary values, lengths and formats */
  unsigned int *types;         /* Oid per parameter */
  const char **values;
  int *lengths;
  int *formats;
  unsigned char *numbers;      /* 8 bytes per parameter: integers and doubles, big-endian */
} pgsqldrv_stmt;

static inline PGconn *pgsqldrv_handle(db_conn *con)
{
  return con->ptr != NULL ? ((pgsqldrv_conn *) con->ptr)->pg : NULL;
}

/* The open result is the wire path's (rs->ptr points at the connection's wire state). */
static inline bool pgsqldrv_wire_result(const pgsqldrv_conn *c, const db_result *rs)
{
  return rs->ptr == (const void *) &c->wire;
}

#endif
