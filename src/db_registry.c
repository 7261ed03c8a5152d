/*
 * db_registry.c: which drivers this binary has, and the general database options. A driver
 * is compiled in when configure found its client library (--with-mysql, --with-pgsql,
 * --with-rocksdb).
 */

#include <stdio.h>
#include <string.h>

#include "db_types.h"
#include "db_registry.h"
#include "output_mode.h"

#ifdef SB_DRIVER_MYSQL
extern const db_driver_def mysql_driver_def;
#endif
#ifdef SB_DRIVER_PGSQL
extern const db_driver_def pgsql_driver_def;
#endif
#ifdef SB_DRIVER_TIDB
extern const db_driver_def tidb_driver_def;
#endif
#ifdef SB_DRIVER_ROCKSDB
extern const db_driver_def rocksdb_driver_def;
#endif

const db_driver_def *const db_driver_defs[] = {
#ifdef SB_DRIVER_MYSQL
  &mysql_driver_def,
#endif
#ifdef SB_DRIVER_PGSQL
  &pgsql_driver_def,
#endif
#ifdef SB_DRIVER_TIDB
  &tidb_driver_def,
#endif
#ifdef SB_DRIVER_ROCKSDB
  &rocksdb_driver_def,
#endif
  NULL
};

/* The names --db-driver takes: checked where 1.0.20 checks them, when a script first asks
   for a driver (db_create(); 1.0.20 says it once per thread, we once), so a test that uses no
   database runs whatever the value. */
static const char *const driver_names[] = {
#ifdef SB_DRIVER_MYSQL
  "mysql",
#endif
#ifdef SB_DRIVER_PGSQL
  "pgsql",
#endif
#ifdef SB_DRIVER_TIDB
  "tidb",
#endif
#ifdef SB_DRIVER_ROCKSDB
  "rocksdb",
#endif
  NULL
};

static const option_decl db_args[] = {
  {.name = "db-driver", .desc = "specifies database driver to use ('help' to get list of "
   "available drivers)",
#ifdef SB_DRIVER_MYSQL
   .default_text = "mysql",
#elif defined(SB_DRIVER_PGSQL)
   .default_text = "pgsql",
#elif defined(SB_DRIVER_ROCKSDB)
   .default_text = "rocksdb",
#endif
   .type = SB_ARG_TYPE_STRING, .choices = driver_names, .checked_on_read = true,
   .compat_error = "FATAL: invalid database driver name: '%s'"},
  {.name = "db-ps-mode", .desc = "prepared statements usage mode {auto, disable}",
   .default_text = "auto", .type = SB_ARG_TYPE_STRING,
   .choices = (const char *const[]) {"auto", "disable", NULL}, .checked_on_read = true,
   .compat_error = "FATAL: Invalid value for db-ps-mode: %s"},
  {.name = "db-debug", .desc = "print database-specific debug information",
   .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = NULL}
};

int db_registry_register_options(char *err, size_t errlen)
{
  if (options_declare(db_args, err, errlen) != 0)
    return -1;
  for (const db_driver_def *const *d = db_driver_defs; *d != NULL; d++)
    if ((*d)->options != NULL && options_declare((*d)->options, err, errlen) != 0)
      return -1;
  return 0;
}

void db_registry_print_help(void)
{
  printf("General database options:\n\n");
  options_print(db_args);
  printf("\n");
  printf("Compiled-in database drivers:\n");
  for (const db_driver_def *const *d = db_driver_defs; *d != NULL; d++)
    if (!(*d)->added || !output_exact())
      printf("  %s - %s\n", (*d)->name, (*d)->description);
  printf("\n");
  for (const db_driver_def *const *d = db_driver_defs; *d != NULL; d++) {
    if ((*d)->options == NULL || ((*d)->added && output_exact()))
      continue;
    printf("%s options:\n", (*d)->name);
    options_print((*d)->options);
  }
}

const db_driver_def *db_registry_find(const char *name)
{
  for (const db_driver_def *const *d = db_driver_defs; *d != NULL; d++)
    if (strcmp((*d)->name, name) == 0)
      return *d;
  return NULL;
}
