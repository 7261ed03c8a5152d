/*
 * tidb_rules.c: TiDB's error classes and the statements prepare sends to TiDB (see
 * tidb_rules.h). Error codes and their meaning come from TiDB's documentation
 * ("error codes": retry the whole transaction on 8002, 8022, 8028, 9007; 9001..9005 are PD
 * and TiKV time-outs, busy stores and unavailable regions).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tidb_rules.h"

const unsigned tidb_default_restart[] = {9007, 8002, 8022, 8028, 1213, 1205};
const size_t tidb_default_restart_count =
    sizeof(tidb_default_restart) / sizeof(tidb_default_restart[0]);
const unsigned tidb_default_transient[] = {9001, 9002, 9003, 9004, 9005};
const size_t tidb_default_transient_count =
    sizeof(tidb_default_transient) / sizeof(tidb_default_transient[0]);

static bool listed(const unsigned *list, size_t n, unsigned code)
{
  for (size_t i = 0; i < n; i++)
    if (list[i] == code)
      return true;
  return false;
}

driver_error_class tidb_error_class(const tidb_error_rules *rules, unsigned sql_errno,
                                    driver_error_class chosen)
{
  if (listed(rules->restart, rules->restart_count, sql_errno) ||
      tidb_error_transient(rules, sql_errno))
    return DRIVER_ERROR_RESTART_TRANSACTION;
  if (tidb_error_advice(sql_errno) != NULL)
    return DRIVER_ERROR_FATAL;
  return chosen;
}

bool tidb_error_transient(const tidb_error_rules *rules, unsigned sql_errno)
{
  return listed(rules->transient, rules->transient_count, sql_errno) &&
         !listed(rules->restart, rules->restart_count, sql_errno);
}

static const struct {
  unsigned code;
  const char *name;
  const char *advice;
} known[] = {
  {8002, "SELECT FOR UPDATE write conflict", NULL},
  {8004, "transaction too large",
   "the transaction is larger than TiDB's txn-total-size-limit: make transactions smaller "
   "(fewer rows per statement or per BEGIN/COMMIT) or raise txn-total-size-limit in the TiDB "
   "configuration"},
  {8005, "write conflict (old)", NULL},
  {8022, "commit failed, transaction rolled back", NULL},
  {8025, "entry too large",
   "a single row or index entry is larger than TiDB's txn-entry-size-limit (6 MB by "
   "default): store smaller values or raise txn-entry-size-limit in the TiDB configuration"},
  {8027, "schema outdated", NULL},
  {8216, "explicit id on an AUTO_RANDOM column",
   "the table's id is AUTO_RANDOM (prepared with --tidb-auto-random?) and the workload writes "
   "ids itself: give --tidb-auto-random to this command too, or "
   "--tidb-session-vars=allow_auto_random_explicit_insert=1"},
  {8028, "information schema changed", NULL},
  {9001, "PD server timeout", NULL},
  {9002, "TiKV server timeout", NULL},
  {9003, "TiKV server is busy", NULL},
  {9004, "resolve lock timeout", NULL},
  {9005, "region unavailable", NULL},
  {9006, "GC life time is shorter than transaction duration",
   "a transaction ran longer than tidb_gc_life_time: shorten it or raise tidb_gc_life_time"},
  {9007, "write conflict", NULL},
  {9500, "transaction too large (size)",
   "the transaction is larger than TiDB allows: make transactions smaller or raise "
   "txn-total-size-limit in the TiDB configuration"},
  {1205, "lock wait timeout", NULL},
  {1317, "query interrupted", NULL},
  {2006, "server gone away (reconnected)", NULL},
  {2011, "connection error (reconnected)", NULL},
  {2013, "connection lost (reconnected)", NULL},
  {2055, "connection lost (reconnected)", NULL},
  {1213, "deadlock", NULL},
};

const char *tidb_error_name(unsigned sql_errno)
{
  for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
    if (known[i].code == sql_errno)
      return known[i].name;
  return NULL;
}

const char *tidb_error_advice(unsigned sql_errno)
{
  for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
    if (known[i].code == sql_errno)
      return known[i].advice;
  return NULL;
}

unsigned tidb_backoff_ms(unsigned n, unsigned max_ms, double jitter)
{
  double ms = 2;
  for (unsigned i = 1; i < n && ms < max_ms; i++)
    ms *= 2;
  if (ms > max_ms)
    ms = max_ms;
  /* full jitter in the upper half: between ms/2 and ms */
  ms = ms / 2 + ms / 2 * jitter;
  return ms < 1 ? 1 : (unsigned) ms;
}

/* ------------------------------------------------------------------------------------------ */
/* Statements                                                                                 */
/* ------------------------------------------------------------------------------------------ */

bool tidb_table_spec_valid(const tidb_table_spec *s, char *why, size_t why_len)
{
  if (s->shard_row_id_bits > 15) {
    snprintf(why, why_len, "--tidb-shard-row-id-bits must be 0 to 15");
    return false;
  }
  if (s->shard_row_id_bits > 0 && s->clustered != TIDB_CLUSTERED_OFF && !s->secondary_pk) {
    snprintf(why, why_len, "--tidb-shard-row-id-bits needs --tidb-clustered-index=off: a "
             "clustered integer primary key has no row id to shard");
    return false;
  }
  if (s->auto_random && (s->clustered == TIDB_CLUSTERED_OFF || s->secondary_pk)) {
    snprintf(why, why_len, "--tidb-auto-random needs a clustered primary key on id "
             "(--tidb-clustered-index=on or default, and --secondary=off)");
    return false;
  }
  if (s->auto_random && s->shard_row_id_bits > 0) {
    snprintf(why, why_len, "--tidb-auto-random and --tidb-shard-row-id-bits exclude each "
             "other: choose one way to scatter rows");
    return false;
  }
  return true;
}

static const char *clustered_clause(const tidb_table_spec *s)
{
  if (s->auto_random)
    return " /*T![clustered_index] CLUSTERED */";
  switch (s->clustered) {
    case TIDB_CLUSTERED_ON:  return " /*T![clustered_index] CLUSTERED */";
    case TIDB_CLUSTERED_OFF: return " /*T![clustered_index] NONCLUSTERED */";
    default:                 return "";
  }
}

static int finish(int n, size_t len)
{
  return n < 0 || (size_t) n >= len ? -1 : n;
}

int tidb_create_table_sql(char *buf, size_t len, unsigned table, const tidb_table_spec *s)
{
  const char *id_type = s->auto_random ? "BIGINT NOT NULL /*T![auto_rand] AUTO_RANDOM */"
                        : s->auto_inc ? "INTEGER NOT NULL AUTO_INCREMENT" : "INTEGER NOT NULL";
  char key[160], index_k[64] = "", options[320];

  if (s->secondary_pk)
    snprintf(key, sizeof(key), "KEY xid (id)");
  else
    snprintf(key, sizeof(key), "PRIMARY KEY (id)%s", clustered_clause(s));
  if (s->index_k)
    snprintf(index_k, sizeof(index_k), ",\n  KEY k_%u (k)", table);
  int n = snprintf(options, sizeof(options), "/*! ENGINE = %s */",
                   s->engine != NULL && *s->engine ? s->engine : "innodb");
  if (s->shard_row_id_bits > 0)
    n += snprintf(options + n, sizeof(options) - (size_t) n,
                  " /*T! SHARD_ROW_ID_BITS = %u */", s->shard_row_id_bits);
  return finish(snprintf(buf, len,
                         "CREATE TABLE sbtest%u(\n"
                         "  id %s,\n"
                         "  k INTEGER DEFAULT '0' NOT NULL,\n"
                         "  c CHAR(120) DEFAULT '' NOT NULL,\n"
                         "  pad CHAR(60) DEFAULT '' NOT NULL,\n"
                         "  %s%s\n"
                         ") %s %s",
                         table, id_type, key, index_k, options,
                         s->extra != NULL ? s->extra : ""), len);
}

/* Rows keyed by a random id, or by the hidden row id of a sharded or non-clustered table,
   spread over the whole handle space. Otherwise the ids 1..rows are the keys. */
static bool split_whole_handle_space(const tidb_table_spec *s)
{
  return s->auto_random || s->shard_row_id_bits > 0 || s->clustered == TIDB_CLUSTERED_OFF ||
         s->secondary_pk;
}

const unsigned tidb_min_keys_per_region = TIDB_MIN_KEYS_PER_REGION;

unsigned tidb_split_regions_accepted(uint64_t rows, unsigned regions, const tidb_table_spec *s)
{
  if (split_whole_handle_space(s))
    return regions;
  /* TiDB splits the ids 1..rows + 1 in steps of rows / regions and wants each step to hold
     at least TIDB_MIN_KEYS_PER_REGION ids. */
  uint64_t most = rows / TIDB_MIN_KEYS_PER_REGION;
  return most < regions ? (unsigned) most : regions;
}

int tidb_split_table_sql(char *buf, size_t len, unsigned table, uint64_t rows,
                         unsigned regions, const tidb_table_spec *s)
{
  if (split_whole_handle_space(s))
    return finish(snprintf(buf, len, "SPLIT TABLE sbtest%u BETWEEN (0) AND "
                           "(9223372036854775807) REGIONS %u", table, regions), len);
  return finish(snprintf(buf, len, "SPLIT TABLE sbtest%u BETWEEN (1) AND (%llu) REGIONS %u",
                         table, (unsigned long long) rows + 1, regions), len);
}

int tidb_split_index_sql(char *buf, size_t len, unsigned table, uint64_t rows,
                         unsigned regions)
{
  return finish(snprintf(buf, len, "SPLIT TABLE sbtest%u INDEX k_%u BETWEEN (1) AND (%llu) "
                         "REGIONS %u", table, table, (unsigned long long) rows + 1, regions),
                len);
}

int tidb_show_regions_sql(char *buf, size_t len, unsigned table)
{
  return finish(snprintf(buf, len, "SHOW TABLE sbtest%u REGIONS", table), len);
}

bool tidb_region_holds_rows(const char *end_key, int64_t table_id)
{
  char prefix[32];
  int n = snprintf(prefix, sizeof(prefix), "t_%lld_", (long long) table_id);

  if (end_key == NULL || strncmp(end_key, prefix, (size_t) n) != 0)
    return true;         /* ends in a later table, or at the end of the key space */
  const char *rest = end_key + n;
  /* Index keys ("i...") sort before row keys ("r"); a region ending at the first row key,
     or at the table's start, holds none. */
  return !(*rest == '\0' || *rest == 'i' || strcmp(rest, "r") == 0);
}

/* ---- --tidb-session-vars ---- */

static bool valid_name(const char *s, size_t n)
{
  if (n == 0)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!isalnum((unsigned char) s[i]) && s[i] != '_' && s[i] != '.' && s[i] != '@')
      return false;
  return true;
}

/* A value as SQL: numbers, ON/OFF/DEFAULT and quoted strings stay; anything else is quoted. */
static char *sql_value(const char *v, size_t n)
{
  bool numeric = n > 0, word = n > 0;
  for (size_t i = 0; i < n; i++) {
    numeric &= isdigit((unsigned char) v[i]) || v[i] == '.' || (i == 0 && v[i] == '-');
    word &= isalpha((unsigned char) v[i]) != 0;
  }
  bool quoted = n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0];
  static const char *const keywords[] = {"on", "off", "true", "false", "default"};
  bool keyword = false;
  for (size_t i = 0; word && i < sizeof(keywords) / sizeof(keywords[0]); i++)
    keyword |= strlen(keywords[i]) == n && strncasecmp(v, keywords[i], n) == 0;
  char *out = malloc(2 * n + 3);
  if (out == NULL)
    return NULL;
  if (numeric || quoted || keyword) {
    memcpy(out, v, n);
    out[n] = '\0';
    return out;
  }
  size_t k = 0;
  out[k++] = '\'';
  for (size_t i = 0; i < n; i++) {
    if (v[i] == '\'' || v[i] == '\\')
      out[k++] = v[i] == '\'' ? '\'' : '\\';
    out[k++] = v[i];
  }
  out[k++] = '\'';
  out[k] = '\0';
  return out;
}

int tidb_session_statements(const char *spec, char **out, int max, char *why, size_t why_len)
{
  int count = 0;
  const char *p = spec != NULL ? spec : "";

  while (*p != '\0') {
    while (*p == ' ' || *p == ',')
      p++;
    if (*p == '\0')
      break;
    /* one item: up to a comma outside quotes */
    const char *start = p;
    char quote = 0;
    for (; *p != '\0' && (quote || *p != ','); p++) {
      if (quote && *p == quote)
        quote = 0;
      else if (!quote && (*p == '\'' || *p == '"'))
        quote = *p;
    }
    const char *end = p;
    while (end > start && end[-1] == ' ')
      end--;
    const char *eq = memchr(start, '=', (size_t) (end - start));
    if (quote || eq == NULL) {
      snprintf(why, why_len, "--tidb-session-vars: '%.*s' is not name=value (with quotes "
               "closed)", (int) (end - start), start);
      goto fail;
    }
    const char *name_end = eq;
    while (name_end > start && name_end[-1] == ' ')
      name_end--;
    const char *value = eq + 1;
    while (*value == ' ')
      value++;
    if (!valid_name(start, (size_t) (name_end - start))) {
      snprintf(why, why_len, "--tidb-session-vars: '%.*s' is not a variable name",
               (int) (name_end - start), start);
      goto fail;
    }
    if (value == end) {
      snprintf(why, why_len, "--tidb-session-vars: no value for '%.*s'",
               (int) (name_end - start), start);
      goto fail;
    }
    if (count == max) {
      snprintf(why, why_len, "--tidb-session-vars: more than %d variables", max);
      goto fail;
    }
    char *v = sql_value(value, (size_t) (end - value));
    size_t size = (size_t) (name_end - start) + strlen(v != NULL ? v : "") + 32;
    out[count] = v != NULL ? malloc(size) : NULL;
    if (out[count] == NULL) {
      free(v);
      snprintf(why, why_len, "out of memory");
      goto fail;
    }
    snprintf(out[count], size, "SET SESSION %.*s = %s", (int) (name_end - start), start, v);
    free(v);
    count++;
  }
  return count;

fail:
  for (int i = 0; i < count; i++)
    free(out[i]);
  return -1;
}
