/*
 * args.h: command line and config file reading.
 */
#ifndef SB_ARGS_H
#define SB_ARGS_H

#include <stdbool.h>

typedef struct parsed_args {
  const char *testname;   /* NULL or "-": script from standard input */
  const char *command;
} parsed_args;

/* Parse argv into the option registry. On a bad argument prints one line to stderr and
   returns -1. */
int args_parse(int argc, char *argv[], parsed_args *out);

/* Apply a config file (name=value lines) as if its options were on the command line. */
int args_read_config_file(const char *path);

/* After the test declared its options: options the user gave that nobody declared are an
   error on the command line ("invalid option: --x") and a warning from a config file. With
   accept_unknown (a Lua script declaring no options, 1.0's legacy mode) they are all kept as
   string options instead. */
int args_check_pending(bool accept_unknown);

/* The command given on the command line ("prepare", "run", ...), or NULL. */
const char *args_current_command(void);

#endif
