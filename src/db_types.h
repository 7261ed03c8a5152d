/*
 * db_types.h: the data the database layer and the drivers share: a driver's operations and
 * description, connections, prepared statements, results, rows and bound values. Types
 * only; the layer's functions are in db.h.
 *
 * The leading fields of db_driver, db_conn, db_stmt, db_result, db_row, db_value and db_bind
 * are declared again in Lua through FFI (sysbench.sql.lua, and by scripts in the wild that
 * copied 1.0.20's declarations): their order and types must not change.
 */
#ifndef SB_DB_TYPES_H
#define SB_DB_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/driver_error.h"
#include "options.h"
#include "stats.h"

/* What the script sees of the last call on a connection (Lua's sql_error_t): the driver's
   class of the error (driver_error.h) once this layer has acted on it. */
typedef enum {
  DB_ERROR_NONE,          /* no error */
  DB_ERROR_IGNORABLE,     /* retry the event: ignored errors, restarted transactions, reconnects */
  DB_ERROR_FATAL          /* stop the run */
} db_error_t;

static inline db_error_t db_error_outcome(driver_error_class cls)
{
  return cls == DRIVER_ERROR_NONE ? DB_ERROR_NONE
         : cls == DRIVER_ERROR_FATAL ? DB_ERROR_FATAL : DB_ERROR_IGNORABLE;
}

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

/*
 * A driver's operations. Those that talk to the server return the class of their failure
 * (DRIVER_ERROR_NONE when they succeeded) after setting the connection's error with
 * db_set_error(); the others return -1 with it set. The driver only classifies: rolling back,
 * reconnecting and counting are this layer's (db.c), through rollback and reconnect.
 */
typedef struct db_driver_ops {
  int (*init)(void);                                 /* once per process, first use */
  int (*thread_init)(int thread_id);
  int (*connect)(db_conn *con);
  int (*disconnect)(db_conn *con);
  /* The connection again, after it was lost or when the script asks; the connection's
     error fields stay (they describe what caused this). NULL: disconnect + connect. */
  int (*reconnect)(db_conn *con);
  /* DRIVER_ERROR_RESTART_TRANSACTION: end the transaction the server aborted. NULL: the
     server ended it itself. */
  void (*rollback)(db_conn *con);
  /* Server-side prepare; return 1 if the statement should be emulated client-side instead. */
  int (*prepare)(db_stmt *stmt, const char *query, size_t len);
  int (*bind_param)(db_stmt *stmt, db_bind_t *params, size_t count);
  int (*bind_result)(db_stmt *stmt, db_bind_t *results, size_t count);
  driver_error_class (*execute)(db_stmt *stmt, db_result *rs);
  /* query[len] is always a NUL (C clients like libpq take C strings) */
  driver_error_class (*query)(db_conn *con, const char *query, size_t len, db_result *rs);
  int (*fetch)(db_result *rs);                       /* prepared: next row into bound buffers */
  int (*fetch_row)(db_result *rs, db_row_t *row);    /* 0 = row, 1 = no more, -1 = error */
  bool (*more_results)(db_conn *con);
  driver_error_class (*next_result)(db_conn *con, db_result *rs);
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
  driver_error_class (*stream_in)(db_conn *con, const char *statement, size_t len,
                                  db_stream_fill fill, void *arg, db_result *rs);
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
  bool added;                   /* not one of 1.0.20's drivers: --help lists it and its options
                                   except in exact mode (output_mode.h) */
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
  sb_counter_type stat_type;  /* what it counts as: SB_CNT_READ, _WRITE or _OTHER (the Lua
                                 sql_stat_type declares the same values) */
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
  char *connect_error;      /* why the last (re)connect failed (malloc'ed), or NULL */
  bool connect_error_logged;  /* ... the driver logged it (1.0.20's drivers did) */
  driver_error_class error_class;  /* the driver's class of the error set last (db_set_error),
                                      until this layer has acted on it */
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
  sb_counter_type statement_kind;  /* the running statement's kind: SB_CNT_STMT_* */
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
  uint32_t generation;      /* connection generation it was prepared in */
  char *emulation_buffer;   /* client-side statements: the query text, reused */
  size_t emulation_capacity;
  db_stmt *prev, *next;     /* in the connection's list */
  sb_counter_type kind;     /* statement kind: SB_CNT_STMT_SELECT .. SB_CNT_STMT_OTHER */
};

#endif
