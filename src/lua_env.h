/*
 * lua_env.h: LuaJIT embedding. A Lua script becomes an sb_test: the main thread's state
 * loads it, reads its options and runs init/done and commands; each worker, and each thread
 * of a parallel command, runs the whole script again in a state of its own.
 */
#ifndef SB_LUA_ENV_H
#define SB_LUA_ENV_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"
#include "run_config.h"
#include "test.h"

/* The raw command line, exposed as sysbench.cmdline.argv. */
void lua_env_set_argv(int argc, char *argv[]);

/*
 * Find and load a script: `name` is a path, a bundled workload name or a module on
 * package.path; NULL reads standard input. Runs the script's body once in the main state and
 * registers the options it declares. `main`: the main thread's worker, which the main state
 * acts for (its random numbers, its connections). Returns NULL after printing why it failed.
 */
sb_test *lua_load_test(const char *name, const char *command, worker *main);

bool lua_env_loaded(void);

/* Would lua_load_test(name) find a script (a file, or a module on package.path)? Loads
   nothing. */
bool lua_test_exists(const char *name);

/* A run with other values than the options' (a sweep's step runs its own thread count):
   export sysbench.opt to the main state again, as that run uses them. */
void lua_env_refresh_options(const run_config *cfg);

/* All options are final: export them to the main state as sysbench.opt (and as globals for
   scripts that declare no options). */
int lua_env_options_ready(void);

bool lua_custom_command_defined(const char *command);
/* The names of the script's custom commands (sysbench.cmdline.commands), sorted: up to
   `max` into `names` (valid until the script is unloaded); returns how many there are. */
size_t lua_custom_command_names(const char **names, size_t max);
/* 0 on success. */
int lua_call_custom_command(const char *command);

void lua_env_done(void);

/* Exported for FFI (sysbench.cmdline.lua). */
int sb_lua_set_test_args(sb_arg_t *args, size_t len);
void sb_lua_mark_added_option(const char *name);
void sb_print_test_options(void);

#endif
