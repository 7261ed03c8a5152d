/*
 * environment.h: where a run ran (host name, operating system, CPU count) and the command line
 * that started it, for the result file. Passwords never reach it.
 */
#ifndef SB_RESULTS_ENVIRONMENT_H
#define SB_RESULTS_ENVIRONMENT_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
