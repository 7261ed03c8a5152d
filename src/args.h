/*
 * args.h: command line and config file reading.
 */
#ifndef SB_ARGS_H
#define SB_ARGS_H

#include <stdbool.h>
#include <stdio.h>

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
   error on the command line ("invalid option: --x") and a warning from a config file, which
   names the file and line (for a Lua test after 1.0.20's own line, "Global option 'x' will
   not be exported, because the type is unknown"); such a value is not used. With
   accept_unknown (a Lua script declaring no options, 1.0's legacy mode) those of the command
   line are kept as string options instead. */
int args_check_pending(bool accept_unknown, bool lua_test);

/* The warnings about config-file lines (a line without '='), after the header, once each. */
void args_print_config_warnings(void);

/* The command given on the command line ("prepare", "run", ...), or NULL. */
const char *args_current_command(void);

/* Forget what args_parse() kept (rejected flags, the command): a program that parses more
   than one command line, the fuzz target, calls it between two, with options_free_all(). */
void args_forget(void);

/* How config files are opened: NULL (the default) opens the named file, refusing a
   directory with EISDIR; the fuzz target serves every name from memory instead. The opener
   returns NULL with errno set when the file cannot be read. */
void args_set_config_opener(FILE *(*open)(const char *path));

#endif
