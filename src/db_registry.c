/*
 * db_registry.c: which drivers this binary has, and the general database options. A driver
 * is compiled in when configure found its client library (--with-mysql, --with-pgsql,
 * --with-rocksdb).
 */

#include <stdio.h>
#include <string.h>

#include "db.h"
#include "db_registry.h"

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

static const sb_arg_t db_args[] = {
  {"db-driver", "specifies database driver to use ('help' to get list of available drivers)",
#ifdef SB_DRIVER_MYSQL
   "mysql",
#elif defined(SB_DRIVER_PGSQL)
   "pgsql",
#elif defined(SB_DRIVER_ROCKSDB)
   "rocksdb",
#else
   NULL,
#endif
   SB_ARG_TYPE_STRING, NULL},
  {"db-ps-mode", "prepared statements usage mode {auto, disable}", "auto", SB_ARG_TYPE_STRING,
   NULL},
  {"db-debug", "print database-specific debug information", "off", SB_ARG_TYPE_BOOL, NULL},
  {NULL, NULL, NULL, SB_ARG_TYPE_NULL, NULL}
};

int db_registry_register_options(char *err, size_t errlen)
{
  if (options_register(db_args, err, errlen) != 0)
    return -1;
  for (const db_driver_def *const *d = db_driver_defs; *d != NULL; d++)
    if ((*d)->args != NULL && options_register((*d)->args, err, errlen) != 0)
      return -1;
  return 0;
}

void db_registry_print_help(void)
{
  printf("General database options:\n\n");
  options_print_args(db_args);
  printf("\n");
  printf("Compiled-in database drivers:\n");
  for (const db_driver_def *const *d = db_driver_defs; *d != NULL; d++)
    printf("  %s - %s\n", (*d)->name, (*d)->description);
  printf("\n");
  for (const db_driver_def *const *d = db_driver_defs; *d != NULL; d++) {
    if ((*d)->args == NULL)
      continue;
    printf("%s options:\n", (*d)->name);
    options_print_args((*d)->args);
  }
}

const db_driver_def *db_registry_find(const char *name)
{
  for (const db_driver_def *const *d = db_driver_defs; *d != NULL; d++)
    if (strcmp((*d)->name, name) == 0)
      return *d;
  return NULL;
}
