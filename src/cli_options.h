/*
 * cli_options.h: the core option sets and their translation into run, random-number and
 * logger configuration.
 */
#ifndef SB_CLI_OPTIONS_H
#define SB_CLI_OPTIONS_H

#include <stddef.h>

#include "options.h"
#include "rand.h"
#include "runner.h"

extern const sb_arg_t general_args[];
extern const sb_arg_t rand_args[];
extern const sb_arg_t log_verbosity_args[];
extern const sb_arg_t log_latency_args[];

int cli_options_register(char *err, size_t errlen);

/* Read and check the options; on a bad value log one FATAL line and return -1. */
int cli_options_apply_log(void);
int cli_options_load_run_config(run_config *cfg);
int cli_options_load_rand_config(rand_config *cfg);

#endif
