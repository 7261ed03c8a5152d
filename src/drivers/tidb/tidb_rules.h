/*
 * tidb_rules.h: TiDB's rules as pure functions: which server errors restart a transaction,
 * which are transient (back off first), which cannot succeed on retry (and what the user
 * should change), and the DDL / SPLIT / SHOW statements prepare sends. No I/O here, so the
 * unit tests check every rule directly.
 */
#ifndef SB_TIDB_RULES_H
#define SB_TIDB_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/driver_error.h"

/* ---- errors ---- */

typedef struct {
  const unsigned *restart;
  size_t restart_count;
  const unsigned *transient;
  size_t transient_count;
} tidb_error_rules;

/* The default lists: restart 9007, 8002, 8022, 8028, 1213, 1205; transient 9001 to 9005. */
extern const unsigned tidb_default_restart[];
extern const size_t tidb_default_restart_count;
extern const unsigned tidb_default_transient[];
extern const size_t tidb_default_transient_count;

/* TiDB's class of an error: the restart codes (conflicts, schema changes) and the transient
   ones (PD/TiKV time-outs, busy stores, unavailable regions) restart the transaction, those
   retrying cannot fix are fatal (tidb_error_advice says what to change); for any other error
   `chosen`, what --mysql-ignore-errors and the reconnect rules decided, stands. */
driver_error_class tidb_error_class(const tidb_error_rules *rules, unsigned sql_errno,
                                    driver_error_class chosen);

/* A transient error: the transaction restarts after a back-off (tidb_backoff_ms). */
bool tidb_error_transient(const tidb_error_rules *rules, unsigned sql_errno);

/* A short name of a TiDB error ("write conflict"), or NULL for codes we do not know. */
const char *tidb_error_name(unsigned sql_errno);

/* For errors retrying cannot fix (8004 transaction too large, 8025 entry too large, ...):
   what to change. NULL for other codes. */
const char *tidb_error_advice(unsigned sql_errno);

/* Back-off before retrying the n-th consecutive transient error (n >= 1): exponential from
   2 ms, capped at max_ms; `jitter` in [0, 1) spreads threads apart. Milliseconds. */
unsigned tidb_backoff_ms(unsigned n, unsigned max_ms, double jitter);

/* ---- prepare statements ---- */

typedef enum {
  TIDB_CLUSTERED_DEFAULT,  /* leave it to the server (tidb_enable_clustered_index) */
  TIDB_CLUSTERED_ON,
  TIDB_CLUSTERED_OFF
} tidb_clustered_mode;

typedef struct {
  tidb_clustered_mode clustered;
  unsigned shard_row_id_bits;    /* 0: none */
  bool auto_random;              /* id BIGINT AUTO_RANDOM instead of INTEGER AUTO_INCREMENT */
  bool auto_inc;                 /* --auto_inc */
  bool secondary_pk;             /* --secondary: KEY xid (id) instead of the primary key */
  bool index_k;                  /* create the index on k with the table (before loading) */
  const char *engine;            /* --mysql_storage_engine */
  const char *extra;             /* --create_table_options */
} tidb_table_spec;

/* Check a spec against TiDB's rules; false with the reason in `why`. */
bool tidb_table_spec_valid(const tidb_table_spec *spec, char *why, size_t why_len);

/* Each writes a NUL-terminated statement into buf and returns its length, or -1 if it did
   not fit. */
int tidb_create_table_sql(char *buf, size_t len, unsigned table, const tidb_table_spec *spec);
/* TiDB refuses (error 8212) to split an integer key range into regions of fewer than this
   many keys. */
#define TIDB_MIN_KEYS_PER_REGION 1000
extern const unsigned tidb_min_keys_per_region;   /* the same, for Lua */

/* How many regions of rows TiDB accepts for a table of `rows` rows when `regions` are asked
   for: `regions` when the split covers the whole row id space (auto random ids, a sharded or
   non-clustered key), otherwise at most rows / TIDB_MIN_KEYS_PER_REGION. Below 2 there is
   nothing to split. */
unsigned tidb_split_regions_accepted(uint64_t rows, unsigned regions,
                                     const tidb_table_spec *spec);
/* Pre-split the table's rows (ids 1..rows) into `regions` regions. */
int tidb_split_table_sql(char *buf, size_t len, unsigned table, uint64_t rows,
                         unsigned regions, const tidb_table_spec *spec);
/* Pre-split the index on k (values 1..rows) into `regions` regions. */
int tidb_split_index_sql(char *buf, size_t len, unsigned table, uint64_t rows,
                         unsigned regions);
int tidb_show_regions_sql(char *buf, size_t len, unsigned table);
/* Whether a region of SHOW TABLE ... REGIONS (given its END_KEY as shown, "t_<id>_r_<n>",
   "t_<id>_i_<index>_<hex>", ...) holds rows of table `table_id`: the listing also names the
   regions of the table's indexes, which end at or before the table's first row key. */
bool tidb_region_holds_rows(const char *end_key, int64_t table_id);

/* Parse --tidb-session-vars ("name=value,name='a,b',..."; commas inside quotes are kept)
   into "SET SESSION name = value" statements, at most `max`. Returns the count, or -1 with
   the reason in `why`. The statements are malloc'ed; free them with free(). */
int tidb_session_statements(const char *spec, char **out, int max, char *why, size_t why_len);

#endif
