/*
 * classify.c: what a server error means for the run. --pgsql-ignore-errors lists the
 * SQLSTATEs that restart the event instead of stopping the run (1.0.20 always ignored
 * deadlocks 40P01, unique violations 23505 and serialization failures 40001, and nothing
 * else: those are the default); "all" ignores every error. A lost connection whose SQLSTATE
 * is listed is reconnected first; an error that aborted the transaction restarts it. No I/O
 * here: the unit test links this file alone.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgsql_driver.h"

/* Five digits or letters, upper-cased into `out` (SQLSTATEs are written in capitals). */
static bool read_sqlstate(const char *s, pgsqldrv_sqlstate *out)
{
  if (strlen(s) != 5)
    return false;
  for (int i = 0; i < 5; i++) {
    if (!isalnum((unsigned char) s[i]))
      return false;
    out->code[i] = (char) toupper((unsigned char) s[i]);
  }
  out->code[5] = '\0';
  return true;
}

bool pgsqldrv_is_sqlstate(const char *item)
{
  pgsqldrv_sqlstate ignored;
  return read_sqlstate(item, &ignored);
}

const char *pgsqldrv_parse_ignore_list(pgsqldrv_settings *c, const char *const *items,
                                       size_t count)
{
  free(c->ignored);
  c->ignored = calloc(count ? count : 1, sizeof(pgsqldrv_sqlstate));
  c->ignored_count = 0;
  c->ignore_all = false;
  if (c->ignored == NULL)
    return "";
  for (size_t i = 0; i < count; i++) {
    if (strcasecmp(items[i], "all") == 0) {
      c->ignore_all = true;
      continue;
    }
    if (!read_sqlstate(items[i], &c->ignored[c->ignored_count]))
      return items[i];
    c->ignored_count++;
  }
  return NULL;
}

static bool listed(const pgsqldrv_settings *c, const char *sql_state)
{
  if (c->ignore_all)
    return true;
  if (sql_state == NULL)
    return false;
  for (size_t i = 0; i < c->ignored_count; i++)
    if (strcmp(c->ignored[i].code, sql_state) == 0)
      return true;
  return false;
}

driver_error_class pgsqldrv_classify(const pgsqldrv_settings *c, const char *sql_state,
                                     bool connection_lost, bool transaction_aborted)
{
  if (!listed(c, sql_state))
    return DRIVER_ERROR_FATAL;
  if (connection_lost)
    return DRIVER_ERROR_RECONNECT;
  return transaction_aborted ? DRIVER_ERROR_RESTART_TRANSACTION : DRIVER_ERROR_IGNORE;
}
