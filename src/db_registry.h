/*
 * db_registry.h: the database drivers compiled into this binary, and the general database
 * options (--db-driver, --db-ps-mode, --db-debug). Each driver contributes its name, its
 * description and its own options for --help.
 */
#ifndef SB_DB_REGISTRY_H
#define SB_DB_REGISTRY_H

#include "options.h"

typedef struct db_driver_def db_driver_def;

/* Register the general database options and every compiled-in driver's options. */
int db_registry_register_options(char *err, size_t errlen);

/* The "General database options" and "Compiled-in database drivers" parts of --help. */
void db_registry_print_help(void);

/* The driver definition with this name, or NULL. */
const db_driver_def *db_registry_find(const char *name);

/* NULL-terminated list of compiled-in drivers. */
extern const db_driver_def *const db_driver_defs[];

#endif
