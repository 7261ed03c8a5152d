/*
 * db.h: the database layer between the Lua API (sysbench.sql, the legacy sysbench.db) and the
 * drivers. Drivers implement db_driver_ops; this layer owns connections, prepared statements,
 * client-side statement emulation (--db-ps-mode=disable), bulk inserts, error classification
 * and the read/write/other counters.
 *
 * The leading fields of db_driver, db_conn, db_stmt, db_result, db_row, db_value and db_bind
 * are declared again in Lua through FFI (sysbench.sql.lua, and by scripts in the wild that
 * copied 1.0.20's declarations): their order and types must not change.
 */
#ifndef SB_DB_H
#define SB_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "report.h"
#include "stats.h"

/* Driver-independent error class of the last operation on a connection. */
typedef enum {
  DB_ERROR_NONE,          /* no error */
  DB_ERROR_IGNORABLE,     /* retry the event: --mysql-ignore-errors, deadlocks, reconnects */
  DB_ERROR_FATAL          /* stop the run */
} db_error_t;

/* Statistic a finished query counts as (the order is the Lua sql_stat_type). */
typedef enum {
  DB_STAT_OTHER,
  DB_STAT_READ,
  DB_STAT_WRITE,
  DB_STAT_TRX,
  DB_STAT_ERROR,
  DB_STAT_RECONNECT,
  DB_STAT_MAX
} db_stat_t;

typedef enum {
  DB_TYPE_NONE,
  DB_TYPE_TINYINT,
  DB_TYPE_SMALLINT,
  DB_TYPE_INT,
  DB_TYPE_BIGINT,
  DB_TYPE_FLOAT,
  DB_TYPE_DOUBLE,
  DB_TYPE_TIME,
  DB_TYPE_DATE,
  DB_TYPE_DATETIME,
  DB_TYPE_TIMESTAMP,
  DB_TYPE_CHAR,
  DB_TYPE_VARCHAR
} db_bind_type_t;

/* A bound parameter or result column (Lua's sql_bind). */
typedef struct {
  db_bind_type_t type;
  void *buffer;
  unsigned long *data_len;
  unsigned long max_len;
  char *is_null;
} db_bind_t;

/* One column value of a fetched row; ptr NULL means SQL NULL (Lua's sql_value). */
typedef struct {
  uint32_t len;
  const char *ptr;
} db_value_t;

typedef struct {
  void *ptr;              /* driver row handle */
  db_value_t *values;     /* nfields values */
} db_row_t;

typedef struct db_driver_def db_driver_def;
typedef struct db_kv_ops db_kv_ops;
typedef struct db_driver db_driver;
typedef struct db_conn db_conn;
typedef struct db_stmt db_stmt;
typedef struct db_result db_result;

/* Driver family: SQL drivers run SQL text; KV drivers run the workloads' key-value forms. */
typedef enum {
  DB_FAMILY_SQL,
  DB_FAMILY_KV
} db_family_t;

/* Fills buf with up to `capacity` next bytes of data a statement reads from the client;
   returns how many (0 at the end), or -1 to abort the statement. */
typedef long (*db_stream_fill)(void *arg, char *buf, size_t capacity);

typedef struct db_driver_ops {
  int (*init)(void);                                 /* once per process, first use */
  int (*thread_init)(int thread_id);
  int (*connect)(db_conn *con);
  int (*disconnect)(db_conn *con);
  int (*reconnect)(db_conn *con);                    /* NULL: disconnect + connect */
  /* Server-side prepare; return 1 if the statement should be emulated client-side instead. */
  int (*prepare)(db_stmt *stmt, const char *query, size_t len);
  int (*bind_param)(db_stmt *stmt, db_bind_t *params, size_t count);
  int (*bind_result)(db_stmt *stmt, db_bind_t *results, size_t count);
  db_error_t (*execute)(db_stmt *stmt, db_result *rs);
  /* query[len] is always a NUL (C clients like libpq take C strings) */
  db_error_t (*query)(db_conn *con, const char *query, size_t len, db_result *rs);
  int (*fetch)(db_result *rs);                       /* prepared: next row into bound buffers */
  int (*fetch_row)(db_result *rs, db_row_t *row);    /* 0 = row, 1 = no more, -1 = error */
  bool (*more_results)(db_conn *con);
  db_error_t (*next_result)(db_conn *con, db_result *rs);
  int (*free_results)(db_result *rs);
  int (*close)(db_stmt *stmt);
  int (*thread_done)(int thread_id);
  int (*done)(void);                                 /* once per process, at exit */
  /* Escape `len` bytes of a string value for a client-side statement (without the quotes);
     dst holds 2 * len + 1 bytes. Returns the escaped length. NULL: generic escaping. */
  size_t (*escape)(db_conn *con, char *dst, const char *src, size_t len);
  /* Report hooks a driver may add (per-server counts, error breakdown, engine stats). */
  void (*report_cumulative)(const sb_stat_t *stat);
  /* Run a statement that reads its data from the client -- MySQL's LOAD DATA LOCAL INFILE,
     PostgreSQL's COPY ... FROM STDIN -- with the data from `fill`. When fill aborts, the
     driver breaks the statement off so that the server does not take the data sent so far
     as complete (the connection may be unusable afterwards). NULL: not supported. */
  db_error_t (*stream_in)(db_conn *con, const char *statement, size_t len, db_stream_fill fill,
                          void *arg, db_result *rs);
} db_driver_ops;

/* A driver handle (Lua's sql_driver); one per compiled-in driver, living in its def. */
struct db_driver {
  const char *sname;
  const char *lname;
  /* opaque to Lua from here */
  const db_driver_def *def;
};

/* A compiled-in driver's description (see db_registry.c for the list). Define one with
   DB_DRIVER_DEF so its handle points back at it. */
struct db_driver_def {
  const char *name;             /* --db-driver value, e.g. "mysql" */
  const char *description;      /* e.g. "MySQL driver" */
  db_family_t family;
  const option_decl *options;   /* driver options, listed by --help as "<name> options:" */
  bool needs_commit;            /* bulk inserts COMMIT every 1000 rows */
  const db_driver_ops *ops;
  const db_kv_ops *kv;          /* key-value operations (KV family), see db_kv.h */
  db_driver instance;           /* the handle db_create() hands out */
};

#define DB_DRIVER_INSTANCE(self, name_, description_) \
  .instance = { (name_), (description_), &(self) }


typedef enum {
  DB_CONN_READY,
  DB_CONN_RESULT_SET,       /* a result set is open and must be freed before the next query */
  DB_CONN_INVALID
} db_conn_state_t;

struct db_result {
  db_stat_t stat_type;
  uint32_t nrows;
  uint32_t nfields;
  db_stmt *statement;
  void *ptr;                /* driver result handle */
  db_row_t row;             /* last fetched row */
  /* opaque to Lua from here */
  db_conn *connection;
  uint64_t rows_fetched;
};

struct db_conn {
  db_error_t error;
  int sql_errno;
  const char *sql_state;
  const char *sql_errmsg;
  db_driver *driver;
  /* opaque to Lua from here */
  void *ptr;                /* driver connection handle */
  db_result rs;             /* the one result a connection has at a time */
  db_conn_state_t state;
  int thread_id;            /* its worker's id */
  struct worker *worker;    /* the worker it counts for (worker.h) */
  uint32_t generation;      /* bumped by every reconnect: statements prepared before are gone */
  bool reconnected;         /* the failing call reconnected: count a reconnect, not an error */
  db_value_t *values;       /* fetch_row() values, nfields of them */
  uint32_t values_capacity;
  /* bulk insert */
  char *bulk_buffer;
  size_t bulk_size;         /* bytes used */
  size_t bulk_capacity;
  size_t bulk_prefix_len;   /* "INSERT ... VALUES" part */
  uint32_t bulk_values;     /* rows in the current statement */
  uint32_t bulk_uncommitted;
  db_stmt *statements;      /* open statements, closed with the connection */
  unsigned statement_kind;  /* the running statement's kind: 0 select .. 6 other (stats.h) */
  /* driver-owned scratch for error texts */
  char errmsg_buf[512];
  char sqlstate_buf[8];
};

struct db_stmt {
  db_conn *connection;
  /* opaque to Lua from here */
  void *ptr;                /* driver statement handle */
  char *query;              /* text, kept for emulation, re-prepare and error messages */
  size_t query_len;
  bool emulated;            /* client-side: '?' replaced with bound values, run as a query */
  db_bind_t *params;
  size_t param_count;
  db_bind_t *results;
  size_t result_count;
  db_stat_t expected_stat;  /* for drivers that count without a server answer (dry run) */
  uint32_t generation;      /* connection generation it was prepared in */
  char *emulation_buffer;   /* client-side statements: the query text, reused */
  size_t emulation_capacity;
  db_stmt *prev, *next;     /* in the connection's list */
  unsigned kind;            /* statement kind, 0 select .. 6 other (SB_CNT_STMT_* order) */
};

/* ---- API used by sysbench.sql (names and signatures as 1.0.20's FFI declarations) ---- */

db_driver *db_create(const char *name);
int db_destroy(db_driver *drv);
int db_driver_family(db_driver *drv);          /* 0 SQL, 1 KV */
const char *db_statement_text(db_stmt *stmt);

/* A connection counting for worker `w` (its statements, errors and reconnects go into w's
   counters). db_connection_create(): for the worker bound to the calling thread (1.0.20's
   name, which scripts may call). */
db_conn *db_worker_connect(db_driver *drv, struct worker *w);
db_conn *db_connection_create(db_driver *drv);
int db_connection_close(db_conn *con);
int db_connection_reconnect(db_conn *con);
void db_connection_free(db_conn *con);

int db_bulk_insert_init(db_conn *con, const char *query, size_t len);
int db_bulk_insert_next(db_conn *con, const char *values, size_t len);
int db_bulk_insert_done(db_conn *con);

db_result *db_query(db_conn *con, const char *query, size_t len);
db_row_t *db_fetch_row(db_result *rs);
bool db_more_results(db_conn *con);
db_result *db_next_result(db_conn *con);

db_stmt *db_prepare(db_conn *con, const char *query, size_t len);
int db_bind_param(db_stmt *stmt, db_bind_t *params, size_t len);
int db_bind_result(db_stmt *stmt, db_bind_t *results, size_t len);
db_result *db_execute(db_stmt *stmt);
int db_close(db_stmt *stmt);
int db_free_results(db_result *rs);

/* The kind of an SQL statement by its first word: 0 select, 1 insert (and REPLACE), 2 update,
   3 delete, 4 begin (BEGIN, START TRANSACTION), 5 commit, 6 anything else. */
unsigned db_statement_kind(const char *query, size_t len);

/* The server the run talks to, as "MariaDB 10.11.6" (drivers call this once they know it;
   the first call wins). NULL until then. */
void db_note_server_version(const char *version);
const char *db_server_version(void);

/* A statement reading its data from the client (see db_driver_ops.stream_in): 0 when it
   succeeded, -1 with the connection's error set. A driver without the capability fails with
   DB_STREAM_UNSUPPORTED as sql_errno. */
#define DB_STREAM_UNSUPPORTED -1001
int db_stream_in(db_conn *con, const char *statement, size_t len, db_stream_fill fill,
                 void *arg);
/* Connections made from now on should be able to run stream_in statements (the MySQL driver
   asks for the LOCAL INFILE capability when connecting, and serves only db_stream_in data). */
void db_want_stream_in(void);
bool db_stream_in_wanted(void);

/* An error the driver thought fatal was made ignorable by the script's sql_error_ignorable
   hook: count it as an ignored error. */
void db_count_ignored_error(db_conn *con);

/* ---- for drivers ---- */

/* Why `w`'s last connection attempt failed, for the Lua error message (a driver sets it with
   db_conn_set_connect_error(); never holds a password). "" when unknown. db_connect_error():
   the same for the worker bound to the calling thread (1.0.20's scripts' name). */
const char *db_worker_connect_error(struct worker *w);
const char *db_connect_error(void);
void db_conn_set_connect_error(db_conn *con, const char *fmt, ...)
  __attribute__((format(printf, 2, 3)));
/* The driver logged the reason itself, as 1.0.20 did: the Lua error then adds none. */
void db_conn_connect_error_logged(db_conn *con);
/* The same two for a driver's connect(), which knows no other connection than the one being
   made: they act for that one (a connect runs on its worker's thread, start to end). */
void db_set_connect_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void db_connect_error_logged(void);
/* True for the first caller in the run: a driver prints why a connection failed only then
   (every thread of a run whose server is down would say the same). */
bool db_connect_failure_first(void);

/* A driver's own per-worker state, kept with the worker `con` counts for (so a driver needs
   no thread-locals: several workers may one day share a thread). NULL until the driver sets
   it; `free_state` frees it when the worker ends (a new state frees the one before). Only
   the worker's own calls use it. 0, or -1 (out of memory, or a connection made by a thread
   that is no worker's, whose counts go to the shared slot). */
void *db_conn_driver_state(db_conn *con);
int db_conn_set_driver_state(db_conn *con, void *state, void (*free_state)(void *state));

/* Set the connection's error fields (the texts are copied into the connection). */
void db_set_error(db_conn *con, db_error_t error, int sql_errno, const char *sql_state,
                  const char *message);
void db_clear_error(db_conn *con);
/* The script misused the API, or an error the driver reported itself (1.0.20's driver lines):
   the script gets "SQL API error". */
void db_set_api_error(db_conn *con);
/* 1.0.20's "ALERT: attempt to ..." lines for misuse the Lua layer detects. */
void db_api_alert(const char *what);

/* A driver reconnected `con` by itself: count it (as a reconnect, not as an ignored error)
   and invalidate prepared statements (the db layer re-prepares them on their next
   execution). */
void db_count_reconnect(db_conn *con);

/* For other entry points of the layer (db_kv.c): a statement's start (frees the previous
   result; false if the connection is unusable) and end (counts it, keeps a result set). */
bool db_statement_start(db_conn *con);
db_result *db_statement_finish(db_conn *con, db_error_t rc);
/* Put a statement the caller built on the connection's list (closed with it). */
void db_statement_attach(db_conn *con, db_stmt *stmt);

/* --db-debug */
bool db_debug_enabled(void);
/* --db-ps-mode=disable */
bool db_ps_disabled(void);

/* True once a script created a driver: reports then use the SQL layout. */
bool db_used(void);

/* Called by the runner/report layer. */
void db_report_intermediate(sb_stat_t *stat, const report_layout *layout);
void db_report_cumulative(sb_stat_t *stat, const report_layout *layout);
void db_done(void);

#endif
