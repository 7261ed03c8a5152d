/*
 * settings.c: the --pgsql-* options (1.0.20's five, with host and port taking lists, plus TLS,
 * the SQLSTATEs to ignore and a dry run) and their parsing into pgsqldrv_config, once, when
 * the driver starts.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/pgsql/settings.h"
#include "logger.h"

pgsqldrv_settings pgsqldrv_config;

/* 1.0.20's --pgsql-port is a number: each item of the list must look like one (libpq then
   checks the range, with 1.0.20's message). */
static bool valid_port_list(const char *name, const char *value)
{
  (void) name;
  if (value == NULL || *value == '\0')
    return false;
  const char *p = value;
  while (*p != '\0') {
    if (*p == '+' || *p == '-')
      p++;
    if (!isdigit((unsigned char) *p))
      return false;
    while (isdigit((unsigned char) *p))
      p++;
    if (*p == ',')
      p++;
    else if (*p != '\0')
      return false;
  }
  return p[-1] != ',';
}

static const char *const ssl_modes[] = {
  "disable", "allow", "prefer", "require", "verify-ca", "verify-full", NULL
};
static const char *const all_errors[] = {"all", NULL};

/* Checked by the option registry before anything runs, so a bad value is one line, not one
   per thread creating its driver. */
const option_decl pgsqldrv_args[] = {
  {.name = "pgsql-host", .desc = "PostgreSQL server host", .default_text = "localhost", .type = SB_ARG_TYPE_LIST,
   .compat_help.type = SB_ARG_TYPE_STRING},
  {.name = "pgsql-port", .desc = "PostgreSQL server port", .default_text = "5432",
   .type = SB_ARG_TYPE_LIST, .validate = valid_port_list, .compat_help.type = SB_ARG_TYPE_INT},
  {.name = "pgsql-user", .desc = "PostgreSQL user", .default_text = "sbtest", .type = SB_ARG_TYPE_STRING},
  {.name = "pgsql-password", .desc = "PostgreSQL password", .default_text = "", .type = SB_ARG_TYPE_STRING},
  {.name = "pgsql-db", .desc = "PostgreSQL database name", .default_text = "sbtest", .type = SB_ARG_TYPE_STRING},
  {.name = "pgsql-sslmode", .desc = "SSL mode {disable, allow, prefer, require, verify-ca, verify-full}", .default_text = "prefer", .type = SB_ARG_TYPE_STRING,
   .choices = ssl_modes, .added = true},
  {.name = "pgsql-sslrootcert", .desc = "path name of the CA file for verify-ca and verify-full", .type = SB_ARG_TYPE_STRING,
   .added = true},
  {.name = "pgsql-ignore-errors", .desc = "list of SQLSTATEs to ignore, or \"all\"", .default_text = "40P01,23505,40001", .type = SB_ARG_TYPE_LIST,
   .choices = all_errors, .any_case = true, .item_ok = error_codes_is_sqlstate,
   .expect = "SQLSTATEs of five characters separated by commas, e.g. 40P01,40001, or \"all\"",
   .added = true},
  {.name = "pgsql-dry-run", .desc = "Dry run, pretend that all PostgreSQL client API calls are successful "
   "without executing them", .default_text = "off", .type = SB_ARG_TYPE_BOOL, .added = true},
  {.name = NULL}
};

static const char *non_empty(const char *value)
{
  return value != NULL && *value != '\0' ? value : NULL;
}
/* The option's text, NULL when empty. A macro, so that opt_string() sees the literal name
   (options.h records it). */
#define optional_string(name) non_empty(opt_string(name))

static void load_ssl(void)
{
  pgsqldrv_settings *c = &pgsqldrv_config;
  const char *mode = opt_string("pgsql-sslmode");

  /* Given by the user only: otherwise libpq's default, which honours PGSSLMODE (1.0.20 never
     set it). The option registry took only one of ssl_modes. */
  c->sslmode = NULL;
  if (opt_is_set("pgsql-sslmode"))
    for (size_t i = 0; ssl_modes[i] != NULL; i++)
      if (mode != NULL && strcmp(mode, ssl_modes[i]) == 0)
        c->sslmode = ssl_modes[i];
  c->sslrootcert = optional_string("pgsql-sslrootcert");
}

int pgsqldrv_settings_load(void)
{
  pgsqldrv_settings *c = &pgsqldrv_config;

  pgsqldrv_settings_free();
  c->hosts = opt_list("pgsql-host", &c->host_count);
  if (c->host_count == 0) {
    log_text(LOG_FATAL, "No PostgreSQL hosts specified, aborting");
    return -1;
  }
  c->ports = opt_list("pgsql-port", &c->port_count);
  if (c->port_count == 0) {
    log_text(LOG_FATAL, "No PostgreSQL ports specified, aborting");
    return -1;
  }
  c->user = opt_string("pgsql-user");
  c->password = opt_string("pgsql-password");
  c->db = opt_string("pgsql-db");
  c->dry_run = opt_bool("pgsql-dry-run");
  load_ssl();

  size_t n;
  const char *const *items = opt_list("pgsql-ignore-errors", &n);
  const char *bad = error_codes_parse(&c->ignored, ERROR_CODES_SQLSTATES, true, items, n);
  if (bad != NULL && *bad != '\0')
    log_text(LOG_FATAL, "Invalid value for --pgsql-ignore-errors: '%s' (expected SQLSTATEs "
             "of five characters separated by commas, e.g. 40P01,40001, or \"all\")", bad);
  return bad == NULL ? 0 : -1;
}

void pgsqldrv_settings_free(void)
{
  error_codes_free(&pgsqldrv_config.ignored);
  memset(&pgsqldrv_config, 0, sizeof(pgsqldrv_config));
}
