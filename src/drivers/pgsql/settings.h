/*
 * settings.h: the --pgsql-* options and the settings parsed from them once, when the driver
 * starts (settings.c). Every other file of the driver reads its settings here, never the
 * command line.
 *
 * Every exported name of the driver starts with "pgsqldrv_": the binary exports its symbols
 * to LuaJIT, and libpq owns the "PQ" and "pg" prefixes.
 */
#ifndef SB_PGSQL_SETTINGS_H
#define SB_PGSQL_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "drivers/error_codes.h"
#include "options.h"

typedef struct {
  const char *const *hosts;    /* --pgsql-host (at least one) */
  size_t host_count;
  const char *const *ports;    /* --pgsql-port (at least one), as text: libpq checks them */
  size_t port_count;
  const char *user;
  const char *password;        /* never printed */
  const char *db;
  const char *sslmode;         /* NULL: libpq's default (prefer, or PGSSLMODE) */
  const char *sslrootcert;     /* NULL when not given */
  error_code_list ignored;     /* --pgsql-ignore-errors: SQLSTATEs, or "all" */
  bool dry_run;
} pgsqldrv_settings;

extern pgsqldrv_settings pgsqldrv_config;
extern const option_decl pgsqldrv_args[];

/* Parse the --pgsql-* options into pgsqldrv_config; logs what is wrong and returns -1. */
int pgsqldrv_settings_load(void);
void pgsqldrv_settings_free(void);

#endif
