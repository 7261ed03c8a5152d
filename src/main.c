/*
 * main.c: sysbench's entry point: command line -> test -> command.
 *
 *   sysbench [options]... [testname] [command]
 *
 * The test is a compiled-in one (cpu, memory, threads, mutex, ...) or a Lua script named by
 * path, by bundled name (oltp_read_only) or by module name on package.path; with no name or
 * "-" the script comes from standard input. Exit codes follow sysbench 1.0.20: 0 success,
 * 1 error, 2 forced shutdown or worker start-up timeout.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cli_options.h"
#include "db.h"
#include "db_registry.h"
#include "logger.h"
#include "load_state.h"
#include "lua_bundled.h"
#include "lua_env.h"
#include "options.h"
#include "output_mode.h"
#include "printable.h"
#include "rand.h"
#include "results/commands.h"
#include "results/environment.h"
#include "results/output.h"
#include "results/recorder.h"
#include "results/sweep.h"
#include "runner.h"
#include "stats.h"
#include "test.h"
#include "tool_version.h"

#define VERSION_STRING "sysbench " SB_COMPAT_VERSION

/* The run configuration the options give: built once, read-only after. */
static run_config config;
/* The main thread's worker: the main Lua state acts for it (init, done, commands). */
static worker main_worker;

/* 1.0.20's header; at --verbosity=4 and above, this program's own name on the next line. */
static void print_header(void)
{
  if (output_exact() || log_verbosity() < LOG_INFO) {
    log_text(LOG_NOTICE, "%s (using system LuaJIT %s)\n", VERSION_STRING, SB_LUAJIT_VERSION);
    return;
  }
  log_text(LOG_NOTICE, "%s (using system LuaJIT %s)", VERSION_STRING, SB_LUAJIT_VERSION);
  log_text(LOG_INFO, "%s\n", tool_identity());
}

/* What --help says beyond 1.0.20's text: the features a user would not find otherwise. */
static void print_help_additions(void)
{
  static const struct { const char *usage, *what; } lines[] = {
    {"--threads=8,16,32", "a thread sweep: one run per thread count, then a summary table, "
     "an SVG chart and an HTML page (docs/results.md)"},
    {"--percentile=50,95,99.9", "a latency line per percentile; fractions such as 99.9 too"},
    {"--report-file=FILE.json", "keep the whole result: options, intervals, histograms"},
    {"sysbench compare A.json B.json", "compare result files: ratios, charts (--html=PAGE)"},
    {"sysbench merge A.json B.json", "add up the result files of several clients exactly"},
    {"sysbench oltp_* verify", "check the tables `prepare` loaded (after a crash or --resume)"},
    {"sysbench oltp_* prewarm", "read the tables into the server's caches before a run"},
    {"--compat=" OUTPUT_EXACT_RELEASE, "print exactly what sysbench " OUTPUT_EXACT_RELEASE
     " prints (or SYSBENCH_COMPAT=" OUTPUT_EXACT_RELEASE ")"},
  };
  size_t width = 0;

  for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
    if (strlen(lines[i].usage) > width)
      width = strlen(lines[i].usage);
  printf("Beyond sysbench %s (%s %s; 'man sysbench' has it all):\n", SB_COMPAT_VERSION,
         tool_name, tool_version);
  for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
    printf("  %-*s %s\n", (int) width, lines[i].usage, lines[i].what);
  printf("\n");
}

static void print_help(void)
{
  printf("Usage:\n");
  printf("  sysbench [options]... [testname] [command]\n\n");
  printf("Commands implemented by most tests: prepare run cleanup help\n\n");
  printf("General options:\n");
  options_print(general_args);
  printf("Pseudo-Random Numbers Generator options:\n");
  options_print(rand_args);
  printf("Log options:\n");
  options_print(log_verbosity_args);
  options_print(log_latency_args);
  db_registry_print_help();
  if (!output_exact()) {
    printf("Report options:\n");
    options_print(results_args);
  }
  printf("Compiled-in tests:\n");
  for (sb_test *const *t = builtin_tests; *t != NULL; t++)
    printf("  %s - %s\n", (*t)->name, (*t)->description);
  printf("\n");
  printf("See 'sysbench <testname> help' for a list of options for each test.\n\n");
  if (!output_exact())
    print_help_additions();
}

static sb_test *find_builtin(const char *name)
{
  for (sb_test *const *t = builtin_tests; *t != NULL; t++)
    if (strcmp((*t)->name, name) == 0)
      return *t;
  return NULL;
}

/* "oltp_read_write commands: prepare run cleanup help prewarm verify warmup": what a test can
   be asked to do, after its options (not in 1.0.20's text). */
static void print_test_commands(const sb_test *test)
{
  static const char *const common[] = {"prepare", "run", "cleanup", "help"};
  const char *custom[32];
  size_t n = lua_env_loaded() ? lua_custom_command_names(custom, 32) : 0;
  if (n > 32)
    n = 32;

  printf("%s commands:", test->name);
  for (size_t c = 0; c < 4; c++) {
    bool has = strcmp(common[c], "run") == 0 || strcmp(common[c], "help") == 0 ||
               (c == 0 && test->cmd_prepare != NULL) || (c == 2 && test->cmd_cleanup != NULL);
    for (size_t i = 0; i < n && !has; i++)
      has = strcmp(custom[i], common[c]) == 0;
    if (has)
      printf(" %s", common[c]);
  }
  for (size_t i = 0; i < n; i++) {
    bool listed = false;
    for (size_t c = 0; c < 4; c++)
      listed = listed || strcmp(custom[i], common[c]) == 0;
    if (!listed)
      printf(" %s", custom[i]);
  }
  printf("\n\n");
}

static int command_help(sb_test *test)
{
  if (test->cmd_help != NULL)
    return test->cmd_help() == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
  if (test->options != NULL) {
    printf("%s options:\n", test->name);
    options_print(test->options);
    if (!output_exact())
      print_test_commands(test);
    return EXIT_SUCCESS;
  }
  char shown[PRINTABLE_MAX];
  fprintf(stderr, "'%s' test does not implement the 'help' command.\n",
          printable(test->name, shown, sizeof(shown)));
  return EXIT_FAILURE;
}

static int dispatch(sb_test *test, const char *command)
{
  int (*builtin)(void) = NULL;
  char shown_test[PRINTABLE_MAX], shown_command[PRINTABLE_MAX];

  if (lua_env_loaded() && lua_custom_command_defined(command))
    return lua_call_custom_command(command) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
  if (strcmp(command, "help") == 0)
    return command_help(test);
  if (strcmp(command, "run") == 0)
    return sweep_requested() ? sweep_run(test, &config, &main_worker)
                             : runner_run(test, &config, &main_worker);
  if (strcmp(command, "prepare") == 0)
    builtin = test->cmd_prepare;
  else if (strcmp(command, "cleanup") == 0)
    builtin = test->cmd_cleanup;
  else {
    fprintf(stderr, "Unknown command: %s\n",
            printable(command, shown_command, sizeof(shown_command)));
    return EXIT_FAILURE;
  }
  if (builtin == NULL) {
    fprintf(stderr, "'%s' test does not implement the '%s' command.\n",
            printable(test->name, shown_test, sizeof(shown_test)),
            printable(command, shown_command, sizeof(shown_command)));
    return EXIT_FAILURE;
  }
  return builtin() == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* Every option name the code reads is declared: by the components registered so far, or by
   a compiled-in test. A typo would read as 0 on a path no run takes; checked at every start,
   the test suite checks every call site. */
static void check_option_reads(void)
{
  const option_decl *test_tables[16];
  size_t n = 0;

  for (sb_test *const *t = builtin_tests; *t != NULL && n + 1 < 16; t++)
    if ((*t)->options != NULL)
      test_tables[n++] = (*t)->options;
  test_tables[n] = NULL;
  const char *name = options_undeclared_read(test_tables);
  if (name != NULL) {
    fprintf(stderr, "BUG: option '%s' is read but no component declares it\n", name);
    abort();
  }
}

/* Options and configuration every command needs; returns 0 or an exit code. */
static int configure(int argc, char *argv[], parsed_args *args)
{
  char err[512];
  rand_config rand;

  if (cli_options_register(err, sizeof(err)) != 0 ||
      results_register(err, sizeof(err)) != 0 ||
      db_registry_register_options(err, sizeof(err)) != 0) {
    fprintf(stderr, "%s\n", err);
    return EXIT_FAILURE;
  }
  check_option_reads();
  if (args_parse(argc, argv, args) != 0 ||
      output_mode_configure(opt_is_set("compat") ? opt_string("compat") : NULL) != 0)
    return EXIT_FAILURE;
  if (opt_bool("help")) {
    print_help();
    exit(EXIT_SUCCESS);
  }
  if (opt_bool("version")) {
    /* 1.0.20's line first: scripts parse it */
    printf("%s\n", VERSION_STRING);
    if (!output_exact())
      printf("%s\n", tool_identity());
    exit(EXIT_SUCCESS);
  }
  const char *script = opt_string("show-script");
  if (script != NULL && *script != '\0')
    exit(lua_bundled_show(script, stdout));
  if (cli_options_check(&config, &rand) != 0 ||
      results_configure(args->command, &config) != 0)
    return EXIT_FAILURE;
  if (results_recording())             /* a run that fails early still has its errors kept */
    recorder_watch_errors();

  run_config_publish(&config);
  if (sweep_check_options(&config) != 0)
    return EXIT_FAILURE;
  rand_configure(&rand);
  /* The main thread's random numbers are those of id `threads` (the workers have 0..N-1). */
  if (worker_init(&main_worker, config.threads, NULL) != 0) {
    log_text(LOG_FATAL, "Out of memory");
    return EXIT_FAILURE;
  }
  worker_bind_thread(&main_worker);
  return 0;
}

/* The end of the command: its result document written. A `run` that failed before the
   runner began it (a test that does not load, a bad option of the script) still has one: its
   exit code and errors. */
static int finish(const parsed_args *args, int rc)
{
  if (rc != 0 && results_recording() && results_session()->run_count == 0 &&
      args->command != NULL && strcmp(args->command, "run") == 0) {
    const char *test = args->testname != NULL ? args->testname : "-";
    results_run_finished(recorder_not_started(test, rc));
  }
  return results_finish(rc);
}

int main(int argc, char *argv[])
{
  parsed_args args = {0};
  sb_test *test;
  int rc;

  /* Line-buffered even into a pipe, so a parser tailing our output sees each report line
     as it is printed. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  output_mode_early(argc, argv);
  lua_env_set_argv(argc, argv);
  environment_set_command_line(argc, argv);

  const char *results_command = results_command_requested(argc, argv);
  if (results_command != NULL)
    return results_command_main(results_command, argc, argv);

  /* From here on a failed `run` still writes its result document (finish). */
  if ((rc = configure(argc, argv, &args)) != 0)
    return finish(&args, rc);

  print_header();
  args_print_config_warnings();

  const char *name = args.testname;
  if (name == NULL || strcmp(name, "-") == 0) {
    if (isatty(STDIN_FILENO))
      log_text(LOG_NOTICE, "Reading the script from the standard input:\n");
    test = lua_load_test(NULL, args.command, &main_worker);
    if (test == NULL)
      return finish(&args, EXIT_FAILURE);
    /* A script from stdin may still be given a command: "sysbench - run < script.lua". */
    if (args.command == NULL) {
      lua_env_done();
      return EXIT_SUCCESS;
    }
  } else if ((test = find_builtin(name)) != NULL) {
    if (args.command == NULL) {
      fprintf(stderr, "The '%s' test requires a command argument. See 'sysbench %s help'\n",
              test->name, test->name);
      return finish(&args, EXIT_FAILURE);
    }
    char err[512];
    if (test->options != NULL && options_declare(test->options, err, sizeof(err)) != 0) {
      fprintf(stderr, "%s\n", err);
      return finish(&args, EXIT_FAILURE);
    }
    if (options_check_given() != 0)
      return finish(&args, EXIT_FAILURE);
  } else {
    test = lua_load_test(name, args.command, &main_worker);
    if (test == NULL)
      return finish(&args, EXIT_FAILURE);
    if (args.command == NULL) {
      lua_env_done();
      return EXIT_SUCCESS;
    }
  }

  /* A Lua script that declares no options accepts any (1.0's legacy scripts). */
  bool legacy = lua_env_loaded() && test->options == NULL;
  if (args_check_pending(legacy, lua_env_loaded()) != 0)
    return finish(&args, EXIT_FAILURE);
  if (lua_env_loaded() && lua_env_options_ready() != 0)
    return finish(&args, EXIT_FAILURE);

  rc = dispatch(test, args.command);
  /* A prepare or verify stopped by Ctrl-C ends as if the signal had ended it. */
  if (sb_load_interrupted())
    rc = 128 + load_state_signal();

  if (lua_env_loaded())
    lua_env_done();
  db_done();
  rc = finish(&args, rc);
  log_print_end_hints();
  /* A pending "(last message repeated N times)" is not printed at exit: 1.0.20 prints it only
     before a different message, and scripts compare the last lines of the output. */
  fflush(stdout);
  return rc;
}
