/*
 * sql_load.h: loading and checking the sbtest tables through a SQL driver, for `prepare` and
 * `verify` of the bundled workloads (the Lua backends say which SQL; this is the row work).
 * Rows come from sbtest_rows.c and go to the server as one stream per block (LOAD DATA LOCAL
 * INFILE or COPY, through db_stream_in) or as multi-row INSERTs of at most a given size, one
 * transaction per block. Progress goes to load_state.c.
 */
#ifndef SB_SQL_LOAD_H
#define SB_SQL_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "db.h"

typedef enum {
  SQL_LOAD_INSERT = 0,
  SQL_LOAD_STREAM = 1
} sql_load_method;

/* Return values of the exported functions besides 0. */
#define SQL_LOAD_ERROR -1      /* the connection's error says what */
#define SQL_LOAD_STOPPED -2    /* Ctrl-C, or another thread failed */

/* One table, as Lua describes it (sysbench.load, through FFI). */
typedef struct {
  uint32_t table;                 /* N of sbtestN */
  uint64_t table_size;            /* --table-size */
  uint64_t seed;                  /* the seed of the rows */
  const char *c_template;
  const char *pad_template;
  int method;                     /* sql_load_method */
  const char *insert_prefix;      /* "INSERT INTO sbtestN(id, k, c, pad) VALUES" */
  const char *stream_statement;   /* "LOAD DATA LOCAL INFILE ..." or "COPY ... FROM STDIN" */
  uint64_t statement_bytes;       /* the longest INSERT to send */
  bool transactions;              /* BEGIN / COMMIT around the INSERTs of a block */
  bool resume;                    /* look at every block first: keep complete ones */
  bool compare_contents;          /* verify: compare rows with the generated ones */
} sql_table_spec;

/* Load ids first..last (whole blocks). */
int sb_sql_load_range(db_conn *con, const sql_table_spec *spec, int64_t first, int64_t last);
/* Verify: read ids first..last back, in id order, and add what is wrong to the table's
   verify result. */
int sb_sql_verify_range(db_conn *con, const sql_table_spec *spec, int64_t first,
                        int64_t last);

/* How the index on k looked to the finisher of a verified table. */
typedef enum {
  VERIFY_INDEX_NOT_WANTED = 0,    /* --create_secondary=off, and there is none */
  VERIFY_INDEX_READ = 1,          /* read: its count and sums are given */
  VERIFY_INDEX_MISSING = 2,       /* wanted, but the table has none */
  VERIFY_INDEX_UNEXPECTED = 3     /* not wanted, but there is one */
} verify_index_state;

/* The finisher of a verified table: rows with ids outside 1..table_size, the index against
   the rows; prints the table's verdict. 0 right, 1 wrong, SQL_LOAD_ERROR. */
int sb_sql_verify_table(db_conn *con, const sql_table_spec *spec, int index_state,
                        const char *index_name, uint64_t index_rows, uint64_t index_sum_k,
                        uint64_t index_sum_id);
/* A verdict reached elsewhere (a missing table, the RocksDB check): printed, and counted
   as wrong unless ok. */
void sb_load_verify_verdict(uint32_t table, int ok, const char *text);

#endif
