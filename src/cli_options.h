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

extern const option_decl general_args[];
extern const option_decl rand_args[];
extern const option_decl log_verbosity_args[];
extern const option_decl log_latency_args[];

int cli_options_register(char *err, size_t errlen);

/* 1.0.20's deprecated aliases (--num-threads ...) onto their new options, with its warnings.
   Call after parsing, before options_check_given(). */
int cli_options_resolve_aliases(void);

/* Turn the checked options into configurations; rules between options are checked here
   (one message, then -1). */
int cli_options_apply_log(void);
int cli_options_load_run_config(run_config *cfg);
int cli_options_load_rand_config(rand_config *cfg);

/*
 * Everything the parser checks once args_parse() has read the command line and config
 * files: the deprecated aliases, every given value against its declaration, then the log,
 * run and random-number configurations. Nothing is started, so the fuzz target calls it too.
 * 0, or -1 after the error's message.
 */
int cli_options_check(run_config *run, rand_config *rand);

#endif
