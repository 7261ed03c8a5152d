/*
 * fuzz_parser.c: libFuzzer target for the command-line and config-file parser (args.c,
 * options.c, cli_options.c): the code between main() and the start of a test, run on
 * arbitrary argument words and config-file text, with the checks main() runs after it.
 *
 * An input is a config file's text, a NUL byte, then the command-line words, each ended by a
 * NUL byte (the last one need not be):
 *
 *   threads=4\n# a comment\n \0 cpu \0 run \0 --config-file=f.cfg \0 --time=1e11
 *
 * (without the spaces). An input without NUL is all config file, with --config-file=f.cfg as
 * the command line. Every --config-file name reads that text from memory, except names
 * starting with "dir" (a directory) and "missing" (no such file): no real file is opened or
 * written. libFuzzer closes our stdout and stderr (-close_fd_mask=3, added below unless the
 * command line says otherwise), so the messages of millions of inputs do not reach the
 * terminal; its own reports and the sanitizers' still do.
 *
 * Built by `make fuzz` (clang, libFuzzer, ASan, UBSan); run by tests/cli/fuzz_parser.t.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli_options.h"
#include "logger.h"
#include "options.h"

#define MAX_WORDS 256

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *config_text;
static size_t config_length;

/* Options of a test, declared after parsing as a loaded test does: the command line's values
   for them wait as pending options, then are re-typed and checked. */
static const char *const modes[] = {"seqwr", "rndrd", NULL};
static const option_decl test_options[] = {
  {.name = "max-prime", .desc = "a ranged integer", .default_text = "10000",
   .type = SB_ARG_TYPE_INT, .ranged = true, .min = 1, .max = 4294967295.0},
  {.name = "block-size", .desc = "a size", .default_text = "16K", .type = SB_ARG_TYPE_SIZE,
   .ranged = true, .min = 1, .max = 1073741824.0},
  {.name = "mode", .desc = "a choice", .type = SB_ARG_TYPE_STRING, .choices = modes},
  {.name = "flags", .desc = "a list of choices", .type = SB_ARG_TYPE_LIST, .choices = modes},
  {.name = "ratio", .desc = "a number", .default_text = "1.5", .type = SB_ARG_TYPE_DOUBLE},
  {.name = "verbose", .desc = "a flag", .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = NULL}
};

static FILE *open_in_memory(const char *path)
{
  if (strncmp(path, "dir", 3) == 0) {
    errno = EISDIR;
    return NULL;
  }
  if (strncmp(path, "missing", 7) == 0) {
    errno = ENOENT;
    return NULL;
  }
  static char empty[1];
  FILE *f = config_length > 0 ? fmemopen(config_text, config_length, "r")
                              : fmemopen(empty, 0, "r");
  if (f == NULL)
    errno = EIO;
  return f;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  /* -close_fd_mask=3 first, so that one given on the command line still wins. */
  static char *with_quiet_flag[MAX_WORDS + 2];
  int n = *argc < MAX_WORDS ? *argc : MAX_WORDS;

  with_quiet_flag[0] = (*argv)[0];
  with_quiet_flag[1] = "-close_fd_mask=3";
  for (int i = 1; i < n; i++)
    with_quiet_flag[i + 1] = (*argv)[i];
  *argc = n + 1;
  *argv = with_quiet_flag;
  args_set_config_opener(open_in_memory);
  return 0;
}

/* Splits the input into the config text and NUL-terminated argument words (copies). */
static int split_input(const uint8_t *data, size_t size, char **argv)
{
  const uint8_t *nul = memchr(data, '\0', size);
  int argc = 0;

  config_length = nul != NULL ? (size_t) (nul - data) : size;
  config_text = malloc(config_length + 1);
  memcpy(config_text, data, config_length);
  config_text[config_length] = '\0';

  argv[argc++] = strdup("sysbench");
  if (nul == NULL) {
    argv[argc++] = strdup("--config-file=f.cfg");
    return argc;
  }
  const uint8_t *p = nul + 1, *end = data + size;
  while (p < end && argc < MAX_WORDS) {
    const uint8_t *stop = memchr(p, '\0', (size_t) (end - p));
    size_t len = stop != NULL ? (size_t) (stop - p) : (size_t) (end - p);
    argv[argc] = malloc(len + 1);
    memcpy(argv[argc], p, len);
    argv[argc++][len] = '\0';
    p += len + 1;
  }
  return argc;
}

/* What main() does from the command line to the loaded test, without starting anything. */
static void parse_as_main_does(int argc, char **argv)
{
  char err[512];
  parsed_args args;
  run_config run;
  rand_config rand;

  log_set_verbosity(LOG_NOTICE);
  if (cli_options_register(err, sizeof(err)) != 0)
    abort();                            /* the core declarations must always register */
  if (args_parse(argc, argv, &args) != 0 || cli_options_check(&run, &rand) != 0)
    return;
  if (options_declare(test_options, err, sizeof(err)) != 0 || options_check_given() != 0)
    return;
  args_check_pending(false, false);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *argv[MAX_WORDS + 1] = {NULL};
  int argc = split_input(data, size, argv);

  parse_as_main_does(argc, argv);

  args_forget();
  options_free_all();
  for (int i = 0; i < argc; i++)
    free(argv[i]);
  free(config_text);
  config_text = NULL;
  return 0;
}
