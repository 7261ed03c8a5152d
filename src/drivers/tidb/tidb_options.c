/*
 * tidb_options.c: the --tidb-* options and their checks. Connection options are the mysql
 * driver's (--mysql-host, --mysql-port, ...), so a config file written for
 * --db-driver=mysql --mysql-port=4000 works with only db-driver changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logger.h"
#include "options.h"
#include "tidb_driver.h"

#define MAX_SESSION_VARS 64

tidb_settings tidb_config;

static const char *const txn_modes[] = {"", "pessimistic", "optimistic", NULL};
static const char *const clustered_kinds[] = {"on", "off", "default", NULL};

/* --tidb-session-vars must read as name=value,...: said before anything runs (the driver's
   start then says why in detail, which cannot happen any more). */
static bool session_vars_ok(const char *spec)
{
  char *statements[MAX_SESSION_VARS];
  char why[256];
  int n = tidb_session_statements(spec, statements, MAX_SESSION_VARS, why, sizeof(why));
  for (int i = 0; i < n; i++)
    free(statements[i]);
  return n >= 0;
}

/* Ranges, words and the session variables are checked by the option registry before
   anything runs. */
const option_decl tidb_args[] = {
  {.name = "tidb-retry-errors", .desc = "TiDB errors that restart the transaction at once (write "
   "conflicts, schema changes, deadlocks, lock wait time-outs)", .default_text = "9007,8002,8022,8028,1213,1205", .type = SB_ARG_TYPE_LIST,
   .ranged = true, .min = 1, .max = 65535, .expect = "a list of error numbers, e.g. 9007,8002"},
  {.name = "tidb-transient-errors", .desc = "TiDB errors that are transient (PD/TiKV time-outs, busy "
   "stores, unavailable regions): back off, then restart the transaction", .default_text = "9001,9002,9003,9004,9005", .type = SB_ARG_TYPE_LIST,
   .ranged = true, .min = 1, .max = 65535, .expect = "a list of error numbers, e.g. 9007,8002"},
  {.name = "tidb-backoff-max", .desc = "longest back-off after transient errors or an unreachable server, "
   "in milliseconds", .default_text = "2000", .type = SB_ARG_TYPE_INT, .ranged = true,
   .min = 1, .max = 600000, .expect = "1 to 600000 milliseconds"},
  {.name = "tidb-txn-mode", .desc = "transaction mode set on every connection {pessimistic, optimistic}; "
   "empty keeps the server's", .default_text = "", .type = SB_ARG_TYPE_STRING,
   .choices = txn_modes, .any_case = true, .expect = "pessimistic or optimistic"},
  {.name = "tidb-session-vars", .desc = "session variables set on every (re)connect: name=value,...", .default_text = "", .type = SB_ARG_TYPE_STRING,
   .item_ok = session_vars_ok, .expect = "name=value pairs separated by commas (at most 64), "
   "e.g. tidb_mem_quota_query=1073741824"},
  {.name = "tidb-split-regions", .desc = "prepare: pre-split each table and its index on k into this many "
   "regions before loading (0: no split)", .default_text = "0", .type = SB_ARG_TYPE_INT,
   .ranged = true, .min = 0, .max = 100000},
  {.name = "tidb-clustered-index", .desc = "prepare: primary key kind {on, off, default}", .default_text = "default", .type = SB_ARG_TYPE_STRING,
   .choices = clustered_kinds, .any_case = true},
  {.name = "tidb-shard-row-id-bits", .desc = "prepare: SHARD_ROW_ID_BITS of each table (needs "
   "--tidb-clustered-index=off)", .default_text = "0", .type = SB_ARG_TYPE_INT, .ranged = true,
   .min = 0, .max = 15},
  {.name = "tidb-auto-random", .desc = "prepare: id becomes BIGINT AUTO_RANDOM instead of AUTO_INCREMENT; "
   "run: the workloads may write ids on such tables", .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = NULL}
};

/* A list option of error numbers (checked by its declaration before anything runs); `option`
   names it in the message. */
static int load_codes(const char *option, const char *const *items, size_t n,
                      error_code_list *list)
{
  const char *bad = error_codes_parse(list, ERROR_CODES_NUMBERS, false, items, n);
  if (bad != NULL && *bad != '\0')
    log_text(LOG_FATAL, "Invalid value for --%s: '%s' (expected a list of error numbers, "
             "e.g. 9007,8002)", option, bad);
  return bad == NULL ? 0 : -1;
}

int tidb_settings_load(void)
{
  tidb_settings *t = &tidb_config;
  char why[256];

  memset(t, 0, sizeof(*t));
  size_t n_restart, n_transient;
  const char *const *restart = opt_list("tidb-retry-errors", &n_restart);
  const char *const *transient = opt_list("tidb-transient-errors", &n_transient);
  if (load_codes("tidb-retry-errors", restart, n_restart, &t->restart_codes) != 0 ||
      load_codes("tidb-transient-errors", transient, n_transient, &t->transient_codes) != 0)
    return -1;
  t->rules.restart = t->restart_codes.numbers;
  t->rules.restart_count = t->restart_codes.count;
  t->rules.transient = t->transient_codes.numbers;
  t->rules.transient_count = t->transient_codes.count;

  /* ranges and words: checked by the declarations before anything runs */
  t->backoff_max_ms = (unsigned) opt_int("tidb-backoff-max");
  const char *mode = opt_string("tidb-txn-mode");
  if (mode == NULL)
    mode = "";

  /* Session statements: the transaction mode, explicit AUTO_RANDOM ids, then the user's
     variables (and a NULL). */
  t->session = calloc(MAX_SESSION_VARS + 3, sizeof(char *));
  if (t->session == NULL)
    return -1;
  if (*mode != '\0') {
    char sql[64];
    snprintf(sql, sizeof(sql), "SET SESSION tidb_txn_mode = '%s'", mode);
    t->session[t->session_count++] = strdup(sql);
  }
  /* AUTO_RANDOM tables: the load writes ids 1..N and the workloads' DELETE/INSERT pairs
     write back the id they deleted; TiDB refuses both (8216) unless the session allows it. */
  if (opt_bool("tidb-auto-random"))
    t->session[t->session_count++] = strdup("SET SESSION allow_auto_random_explicit_insert = 1");
  int n = tidb_session_statements(opt_string("tidb-session-vars"),
                                  t->session + t->session_count, MAX_SESSION_VARS, why,
                                  sizeof(why));
  if (n < 0) {
    log_text(LOG_FATAL, "%s", why);
    return -1;
  }
  t->session_count += n;
  return 0;
}

void tidb_settings_free(void)
{
  tidb_settings *t = &tidb_config;
  for (int i = 0; i < t->session_count; i++)
    free(t->session[i]);
  free(t->session);
  error_codes_free(&t->restart_codes);
  error_codes_free(&t->transient_codes);
  memset(t, 0, sizeof(*t));
}
