/*
 * db.h: the database layer between the Lua API (sysbench.sql, the legacy sysbench.db) and the
 * drivers. Drivers implement db_driver_ops (db_types.h); this layer owns connections,
 * prepared statements, client-side statement emulation (--db-ps-mode=disable), bulk
 * inserts, what happens after an error (a driver only classifies it: driver_error.h) and the
 * read/write/other counters.
 */
#ifndef SB_DB_H
#define SB_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db_types.h"
#include "report.h"
#include "stats.h"

/* ---- API used by sysbench.sql (names and signatures as 1.0.20's FFI declarations) ---- */

db_driver *db_create(const char *name);
int db_destroy(db_driver *drv);
int db_driver_family(db_driver *drv);          /* 0 SQL, 1 KV */

/* A connection counting for worker `w` (its statements, errors and reconnects go into w's
   counters); when it cannot be made, NULL and why in `why` ("" when the driver logged the
   reason itself, as 1.0.20 did: the script's error then adds none). db_connection_create():
   for the worker bound to the calling thread (1.0.20's name, which scripts may call). */
db_conn *db_worker_connect(db_driver *drv, struct worker *w, char *why, size_t why_size);
db_conn *db_connection_create(db_driver *drv);
int db_connection_close(db_conn *con);
int db_connection_reconnect(db_conn *con);
/* Why the connection's last reconnect failed; "" when the driver did not say. */
const char *db_connect_error(db_conn *con);
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

/* The server the run talks to, as "MariaDB 10.11.6" (drivers call this once they know it;
   the first call wins). NULL until then. */
void db_note_server_version(const char *version);
/* After a run, what a driver reports about its engine (--rocksdb-stats), for the result
   file: a count by name (replacing an earlier one), and the engine's own text of them. */
void db_note_driver_statistic(const char *name, uint64_t value);
void db_note_driver_statistics_text(const char *text);

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

/* Why connecting `con` failed, for the script's error message (never holds a password). */
void db_set_connect_error(db_conn *con, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The driver logged the reason itself, as 1.0.20 did: the script's error then adds none. */
void db_connect_error_logged(db_conn *con);
/* True for the first caller in the run: a driver prints why a connection failed only then
   (every thread of a run whose server is down would say the same); in exact mode for every
   caller, as 1.0.20 says it in every thread. */
bool db_connect_failure_first(void);

/* Set the connection's error: its class and fields (the texts are copied into the
   connection). */
void db_set_error(db_conn *con, driver_error_class cls, int sql_errno, const char *sql_state,
                  const char *message);
void db_clear_error(db_conn *con);
/* The script misused the API, or an error the driver reported itself (1.0.20's driver lines):
   the script gets "SQL API error". */
void db_set_api_error(db_conn *con);
/* 1.0.20's "ALERT: attempt to ..." lines for misuse the Lua layer detects. */
void db_api_alert(const char *what);

/* For other entry points of the layer (db_kv.c): a statement's start (frees the previous
   result; false if the connection is unusable) and end (counts it, keeps a result set, acts
   on its error). A call that is not counted as a statement, after it failed: act on the
   error the driver set (roll back, reconnect). */
bool db_statement_start(db_conn *con);
db_result *db_statement_finish(db_conn *con, driver_error_class rc);
void db_statement_failed(db_conn *con);
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
