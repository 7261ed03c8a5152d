/*
 * pgsql_driver.h: the PostgreSQL driver's internal API, shared by the files of this
 * directory: the parsed --pgsql-* settings, the round-robin choice of servers, the
 * classification of SQLSTATEs, the per-connection and per-statement state.
 *
 * Every exported name starts with "pgsqldrv_": the binary exports its symbols to LuaJIT, and
 * libpq owns the "PQ" and "pg" prefixes.
 */
#ifndef SB_PGSQL_DRIVER_H
#define SB_PGSQL_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "drivers/driver_error.h"
#include "drivers/error_codes.h"

/* libpq's types, declared here so that the rules (classify.c, endpoints.c, placeholders.c)
   compile and unit-test without libpq's headers. */
typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

/* ---------------------------------------------------------------------------------------- */
/* Settings (options.c)                                                                     */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
  const char *const *hosts;    /* --pgsql-host (at least one) */
  size_t host_count;
  const char *const *ports;    /* --pgsql-port (at least one), as text: libpq checks them */
  size_t port_count;
  const char *user;
  const char *password;        /* never printed */
  const char *db;
  const char *sslmode;         /* NULL: libpq's default (prefer, or PGSSLMODE) */
  const char *sslrootcert;     /* NULL when not given */
  error_code_list ignored;     /* --pgsql-ignore-errors: SQLSTATEs, or "all" */
  bool dry_run;
} pgsqldrv_settings;

extern pgsqldrv_settings pgsqldrv_config;
extern const option_decl pgsqldrv_args[];

/* Parse the --pgsql-* options into pgsqldrv_config; logs what is wrong and returns -1. */
int pgsqldrv_settings_load(void);
void pgsqldrv_settings_free(void);


/* ---------------------------------------------------------------------------------------- */
/* Servers (endpoints.c)                                                                    */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
  const char *host;            /* a host name, an address, or a Unix socket directory */
  const char *port;
  unsigned index;              /* position in the host x port rotation */
} pgsqldrv_endpoint;

/* The next server in the rotation: ports vary fastest, then hosts (the mysql driver's
   order). Thread-safe. */
void pgsqldrv_next_endpoint(pgsqldrv_endpoint *out);
unsigned pgsqldrv_endpoint_count(void);

/* ---------------------------------------------------------------------------------------- */
/* Errors (classify.c: rules without I/O; errors.c: acting on them)                         */
/* ---------------------------------------------------------------------------------------- */

/* The SQLSTATE reported for a lost connection the server gave no reason for. */
#define PGSQL_STATE_CONNECTION_FAILURE "08006"

/* --pgsql-ignore-errors: listed (or "all") is ignored, or a reconnect when the connection is
   gone, or a restarted transaction when it aborted the transaction; anything else is fatal. */
driver_error_class pgsqldrv_classify(const pgsqldrv_settings *c, const char *sql_state,
                                     bool connection_lost, bool transaction_aborted);

/* How a failed libpq call is reported when it is fatal, as 1.0.20 does: "<call>() failed:
   <status> <message>", then "failed query was: <query>" for text queries. */
typedef struct {
  const char *call;            /* "PQexec", "PQexecPrepared", "PQprepare" */
  const char *query;           /* NULL: no "failed query was" line */
  size_t query_len;
  bool full_message;           /* "<call>() failed: <libpq's whole message>" (PQprepare) */
} pgsqldrv_failure;

/* An error as the server (or libpq) reported it. */
typedef struct {
  const char *state;           /* SQLSTATE; NULL when there is none */
  const char *message;         /* the primary message, one line */
  const char *full;            /* libpq's whole message, for full_message lines */
  int status;                  /* ExecStatusType (PGRES_FATAL_ERROR is 7), as 1.0.20 logs it */
  bool lost;                   /* the connection is gone */
} pgsqldrv_error;

/*
 * Turn an error into the connection's error: classify it, log 1.0.20's lines when it is
 * fatal, and return the class for the caller to hand back to db.c (which acts on it: a
 * ROLLBACK through pgsqldrv_rollback, a reconnect, a retry).
 */
driver_error_class pgsqldrv_fail_with(db_conn *con, const pgsqldrv_error *e,
                                      const pgsqldrv_failure *how);
/* The same for a failed libpq call: res may be NULL when libpq returned none; not freed. */
driver_error_class pgsqldrv_fail(db_conn *con, const PGresult *res, const pgsqldrv_failure *how);
/* End the transaction an error aborted (DRIVER_ERROR_RESTART_TRANSACTION). */
void pgsqldrv_rollback(db_conn *con);

/* ---------------------------------------------------------------------------------------- */
/* Placeholders (placeholders.c)                                                            */
/* ---------------------------------------------------------------------------------------- */

/*
 * The statement text with each '?' placeholder replaced by $1, $2, ...: those inside string
 * literals ('...', E'...'), quoted identifiers, dollar-quoted strings and comments are left
 * alone. Returns a malloc()ed NUL-terminated text and the number of placeholders, or NULL
 * when out of memory.
 */
char *pgsqldrv_number_placeholders(const char *query, size_t len, int *count);

/* ---------------------------------------------------------------------------------------- */
/* Connections (connection.c)                                                               */
/* ---------------------------------------------------------------------------------------- */

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

static inline PGconn *pgsqldrv_handle(db_conn *con)
{
  return con->ptr != NULL ? ((pgsqldrv_conn *) con->ptr)->pg : NULL;
}

int pgsqldrv_connect(db_conn *con);
int pgsqldrv_disconnect(db_conn *con);
int pgsqldrv_reconnect(db_conn *con);

/* ---------------------------------------------------------------------------------------- */
/* Queries and statements (query.c, statement.c)                                            */
/* ---------------------------------------------------------------------------------------- */

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

/* Classify a result: a result set is a read, a command with rows a write, anything else
   other. Takes ownership of res (kept in rs for a result set, cleared otherwise). */
driver_error_class pgsqldrv_take_result(db_conn *con, PGresult *res, db_result *rs,
                                        const pgsqldrv_failure *how);

driver_error_class pgsqldrv_query(db_conn *con, const char *query, size_t len, db_result *rs);
/* COPY ... FROM STDIN with the data from `fill` (copy.c). */
driver_error_class pgsqldrv_stream_in(db_conn *con, const char *statement, size_t len,
                                      db_stream_fill fill, void *arg, db_result *rs);
int pgsqldrv_fetch_row(db_result *rs, db_row_t *row);
bool pgsqldrv_more_results(db_conn *con);
driver_error_class pgsqldrv_next_result(db_conn *con, db_result *rs);
int pgsqldrv_free_results(db_result *rs);
size_t pgsqldrv_escape(db_conn *con, char *dst, const char *src, size_t len);
/* Drop the results of a multi-statement query the script did not read. */
void pgsqldrv_drop_pending(pgsqldrv_conn *c);

int pgsqldrv_prepare(db_stmt *stmt, const char *query, size_t len);
int pgsqldrv_bind_param(db_stmt *stmt, db_bind_t *params, size_t count);
driver_error_class pgsqldrv_execute(db_stmt *stmt, db_result *rs);
int pgsqldrv_close(db_stmt *stmt);

/* ---------------------------------------------------------------------------------------- */
/* The wire path (wire.c): prepared statements executed with the protocol directly on the   */
/* socket, in blocking mode: one send() and, in the common case, one recv() per statement.  */
/* ---------------------------------------------------------------------------------------- */

/* After a (re)connect: use the wire path on this connection if it is plain TCP or a Unix
   socket (no TLS, no GSSAPI encryption) and SYSBENCH_PGSQL_LIBRARY_IO is not set. */
void pgsqldrv_wire_attach(pgsqldrv_conn *c);
/* Before the handle closes: forget the socket, free the buffers. */
void pgsqldrv_wire_detach(pgsqldrv_conn *c);
/* Before any libpq call that talks to the server: hand the socket back in libpq's
   (non-blocking) mode. */
void pgsqldrv_wire_release(pgsqldrv_conn *c);
/* 0: executed, the outcome in *rc; 1: not possible here (the caller uses libpq). */
int pgsqldrv_wire_execute(db_stmt *stmt, db_result *rs, driver_error_class *rc);
/* The open result is the wire path's (rs->ptr points at the connection's wire state). */
static inline bool pgsqldrv_wire_result(const pgsqldrv_conn *c, const db_result *rs)
{
  return rs->ptr == (const void *) &c->wire;
}
int pgsqldrv_wire_fetch_row(pgsqldrv_conn *c, db_result *rs, db_row_t *row);
void pgsqldrv_wire_free_result(pgsqldrv_conn *c);
/* The last statement left the transaction failed (a ROLLBACK is due). */
bool pgsqldrv_transaction_failed(pgsqldrv_conn *c);

/* ---------------------------------------------------------------------------------------- */
/* The driver (driver.c)                                                                    */
/* ---------------------------------------------------------------------------------------- */

extern const db_driver_ops pgsqldrv_ops;

#endif
