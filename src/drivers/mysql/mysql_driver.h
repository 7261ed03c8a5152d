/*
 * mysql_driver.h: the MySQL driver's internal API, shared by its own files and by drivers
 * layered on it (TiDB): the parsed --mysql-* settings, the round-robin choice of servers, the
 * classification of server errors, the per-connection state, and the hooks a layered driver
 * sets to change those rules without copying them.
 *
 * Every exported name starts with "mysqldrv_": the binary exports its symbols to LuaJIT, and
 * the client library already owns the "mysql_" prefix.
 */
#ifndef SB_MYSQL_DRIVER_H
#define SB_MYSQL_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mysql.h>

#include "db.h"
#include "drivers/driver_error.h"
#include "drivers/error_codes.h"

/* ---------------------------------------------------------------------------------------- */
/* Settings (options.c)                                                                     */
/* ---------------------------------------------------------------------------------------- */

/* --mysql-ssl, as master's ssl-mode; 1.0.20's "on" is MYSQL_SSL_LEGACY_ON. */
typedef enum {
  MYSQL_SSL_DISABLED,
  MYSQL_SSL_PREFERRED,
  MYSQL_SSL_REQUIRED,
  MYSQL_SSL_VERIFY_CA,
  MYSQL_SSL_VERIFY_IDENTITY,
  MYSQL_SSL_LEGACY_ON          /* required, with ./client-key.pem, ./client-cert.pem, ./cacert.pem */
} mysqldrv_ssl_mode;

typedef struct {
  const char *const *hosts;    /* --mysql-host (at least one) */
  size_t host_count;
  unsigned *ports;             /* --mysql-port (at least one) */
  size_t port_count;
  const char *const *sockets;  /* --mysql-socket: when given, used instead of host/port */
  size_t socket_count;
  const char *user;
  const char *password;        /* never printed */
  const char *db;
  mysqldrv_ssl_mode ssl_mode;
  const char *ssl_key;         /* NULL when not given */
  const char *ssl_cert;
  const char *ssl_ca;
  const char *ssl_cipher;      /* NULL when empty */
  bool compression;
  const char *compression_algorithms;
  bool debug;                  /* --mysql-debug: log client library calls */
  error_code_list ignored;     /* --mysql-ignore-errors (numbers, or "all") */
  bool dry_run;
  bool use_ps;                 /* server-side prepared statements (not --db-ps-mode=disable) */
} mysqldrv_settings;

/* Defaults a layered driver substitutes for options the user did not give. */
typedef struct {
  unsigned port;               /* 0: keep --mysql-port's default (3306) */
  const char *user;            /* NULL: keep --mysql-user's default (sbtest) */
} mysqldrv_defaults;

extern mysqldrv_settings mysqldrv_config;
extern const option_decl mysqldrv_args[];

/* Parse the --mysql-* options into mysqldrv_config; logs what is wrong and returns -1. */
int mysqldrv_settings_load(const mysqldrv_defaults *defaults);
void mysqldrv_settings_free(void);

/* ---------------------------------------------------------------------------------------- */
/* Servers (endpoints.c)                                                                    */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
  const char *host;            /* "localhost" for sockets, as 1.0.20 */
  unsigned port;               /* 0 for sockets */
  const char *socket;          /* NULL for TCP */
  unsigned index;              /* position in the host x port (or socket) rotation */
} mysqldrv_endpoint;

/* The next server in the rotation: ports vary fastest, then hosts (1.0.20's order), or the
   next socket when --mysql-socket is given. Thread-safe. */
void mysqldrv_next_endpoint(mysqldrv_endpoint *out);
/* Number of distinct endpoints in the rotation. */
unsigned mysqldrv_endpoint_count(void);
/* "host 'h', port p" or "socket 's'", for messages. */
void mysqldrv_describe_endpoint(const mysqldrv_endpoint *ep, char *buf, size_t len);

/* ---------------------------------------------------------------------------------------- */
/* Errors (errors.c)                                                                        */
/* ---------------------------------------------------------------------------------------- */

/* 2006, 2013, 2011, 2055: the connection is gone. */
bool mysqldrv_is_connection_loss(unsigned sql_errno);

/* --mysql-ignore-errors rules (a listed error is ignored, or reconnected when it is a lost
   connection; any other is fatal), then the layered driver's classify hook if any. */
driver_error_class mysqldrv_classify_error(unsigned sql_errno, const char *sql_state);

/* ---------------------------------------------------------------------------------------- */
/* Hooks for a layered driver (set once, in its init, before any connection)                */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
  /* Reclassify an error; `chosen` is what --mysql-ignore-errors decided. No side effects:
     the rules are asked more than once about some errors. */
  driver_error_class (*classify)(unsigned sql_errno, const char *sql_state,
                                 driver_error_class chosen);
  /* A call on `con` failed with `sql_errno`, classified `cls` (once per failure, before the
     connection's error is set and any message is logged). May sleep to back off. */
  void (*failed)(db_conn *con, unsigned sql_errno, driver_error_class cls);
  /* Bytes of the layered driver's own state in each connection (mysqldrv_layer_state),
     zeroed when the connection is made. */
  size_t connection_state_size;
  /* Where reconnect attempt `attempt` (0, 1, ...) of a lost connection goes; NULL keeps the
     connection's server. May sleep to back off. (Not called when the script reconnects.) */
  void (*reconnect_endpoint)(mysqldrv_endpoint *ep, unsigned attempt);
  /* Called after every successful (re)connect, after the session statements. Non-zero
     fails the connection (the hook sets nothing; the message is the hook's to log). */
  int (*after_connect)(MYSQL *mysql, const mysqldrv_endpoint *ep);
  /* The server a new connection goes to; NULL: the next in the rotation. */
  void (*choose_endpoint)(mysqldrv_endpoint *ep);
  /* A new connection to `ep` could not be made (why: the reason, without the password). */
  void (*connect_failed)(const mysqldrv_endpoint *ep, const char *why);
} mysqldrv_hooks;

void mysqldrv_set_hooks(const mysqldrv_hooks *hooks);
extern mysqldrv_hooks mysqldrv_active_hooks;

/* SQL run in order after every (re)connect (e.g. "SET SESSION tidb_txn_mode='optimistic'").
   The strings are copied. Call from a layered driver's init. */
int mysqldrv_set_session_statements(const char *const *statements, size_t count);

/* ---------------------------------------------------------------------------------------- */
/* Connections (connection.c)                                                               */
/* ---------------------------------------------------------------------------------------- */

/* A column of a prepared statement's result, as far as decoding the binary protocol needs. */
typedef struct {
  uint8_t type;                /* enum enum_field_types */
  uint8_t decimals;
  uint16_t flags;              /* UNSIGNED_FLAG, ZEROFILL_FLAG, ... */
  uint32_t length;             /* display width (for ZEROFILL) */
} mysqldrv_column;

/* The wire path's state on one connection (wire.c). */
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

/* The layered driver's state of this connection (see mysqldrv_hooks). */
static inline void *mysqldrv_layer_state(db_conn *con)
{
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

static inline MYSQL *mysqldrv_handle(db_conn *con)
{
  return con->ptr != NULL ? ((mysqldrv_conn *) con->ptr)->mysql : NULL;
}

int mysqldrv_connect(db_conn *con);
int mysqldrv_disconnect(db_conn *con);
int mysqldrv_reconnect(db_conn *con);

/*
 * Turn an error of the client library into the connection's error: classify it, copy the
 * texts into the connection, log 1.0.20's line when it is fatal, and return the class for the
 * caller to hand back to db.c (which acts on it: a retry, a reconnect).
 */
driver_error_class mysqldrv_fail(db_conn *con, unsigned sql_errno, const char *sql_state,
                                 const char *message);
/* The two halves of mysqldrv_fail, for a caller that reports a fatal error its own way:
   the class of a failure (the layered driver hears of it), then acting on it. */
driver_error_class mysqldrv_failure_class(db_conn *con, unsigned sql_errno,
                                          const char *sql_state);
driver_error_class mysqldrv_fail_as(db_conn *con, driver_error_class cls, unsigned sql_errno,
                                    const char *sql_state, const char *message);
/* The connection has no handle (a reconnect failed): as a lost server (2006). */
driver_error_class mysqldrv_fail_disconnected(db_conn *con);

/* ---------------------------------------------------------------------------------------- */
/* Queries and statements (query.c, statement.c)                                            */
/* ---------------------------------------------------------------------------------------- */

driver_error_class mysqldrv_query(db_conn *con, const char *query, size_t len, db_result *rs);
int mysqldrv_fetch_row(db_result *rs, db_row_t *row);
bool mysqldrv_more_results(db_conn *con);
driver_error_class mysqldrv_next_result(db_conn *con, db_result *rs);
int mysqldrv_free_results(db_result *rs);
size_t mysqldrv_escape(db_conn *con, char *dst, const char *src, size_t len);
/* Read and drop results of an earlier multi-statement command the script did not read. */
void mysqldrv_drain_results(MYSQL *mysql);

int mysqldrv_prepare(db_stmt *stmt, const char *query, size_t len);
int mysqldrv_bind_param(db_stmt *stmt, db_bind_t *params, size_t count);
int mysqldrv_bind_result(db_stmt *stmt, db_bind_t *results, size_t count);
driver_error_class mysqldrv_execute(db_stmt *stmt, db_result *rs);
int mysqldrv_stmt_fetch(db_result *rs);
int mysqldrv_stmt_fetch_row(db_result *rs, db_row_t *row);
int mysqldrv_stmt_free_result(db_stmt *stmt);
int mysqldrv_close(db_stmt *stmt);

/* ---------------------------------------------------------------------------------------- */
/* Streams (stream.c): LOAD DATA LOCAL INFILE fed from memory                               */
/* ---------------------------------------------------------------------------------------- */

/* Before connecting: ask for the LOCAL INFILE capability when the loader wants streams. */
void mysqldrv_stream_prepare_options(MYSQL *mysql);
/* After connecting: serve LOCAL INFILE requests from db_stream_in() only. */
void mysqldrv_stream_attach(mysqldrv_conn *c);
driver_error_class mysqldrv_stream_in(db_conn *con, const char *statement, size_t len,
                                      db_stream_fill fill, void *arg, db_result *rs);

/* ---------------------------------------------------------------------------------------- */
/* Socket I/O (socket_io.c)                                                                 */
/* ---------------------------------------------------------------------------------------- */

/* After a connect: make the client library read and write its socket with plain blocking
   calls (one recv per response instead of recv + EAGAIN + poll + recv). Returns false, and
   changes nothing, where that is not possible (TLS, other client libraries). */
bool mysqldrv_socket_io_attach(MYSQL *mysql);
/* The client library holds no unread bytes of this connection. */
bool mysqldrv_socket_io_idle(MYSQL *mysql);

/* ---------------------------------------------------------------------------------------- */
/* The wire path (wire.c): prepared statements executed with the binary protocol directly   */
/* on the socket, bypassing the client library's per-query work.                            */
/* ---------------------------------------------------------------------------------------- */

/* After a connect: use the wire path on this connection if its socket allows (plain, no
   compression, the client library's socket I/O attached). */
void mysqldrv_wire_attach(mysqldrv_conn *c);
/* Before the handle closes: forget the socket, free the buffers. */
void mysqldrv_wire_detach(mysqldrv_conn *c);
/* The statement can run on the wire path now. */
bool mysqldrv_wire_ready(mysqldrv_conn *c, mysqldrv_stmt *s);
/* 0: executed, the outcome in *rc; 1: not possible here (the caller uses the library). */
int mysqldrv_wire_execute(db_stmt *stmt, db_result *rs, driver_error_class *rc);
int mysqldrv_wire_fetch_row(db_result *rs, db_row_t *row);
void mysqldrv_wire_free_result(mysqldrv_conn *c);

/* ---------------------------------------------------------------------------------------- */
/* The driver                                                                               */
/* ---------------------------------------------------------------------------------------- */

/* The MySQL driver's operations, for a layered driver to wrap. */
extern const db_driver_ops mysqldrv_ops;

/* Driver start-up with a layered driver's defaults (mysql itself passes NULL), and the
   other lifecycle operations, for a layered driver's own operations table. */
int mysqldrv_init_with(const mysqldrv_defaults *defaults);
int mysqldrv_thread_init(int thread_id);
int mysqldrv_thread_done(int thread_id);
int mysqldrv_done(void);

/* --mysql-debug: log a client library call. */
#define MYSQLDRV_TRACE(...)                        \
  do {                                             \
    if (__builtin_expect(mysqldrv_config.debug, 0)) \
      log_text(LOG_DEBUG, __VA_ARGS__);            \
  } while (0)

#endif
