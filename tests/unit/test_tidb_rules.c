/*
 * test_tidb_rules.c: TiDB's error classes, back-off, and the DDL / SPLIT / SET statements
 * the tidb driver sends, checked text for text.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "drivers/tidb/tidb_rules.h"

static const tidb_error_rules defaults = {
  tidb_default_restart, 6, tidb_default_transient, 5,
};

/* What --mysql-ignore-errors decided, for the rules to keep or overrule. */
#define LISTED DRIVER_ERROR_IGNORE
#define UNLISTED DRIVER_ERROR_FATAL

/* Restarts the transaction at once: no back-off. */
static bool restarts(const tidb_error_rules *rules, unsigned code)
{
  return tidb_error_class(rules, code, UNLISTED) == DRIVER_ERROR_RESTART_TRANSACTION &&
         !tidb_error_transient(rules, code);
}

/* Backs off, then restarts the transaction. */
static bool transient(const tidb_error_rules *rules, unsigned code)
{
  return tidb_error_class(rules, code, UNLISTED) == DRIVER_ERROR_RESTART_TRANSACTION &&
         tidb_error_transient(rules, code);
}

/* Fatal whatever --mysql-ignore-errors says. */
static bool hopeless(const tidb_error_rules *rules, unsigned code)
{
  return tidb_error_class(rules, code, LISTED) == DRIVER_ERROR_FATAL;
}

/* Not TiDB's business: what the mysql driver's rules chose stands. */
static bool left_alone(const tidb_error_rules *rules, unsigned code)
{
  return tidb_error_class(rules, code, LISTED) == LISTED &&
         tidb_error_class(rules, code, UNLISTED) == UNLISTED &&
         tidb_error_class(rules, code, DRIVER_ERROR_RECONNECT) == DRIVER_ERROR_RECONNECT &&
         !tidb_error_transient(rules, code);
}

static void errors(void)
{
  static const unsigned restart[] = {9007, 8002, 8022, 8028, 1213, 1205};
  for (size_t i = 0; i < sizeof(restart) / sizeof(restart[0]); i++)
    ok(restarts(&defaults, restart[i]),
       "error %u restarts the transaction by default", restart[i]);
  for (unsigned code = 9001; code <= 9005; code++)
    ok(transient(&defaults, code),
       "error %u is transient (back off, then restart) by default", code);
  ok(hopeless(&defaults, 8004),
     "8004 (transaction too large) cannot be retried");
  ok(hopeless(&defaults, 8025),
     "8025 (entry too large) cannot be retried");
  ok(strstr(tidb_error_advice(8004), "txn-total-size-limit") != NULL,
     "8004's advice names txn-total-size-limit");
  ok(strstr(tidb_error_advice(8025), "txn-entry-size-limit") != NULL,
     "8025's advice names txn-entry-size-limit");
  ok(hopeless(&defaults, 8216) &&
     strstr(tidb_error_advice(8216), "--tidb-auto-random") != NULL,
     "8216 (explicit id on an AUTO_RANDOM column) is fatal, naming --tidb-auto-random");
  ok(left_alone(&defaults, 2013) &&
     strstr(tidb_error_name(2013), "connection lost") != NULL,
     "2013 is named for the report and left to the reconnect rules");
  ok(left_alone(&defaults, 1146),
     "a SQL error such as 1146 is left to --mysql-ignore-errors");
  ok(tidb_error_advice(9007) == NULL && strcmp(tidb_error_name(9007), "write conflict") == 0,
     "9007 is named 'write conflict' and needs no advice");

  static const unsigned only[] = {1062};
  tidb_error_rules custom = {only, 1, NULL, 0};
  ok(restarts(&custom, 1062),
     "--tidb-retry-errors replaces the restart list (1062 restarts)");
  ok(left_alone(&custom, 9007),
     "... and 9007 is then no longer restarted");
  ok(left_alone(&custom, 9003),
     "... and an empty transient list backs off nothing");
}

static void backoff(void)
{
  ok_num(tidb_backoff_ms(1, 1000, 0.0), ==, 1, "first back-off: 1 ms without jitter");
  ok_num(tidb_backoff_ms(1, 1000, 0.999), <=, 2, "first back-off: at most 2 ms");
  ok_num(tidb_backoff_ms(5, 1000, 0.0), ==, 16, "fifth consecutive back-off: 16..32 ms");
  ok_num(tidb_backoff_ms(40, 1000, 0.999), <=, 1000, "back-off never exceeds the maximum");
  ok_num(tidb_backoff_ms(40, 1000, 0.0), ==, 500, "a long run of errors waits max/2..max");
}

static tidb_table_spec base(void)
{
  tidb_table_spec s = {0};
  s.auto_inc = true;
  s.engine = "innodb";
  s.extra = "";
  return s;
}

static void ddl(void)
{
  char sql[1024], why[256];
  tidb_table_spec s = base();

  tidb_create_table_sql(sql, sizeof(sql), 3, &s);
  ok(strcmp(sql, "CREATE TABLE sbtest3(\n  id INTEGER NOT NULL AUTO_INCREMENT,\n"
                 "  k INTEGER DEFAULT '0' NOT NULL,\n  c CHAR(120) DEFAULT '' NOT NULL,\n"
                 "  pad CHAR(60) DEFAULT '' NOT NULL,\n  PRIMARY KEY (id)\n"
                 ") /*! ENGINE = innodb */ ") == 0,
     "default options give 1.0.20's CREATE TABLE exactly");

  s.clustered = TIDB_CLUSTERED_ON;
  s.index_k = true;
  tidb_create_table_sql(sql, sizeof(sql), 1, &s);
  ok(strstr(sql, "PRIMARY KEY (id) /*T![clustered_index] CLUSTERED */,\n  KEY k_1 (k)\n") != NULL,
     "--tidb-clustered-index=on marks the key CLUSTERED; the k index comes with the table");

  s = base();
  s.clustered = TIDB_CLUSTERED_OFF;
  s.shard_row_id_bits = 4;
  ok(tidb_table_spec_valid(&s, why, sizeof(why)), "shard bits with a nonclustered key are valid");
  tidb_create_table_sql(sql, sizeof(sql), 2, &s);
  ok(strstr(sql, "PRIMARY KEY (id) /*T![clustered_index] NONCLUSTERED */") != NULL &&
     strstr(sql, "/*T! SHARD_ROW_ID_BITS = 4 */") != NULL,
     "--tidb-shard-row-id-bits=4 adds SHARD_ROW_ID_BITS = 4 to a NONCLUSTERED table");
  tidb_split_table_sql(sql, sizeof(sql), 2, 1000, 8, &s);
  ok(strcmp(sql, "SPLIT TABLE sbtest2 BETWEEN (0) AND (9223372036854775807) REGIONS 8") == 0,
     "a sharded table is split over its whole row id space");

  s = base();
  s.shard_row_id_bits = 4;
  ok(!tidb_table_spec_valid(&s, why, sizeof(why)) &&
     strstr(why, "--tidb-clustered-index=off") != NULL,
     "shard bits without --tidb-clustered-index=off are refused, naming the fix");

  s = base();
  s.auto_random = true;
  ok(tidb_table_spec_valid(&s, why, sizeof(why)), "auto_random on a clustered key is valid");
  tidb_create_table_sql(sql, sizeof(sql), 1, &s);
  ok(strstr(sql, "id BIGINT NOT NULL /*T![auto_rand] AUTO_RANDOM */") != NULL &&
     strstr(sql, "CLUSTERED */") != NULL,
     "--tidb-auto-random makes id a clustered BIGINT AUTO_RANDOM");
  s.clustered = TIDB_CLUSTERED_OFF;
  ok(!tidb_table_spec_valid(&s, why, sizeof(why)), "auto_random with a nonclustered key is refused");

  s = base();
  tidb_split_table_sql(sql, sizeof(sql), 1, 1000000, 16, &s);
  ok(strcmp(sql, "SPLIT TABLE sbtest1 BETWEEN (1) AND (1000001) REGIONS 16") == 0,
     "ids 1..N are split evenly into N regions");
  tidb_split_index_sql(sql, sizeof(sql), 1, 1000000, 16);
  ok(strcmp(sql, "SPLIT TABLE sbtest1 INDEX k_1 BETWEEN (1) AND (1000001) REGIONS 16") == 0,
     "the k index is split over k's range 1..N");
  tidb_show_regions_sql(sql, sizeof(sql), 7);
  ok(strcmp(sql, "SHOW TABLE sbtest7 REGIONS") == 0, "regions are counted with SHOW TABLE ... REGIONS");
  ok(tidb_split_table_sql(sql, 10, 1, 1000000, 16, &s) == -1, "a buffer too small is reported");

  /* TiDB wants at least 1000 ids per region of an id range (error 8212 otherwise). */
  ok(tidb_split_regions_accepted(1000000, 16, &s) == 16, "a big table gets the regions asked for");
  ok(tidb_split_regions_accepted(2000, 4, &s) == 2, "2000 rows split into 2 regions, not 4");
  ok(tidb_split_regions_accepted(3999, 4, &s) == 3, "3999 rows: 3 regions of at least 1000 ids");
  ok(tidb_split_regions_accepted(999, 4, &s) == 0, "fewer than 1000 rows: no split");
  ok(tidb_split_regions_accepted(0, 4, &s) == 0, "an empty table: no split");
  s.auto_random = true;
  ok(tidb_split_regions_accepted(2000, 4, &s) == 4,
     "random ids spread over the whole id space: any number of regions");
  s = base();
  s.clustered = TIDB_CLUSTERED_OFF;
  ok(tidb_split_regions_accepted(10, 8, &s) == 8, "hidden row ids: any number of regions");

  /* SHOW TABLE t REGIONS lists the index regions too; only some hold rows. */
  ok(tidb_region_holds_rows("t_110_r_1001", 110), "a region ending inside the rows holds rows");
  ok(tidb_region_holds_rows("t_112_", 110), "a region ending in the next table holds rows");
  ok(tidb_region_holds_rows("", 110), "the last region of the key space holds rows");
  ok(!tidb_region_holds_rows("t_110_i_1_0380000000000003e9030000000000", 110),
     "a region ending inside an index holds no rows");
  ok(!tidb_region_holds_rows("t_110_i_2_", 110), "a region ending after an index holds no rows");
  ok(!tidb_region_holds_rows("t_110_r", 110), "a region ending at the first row key holds no rows");
  ok(!tidb_region_holds_rows("t_110_", 110), "a region ending at the table's start holds no rows");
  ok(tidb_region_holds_rows("t_1100_i_1_", 110), "a longer table id is another table");
}

static void session_vars(void)
{
  char *st[8], why[256];
  int n = tidb_session_statements("tidb_txn_mode=optimistic, tidb_retry_limit=10,"
                                  "sql_mode='STRICT_ALL_TABLES,NO_ZERO_DATE', autocommit=ON",
                                  st, 8, why, sizeof(why));
  ok_num(n, ==, 4, "four variables, a comma inside quotes kept");
  if (n == 4) {
    ok(strcmp(st[0], "SET SESSION tidb_txn_mode = 'optimistic'") == 0, "a word value is quoted");
    ok(strcmp(st[1], "SET SESSION tidb_retry_limit = 10") == 0, "a number stays a number");
    ok(strcmp(st[2], "SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_DATE'") == 0,
       "a quoted value is kept as given");
    ok(strcmp(st[3], "SET SESSION autocommit = ON") == 0, "ON stays a keyword");
  }
  for (int i = 0; i < n; i++)
    free(st[i]);
  ok(tidb_session_statements("novalue", st, 8, why, sizeof(why)) == -1 &&
     strstr(why, "not name=value") != NULL, "an item without '=' is refused");
  ok(tidb_session_statements("x y=1", st, 8, why, sizeof(why)) == -1 &&
     strstr(why, "not a variable name") != NULL, "a name with a space is refused");
  ok(tidb_session_statements("a='open", st, 8, why, sizeof(why)) == -1,
     "an unclosed quote is refused");
  ok_num(tidb_session_statements("", st, 8, why, sizeof(why)), ==, 0, "no variables: nothing to set");
}

int main(void)
{
  errors();
  backoff();
  ddl();
  session_vars();
  return tap_done();
}
