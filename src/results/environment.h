/*
 * environment.h: where a run ran (host name, operating system, CPU count) and the command line
 * that started it, for the result file. Passwords never reach it.
 */
#ifndef SB_RESULTS_ENVIRONMENT_H
#define SB_RESULTS_ENVIRONMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/result.h"
#include "run_config.h"

/* Fill a client entry with this machine's host, OS and CPU count. */
void environment_describe_client(result_client *c);

/* Keep the command line (main's argv) for result files. */
void environment_set_command_line(int argc, char **argv);
/* A copy of it with password values masked; -1 when out of memory. */
int environment_command_line(char ***argv, size_t *argc);

/* The database a run used, as the database layer meets it: the driver (when one was
   created) and the version the first server connected to gave. The layer tells; result files
   read it (so results need not know the layer). NULL until told. */
void environment_note_driver(const char *driver);
void environment_note_server_version(const char *version);
const char *environment_driver(void);
const char *environment_server_version(void);

/* The options the user gave, as name/value text as the run of `cfg` uses them (a sweep's
   step: its thread count), secrets masked; -1 when out of memory. */
int environment_given_options(const run_config *cfg, result_option **out, size_t *count);
/* The same for every declared option, given or default (NULL value: none). */
int environment_effective_options(const run_config *cfg, result_option **out, size_t *count);

/* A new random id for a run: 32 hex digits. */
#define ENVIRONMENT_RUN_ID_SIZE 33
void environment_new_run_id(char out[ENVIRONMENT_RUN_ID_SIZE]);

/* What the driver says about its engine after a run (RocksDB's statistics): counts by name,
   and its own text of them. The database layer tells; the run's result takes them. */
void environment_note_driver_statistic(const char *name, uint64_t value);
void environment_note_driver_statistics_text(const char *text);
void environment_take_driver_statistics(result_run *r);

#endif
