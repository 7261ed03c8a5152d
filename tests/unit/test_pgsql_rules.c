/*
 * test_pgsql_rules.c: unit tests for the pgsql driver's rules that need no server: which
 * SQLSTATEs are fatal, ignorable or a lost connection to reconnect (--pgsql-ignore-errors,
 * "all"), the order in which connections take hosts and ports, and how '?' placeholders
 * become $1, $2, ... around PostgreSQL's quoting.
 */
#include "drivers/pgsql/classify.h"
#include "drivers/pgsql/endpoints.h"
#include "drivers/pgsql/placeholders.h"
#include "drivers/pgsql/settings.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

pgsqldrv_settings pgsqldrv_config;

static void ignore(const char *const *items, size_t n)
{
  const char *bad = error_codes_parse(&pgsqldrv_config.ignored, ERROR_CODES_SQLSTATES, true,
                                      items, n);
  if (bad != NULL)
    printf("# unexpected bad item '%s'\n", bad);
}

static void test_classification(void)
{
  const char *const defaults[] = {"40P01", "23505", "40001"};
  const pgsqldrv_settings *c = &pgsqldrv_config;
  ignore(defaults, 3);
  ok(pgsqldrv_classify(c, "40P01", false, false) == DRIVER_ERROR_IGNORE,
     "default list: 40P01 (deadlock) is ignorable");
  ok(pgsqldrv_classify(c, "23505", false, false) == DRIVER_ERROR_IGNORE,
     "default list: 23505 (unique violation) is ignorable");
  ok(pgsqldrv_classify(c, "40001", false, false) == DRIVER_ERROR_IGNORE,
     "default list: 40001 (serialization failure) is ignorable");
  ok(pgsqldrv_classify(c, "40P01", false, true) == DRIVER_ERROR_RESTART_TRANSACTION,
     "default list: 40P01 inside a transaction restarts it (a ROLLBACK first)");
  ok(pgsqldrv_classify(c, "55P03", false, false) == DRIVER_ERROR_FATAL,
     "default list: 55P03 (lock not available) is fatal");
  ok(pgsqldrv_classify(c, "55P03", false, true) == DRIVER_ERROR_FATAL,
     "default list: 55P03 is fatal inside a transaction too");
  ok(pgsqldrv_classify(c, "57P01", true, false) == DRIVER_ERROR_FATAL,
     "default list: a terminated connection (57P01) is fatal");
  ok(pgsqldrv_classify(c, PGSQL_STATE_CONNECTION_FAILURE, true, false) == DRIVER_ERROR_FATAL,
     "default list: a connection lost without a word (08006) is fatal");
  ok(pgsqldrv_classify(c, "", false, false) == DRIVER_ERROR_FATAL,
     "an error without SQLSTATE is fatal");

  const char *const lost[] = {"57P01", "08006"};
  ignore(lost, 2);
  ok(pgsqldrv_classify(c, "57P01", true, false) == DRIVER_ERROR_RECONNECT,
     "57P01 listed, connection gone: reconnect");
  ok(pgsqldrv_classify(c, "08006", true, false) == DRIVER_ERROR_RECONNECT,
     "08006 listed, connection gone: reconnect");
  ok(pgsqldrv_classify(c, "57P01", false, false) == DRIVER_ERROR_IGNORE,
     "57P01 listed, connection still there: ignorable");
  ok(pgsqldrv_classify(c, "40P01", false, false) == DRIVER_ERROR_FATAL,
     "40P01 not listed: fatal");

  const char *const all[] = {"all"};
  ignore(all, 1);
  ok(pgsqldrv_classify(c, "42P01", false, false) == DRIVER_ERROR_IGNORE,
     "all: any error is ignorable");
  ok(pgsqldrv_classify(c, "57P01", true, false) == DRIVER_ERROR_RECONNECT,
     "all: a lost connection is reconnected");

  const char *const lower[] = {"40p01"};
  ignore(lower, 1);
  ok(pgsqldrv_classify(c, "40P01", false, false) == DRIVER_ERROR_IGNORE,
     "a SQLSTATE given in lower case matches");

  const char *const bad[] = {"40001", "1213"};
  const char *got = error_codes_parse(&pgsqldrv_config.ignored, ERROR_CODES_SQLSTATES, true,
                                      bad, 2);
  ok(got != NULL && strcmp(got, "1213") == 0,
     "a list item that is not five characters is named as the bad one");
  const char *const bad2[] = {"40-01"};
  got = error_codes_parse(&pgsqldrv_config.ignored, ERROR_CODES_SQLSTATES, true, bad2, 1);
  ok(got != NULL && strcmp(got, "40-01") == 0, "an item with other characters is refused");
  error_codes_free(&pgsqldrv_config.ignored);
}

static void test_rotation(void)
{
  const char *const hosts[] = {"a", "b"};
  const char *const ports[] = {"5432", "5433", "5434"};
  pgsqldrv_config.hosts = hosts;
  pgsqldrv_config.host_count = 2;
  pgsqldrv_config.ports = ports;
  pgsqldrv_config.port_count = 3;
  ok(pgsqldrv_endpoint_count() == 6, "2 hosts x 3 ports: 6 servers");

  char seen[256] = "";
  for (int i = 0; i < 7; i++) {
    pgsqldrv_endpoint ep;
    pgsqldrv_next_endpoint(&ep);
    char one[32];
    snprintf(one, sizeof(one), "%s%s:%s", i ? " " : "", ep.host, ep.port);
    strcat(seen, one);
  }
  ok(strcmp(seen, "a:5432 a:5433 a:5434 b:5432 b:5433 b:5434 a:5432") == 0,
     "connections take ports fastest, then hosts, and start over: %s", seen);
}

static void placeholders(const char *in, const char *want, int want_n, const char *name)
{
  int n = -1;
  char *got = pgsqldrv_number_placeholders(in, strlen(in), &n);
  if (!ok(got != NULL && strcmp(got, want) == 0 && n == want_n, "%s", name))
    printf("#   got '%s' (%d), expected '%s' (%d)\n", got ? got : "(null)", n, want, want_n);
  free(got);
}

static void test_placeholders(void)
{
  placeholders("SELECT c FROM sbtest1 WHERE id=?", "SELECT c FROM sbtest1 WHERE id=$1", 1,
               "one placeholder");
  placeholders("SELECT c FROM t WHERE id BETWEEN ? AND ?",
               "SELECT c FROM t WHERE id BETWEEN $1 AND $2", 2, "two placeholders");
  placeholders("BEGIN", "BEGIN", 0, "no placeholder");
  placeholders("SELECT '?', ?", "SELECT '?', $1", 1, "inside a string literal: kept");
  placeholders("SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1", 1,
               "a doubled quote does not end the literal");
  placeholders("SELECT E'\\' ?', ?", "SELECT E'\\' ?', $1", 1,
               "E'...': a backslash escapes the quote");
  placeholders("SELECT 'a\\', ?", "SELECT 'a\\', $1", 1,
               "'...': a backslash is a plain character (standard_conforming_strings)");
  placeholders("SELECT \"col?\" FROM t WHERE x = ?", "SELECT \"col?\" FROM t WHERE x = $1", 1,
               "inside a quoted identifier: kept");
  placeholders("SELECT $$ ? $$, ?", "SELECT $$ ? $$, $1", 1, "inside $$...$$: kept");
  placeholders("SELECT $fn$ ? $x$ ? $fn$, ?", "SELECT $fn$ ? $x$ ? $fn$, $1", 1,
               "inside $tag$...$tag$: kept up to the same tag");
  placeholders("SELECT a$b, ?", "SELECT a$b, $1", 1, "a $ inside an identifier opens nothing");
  placeholders("SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2", 2,
               "in a line comment: kept, the next line goes on");
  placeholders("SELECT /* a /* nested ? */ ? */ ?", "SELECT /* a /* nested ? */ ? */ $1", 1,
               "in nested block comments: kept");
  placeholders("SELECT 'unterminated ?", "SELECT 'unterminated ?", 0,
               "an unterminated literal runs to the end");
  char many[64 * 2 + 1] = "";
  char want[64 * 4] = "";
  for (int i = 1; i <= 12; i++) {
    strcat(many, i > 1 ? ",?" : "?");
    char one[8];
    snprintf(one, sizeof(one), "%s$%d", i > 1 ? "," : "", i);
    strcat(want, one);
  }
  placeholders(many, want, 12, "twelve placeholders: $10 and up take more room");
}

int main(void)
{
  test_classification();
  test_rotation();
  test_placeholders();
  return tap_done();
}
