/*
 * lua_env.c: a Lua script as a test. Finds the script, runs it in the main state, reads the
 * options it declares, and implements the test operations: per-worker states running the
 * script's thread_init / thread_run / thread_done, init / done and commands in the main state,
 * parallel custom commands in threads of their own, and the report hooks.
 */

#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "db.h"
#include "embedded_lua.h"
#include "logger.h"
#include "lua_bundled.h"
#include "lua_env.h"
#include "lua_state.h"
#include "options.h"
#include "output_mode.h"
#include "printable.h"
#include "rand.h"
#include "report.h"
#include "runner.h"
#include "thread_spawn.h"

typedef struct {
  char *text;
  size_t len;
  char *path;            /* sysbench.cmdline.script_path */
  char *chunkname;
} script_source;

static script_source script;
static const char *script_command;
static lua_State *main_state;
static worker *main_worker;             /* the worker main_state acts for */
static option_decl *declared_args;       /* from sysbench.cmdline.options, sorted */
static bool hook_intermediate, hook_cumulative;

static sb_test lua_test;

void lua_env_set_argv(int argc, char *argv[])
{
  lua_state_set_argv(argc, argv);
}

bool lua_env_loaded(void)
{
  return main_state != NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Finding the script                                                                         */
/* ------------------------------------------------------------------------------------------ */

static int read_stream(FILE *f, script_source *out)
{
  size_t capacity = 65536, len = 0;
  char *buf = malloc(capacity);

  while (buf != NULL) {
    size_t n = fread(buf + len, 1, capacity - len, f);
    len += n;
    if (n == 0)
      break;
    if (len == capacity) {
      char *grown = realloc(buf, capacity *= 2);
      if (grown == NULL) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = grown;
    }
  }
  if (buf == NULL || ferror(f)) {
    free(buf);
    return -1;
  }
  out->text = buf;
  out->len = len;
  /* A "#!/usr/bin/env sysbench" line is a comment to us; keep the newline so line numbers
     in error messages stay right. */
  if (len >= 2 && buf[0] == '#' && buf[1] == '!')
    for (size_t i = 0; i < len && buf[i] != '\n'; i++)
      buf[i] = ' ';
  return 0;
}

static bool is_regular_file(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int load_file(const char *path, script_source *out)
{
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return -1;
  int rc = read_stream(f, out);
  fclose(f);
  if (rc == 0) {
    out->path = strdup(path);
    size_t n = strlen(path) + 2;
    out->chunkname = malloc(n);
    snprintf(out->chunkname, n, "@%s", path);
  }
  return rc;
}

/* Look `name` up on package.path the way require() would. */
static char *search_package_path(lua_State *L, const char *name)
{
  char *found = NULL;
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "path");
  const char *path = lua_tostring(L, -1);
  if (path != NULL) {
    char *copy = strdup(path), *save = NULL;
    for (char *tmpl = strtok_r(copy, ";", &save); tmpl && !found; tmpl = strtok_r(NULL, ";", &save)) {
      const char *candidate = luaL_gsub(L, tmpl, "?", name);
      if (is_regular_file(candidate))
        found = strdup(candidate);
      lua_pop(L, 1);
    }
    free(copy);
  }
  lua_pop(L, 2);
  return found;
}

static int find_script(const char *name, script_source *out)
{
  if (name == NULL) {
    if (read_stream(stdin, out) != 0)
      return -1;
    out->path = NULL;
    out->chunkname = strdup("=stdin");   /* errors read "stdin:1: ...", as in 1.0 */
    return 0;
  }
  if (is_regular_file(name))
    return load_file(name, out);

  /* Not a file: a module name on package.path, then a workload compiled into the binary. */
  lua_state_params bare = { .thread_id = 0, .worker = main_worker };
  lua_State *L = lua_state_new(&bare);
  if (L == NULL)
    return -1;
  char *found = search_package_path(L, name);
  lua_close(L);
  if (found != NULL) {
    int rc = load_file(found, out);
    free(found);
    return rc;
  }

  char stem[256];
  snprintf(stem, sizeof(stem), "%s", name);
  size_t n = strlen(stem);
  if (n > 4 && strcmp(stem + n - 4, ".lua") == 0)
    stem[n - 4] = '\0';
  const embedded_script *s = embedded_find(stem, EMBEDDED_BUNDLED);
  if (s == NULL)
    return -1;
  out->text = malloc(s->length);
  if (out->text == NULL)
    return -1;
  memcpy(out->text, s->source, s->length);
  out->len = s->length;
  out->path = strdup(name);
  n = strlen(stem) + 6;
  out->chunkname = malloc(n);
  snprintf(out->chunkname, n, "@%s.lua", stem);
  return 0;
}

bool lua_test_exists(const char *name)
{
  if (is_regular_file(name))
    return true;
  lua_state_params bare = { .thread_id = 0 };   /* runs no script code: no worker */
  lua_State *L = lua_state_new(&bare);
  if (L == NULL)
    return false;
  char *found = search_package_path(L, name);
  lua_close(L);
  free(found);
  return found != NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* States                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* A state running the script for `w`, which scripts know as thread `thread_id`. */
static lua_State *new_script_state(worker *w, int thread_id)
{
  lua_state_params p = {
    .thread_id = thread_id,
    .worker = w,
    .command = script_command,
    .script_path = script.path,
    .source = script.text,
    .source_len = script.len,
    .chunkname = script.chunkname,
  };
  return lua_state_new(&p);
}

static bool global_is_function(lua_State *L, const char *name)
{
  lua_getglobal(L, name);
  bool rc = lua_isfunction(L, -1);
  lua_pop(L, 1);
  return rc;
}

/* 1.0.20's line for a Lua function that raised an error (on top of L's stack), then, when the
   error cites a line of a script compiled into the binary, where that script is. */
static void log_function_failed(const char *function, lua_State *L)
{
  const char *error = lua_state_error_text(L, -1);
  log_text(LOG_FATAL, "`%s' function failed: %s", function, error);
  lua_bundled_hint_once(error);
}

/* Call global `name` with the thread id (if >= 0); a missing function is not an error. */
static int call_global(lua_State *L, const char *name, int thread_id, bool required)
{
  lua_getglobal(L, name);
  if (!lua_isfunction(L, -1)) {
    lua_pop(L, 1);
    if (required) {
      log_text(LOG_FATAL, "cannot find the %s() function in %s", name, lua_test.name);
      return -1;
    }
    return 0;
  }
  int nargs = 0;
  if (thread_id >= 0) {
    lua_pushnumber(L, thread_id);
    nargs = 1;
  }
  if (lua_pcall(L, nargs, 0, 0) != 0) {
    log_function_failed(name, L);
    lua_pop(L, 1);
    return -1;
  }
  return 0;
}


static void push_option_value(lua_State *L, sb_option *opt)
{
  switch (option_type(opt)) {
    case SB_ARG_TYPE_BOOL:
      lua_pushboolean(L, option_flag(opt));
      break;
    case SB_ARG_TYPE_INT:
      lua_pushnumber(L, (lua_Number) option_int(opt));
      break;
    case SB_ARG_TYPE_SIZE:
      lua_pushnumber(L, (lua_Number) option_size(opt));
      break;
    case SB_ARG_TYPE_DOUBLE:
      lua_pushnumber(L, option_double(opt));
      break;
    case SB_ARG_TYPE_LIST: {
      size_t n;
      const char *const *items = option_list(opt, &n);
      lua_createtable(L, (int) n, 0);
      for (size_t i = 0; i < n; i++) {
        lua_pushstring(L, items[i]);
        lua_rawseti(L, -2, (int) i + 1);
      }
      break;
    }
    case SB_ARG_TYPE_FILE:
      lua_pushnil(L);
      break;
    default: {
      const char *text = option_text(opt);
      lua_pushstring(L, text ? text : "");
      break;
    }
  }
}

/* An option's value as the run of `cfg` uses it (run_config_option_text()). */
static void push_run_value(lua_State *L, sb_option *opt, const run_config *cfg)
{
  char buf[32];
  const char *text = run_config_option_text(cfg, option_name(opt), buf, sizeof(buf));

  if (text == NULL)
    push_option_value(L, opt);
  else if (option_type(opt) == SB_ARG_TYPE_INT)
    lua_pushnumber(L, strtod(text, NULL));
  else
    lua_pushstring(L, text);
}

/* sysbench.opt = every option, as the run of `cfg` uses it; scripts that declare no options
   also see them as globals (1.0's legacy API), except where that would overwrite one of
   their functions. The deprecated --test is sysbench.opt.test only when given, and never
   the global: that is the script's path (sysbench.compat), as in 1.0.20. */
static void export_options(lua_State *L, const run_config *cfg)
{
  bool legacy = declared_args == NULL;

  lua_getglobal(L, "sysbench");
  lua_newtable(L);
  for (size_t i = 0; i < options_count(); i++) {
    sb_option *opt = options_at(i);
    if (option_is_pending(opt))        /* a config file's name nothing declares: not used */
      continue;
    if (strcmp(option_name(opt), "test") == 0) {
      if (option_given(opt))
        push_option_value(L, opt);
      else
        lua_pushnil(L);
      lua_setfield(L, -2, "test");
      continue;
    }
    push_run_value(L, opt, cfg);
    lua_setfield(L, -2, option_name(opt));
    if (legacy && !global_is_function(L, option_name(opt))) {
      push_run_value(L, opt, cfg);
      lua_setglobal(L, option_name(opt));
    }
  }
  lua_setfield(L, -2, "opt");
  lua_pop(L, 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Options declared by the script                                                             */
/* ------------------------------------------------------------------------------------------ */

static int compare_args(const void *a, const void *b)
{
  return strcmp(((const option_decl *) a)->name, ((const option_decl *) b)->name);
}

int sb_lua_set_test_args(sb_arg_t *args, size_t len)
{
  char err[512];
  option_decl *copy = calloc(len + 1, sizeof(option_decl));

  if (copy == NULL)
    return 1;
  for (size_t i = 0; i < len; i++) {
    copy[i].name = strdup(args[i].name);
    copy[i].desc = args[i].desc ? strdup(args[i].desc) : NULL;
    copy[i].default_text = args[i].value ? strdup(args[i].value) : NULL;
    copy[i].type = args[i].type;
    copy[i].validate = args[i].validate;
  }
  qsort(copy, len, sizeof(option_decl), compare_args);
  declared_args = copy;
  lua_test.options = copy;
  if (options_declare(copy, err, sizeof(err)) != 0) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  return 0;
}

/* An option of the script that 1.0.20's version of it lacks (the bundled workloads'):
   --help lists it after 1.0.20's, and not in exact mode (option_decl.added). */
void sb_lua_mark_added_option(const char *name)
{
  for (option_decl *d = declared_args; d != NULL && d->name != NULL; d++)
    if (strcmp(d->name, name) == 0)
      d->added = true;
}

void sb_print_test_options(void)
{
  if (declared_args != NULL)
    options_print(declared_args);
}

static int read_declared_options(lua_State *L)
{
  lua_getglobal(L, "sysbench");
  lua_getfield(L, -1, "cmdline");
  lua_getfield(L, -1, "read_cmdline_options");
  if (!lua_isfunction(L, -1)) {
    lua_pop(L, 3);
    return 0;
  }
  if (lua_pcall(L, 0, 1, 0) != 0) {
    log_function_failed("sysbench.cmdline.read_cmdline_options", L);
    lua_pop(L, 3);
    return -1;
  }
  int ok = lua_toboolean(L, -1);
  lua_pop(L, 3);
  return ok ? 0 : -1;
}

int lua_env_options_ready(void)
{
  export_options(main_state, runner_config());
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Test operations                                                                            */
/* ------------------------------------------------------------------------------------------ */

static int op_init(void)
{
  if (call_global(main_state, "init", -1, false) != 0)
    return -1;
  /* Checked even when the script replaces thread_run (the built-in one always exists), as
     1.0 does. */
  if (!global_is_function(main_state, "event")) {
    log_text(LOG_FATAL, "cannot find the event() function in %s", lua_test.name);
    return -1;
  }
  return 0;
}

static int op_thread_init(worker *w)
{
  lua_State *L = new_script_state(w, (int) w->id);
  if (L == NULL)
    return -1;
  w->script = L;
  export_options(L, runner_config());
  lua_getglobal(L, "thread_init");
  if (!lua_isfunction(L, -1)) {
    lua_pop(L, 1);
    return 0;
  }
  lua_pushnumber(L, w->id);
  if (lua_pcall(L, 1, 0, 0) == 0)
    return 0;
  /* When it fails it usually fails the same way in every thread (server down, wrong
     password, a missing table): the runner has the logger say each line once. */
  log_function_failed("thread_init", L);
  lua_pop(L, 1);
  return -1;
}

static int op_thread_run(worker *w)
{
  int rc = call_global(w->script, "thread_run", (int) w->id, true);
  if (rc != 0)
    w->script_failed = true;
  return rc;
}

static int op_thread_done(worker *w)
{
  lua_State *L = w->script;
  int rc = 0;

  if (L == NULL)
    return 0;
  if (!w->script_failed)
    rc = call_global(L, "thread_done", (int) w->id, false);
  lua_close(L);
  w->script = NULL;
  return rc;
}

static int op_done(void)
{
  return call_global(main_state, "done", -1, false);
}

/* ------------------------------------------------------------------------------------------ */
/* Reports                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* The state report hooks run in for `reporter`: the main state for the main thread's worker,
   a state of its own, made on its first report, for the reporter thread's. */
static lua_State *report_state(worker *reporter)
{
  if (reporter == main_worker)
    return main_state;
  if (reporter->script == NULL) {
    reporter->script = new_script_state(reporter, (int) runner_config()->threads);
    if (reporter->script != NULL)
      export_options(reporter->script, runner_config());
  }
  return reporter->script;
}

/* The reporter thread ended: its state is closed before the final report is printed, so
   finalizers such as report_json's closing "]" come first, as in 1.0. */
static void op_report_done(worker *reporter)
{
  if (reporter->script != NULL && reporter != main_worker)
    lua_close(reporter->script);
  reporter->script = NULL;
}

static void set_stat(lua_State *L, const char *name, double value)
{
  lua_pushnumber(L, value);
  lua_setfield(L, -2, name);
}

static void push_stat(lua_State *L, const sb_stat_t *s, bool cumulative)
{
  lua_newtable(L);
  set_stat(L, "threads_running", s->threads_running);
  set_stat(L, "time_interval", s->time_interval);
  set_stat(L, "time_total", s->time_total);
  set_stat(L, "latency_pct", s->latency_pct);
  set_stat(L, "events", (double) s->events);
  set_stat(L, "reads", (double) s->reads);
  set_stat(L, "writes", (double) s->writes);
  set_stat(L, "other", (double) s->other);
  set_stat(L, "errors", (double) s->errors);
  set_stat(L, "reconnects", (double) s->reconnects);
  set_stat(L, "rows", (double) s->rows);
  if (cumulative) {
    set_stat(L, "latency_min", s->latency_min);
    set_stat(L, "latency_max", s->latency_max);
    set_stat(L, "latency_avg", s->latency_avg);
    set_stat(L, "latency_sum", s->latency_sum);
  } else {
    set_stat(L, "queue_length", (double) s->queue_length);
    set_stat(L, "concurrency", (double) s->concurrency);
  }
}

/* Run sysbench.hooks[hook](stat) in L; false if the hook is not a function there. */
static bool call_report_hook(lua_State *L, const char *hook, const sb_stat_t *stat,
                             bool cumulative)
{
  lua_getglobal(L, "sysbench");
  lua_getfield(L, -1, "hooks");
  lua_getfield(L, -1, hook);
  if (!lua_isfunction(L, -1)) {
    lua_pop(L, 3);
    return false;
  }
  push_stat(L, stat, cumulative);
  if (lua_pcall(L, 1, 0, 0) != 0) {
    log_function_failed(hook, L);
    lua_pop(L, 1);
    /* A broken intermediate hook stops the run; the final one can only set the exit code. */
    if (cumulative)
      runner_fail_late();
    else
      runner_fail();
  }
  lua_pop(L, 2);
  return true;
}

static void op_report_intermediate(worker *reporter, sb_stat_t *stat,
                                   const report_layout *layout)
{
  lua_State *L = hook_intermediate ? report_state(reporter) : NULL;
  if (L != NULL && call_report_hook(L, "report_intermediate", stat, false))
    return;
  db_report_intermediate(stat, layout);
}

static void op_report_cumulative(worker *reporter, sb_stat_t *stat, const report_layout *layout)
{
  lua_State *L = hook_cumulative ? report_state(reporter) : NULL;
  if (L != NULL && call_report_hook(L, "report_cumulative", stat, true))
    return;
  db_report_cumulative(stat, layout);
}

/* ------------------------------------------------------------------------------------------ */
/* Commands                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static int call_main_function(const char *name)
{
  return call_global(main_state, name, -1, false);
}

static int cmd_prepare(void) { return call_main_function("prepare"); }
static int cmd_cleanup(void) { return call_main_function("cleanup"); }
static int cmd_help(void) { return call_main_function("help"); }

static bool cmdline_predicate(lua_State *L, const char *fn, const char *command)
{
  lua_getglobal(L, "sysbench");
  lua_getfield(L, -1, "cmdline");
  lua_getfield(L, -1, fn);
  lua_pushstring(L, command);
  bool rc = lua_pcall(L, 1, 1, 0) == 0 && lua_toboolean(L, -1);
  lua_pop(L, 3);
  return rc;
}

bool lua_custom_command_defined(const char *command)
{
  return cmdline_predicate(main_state, "command_defined", command);
}

static int compare_names(const void *a, const void *b)
{
  return strcmp(*(const char *const *) a, *(const char *const *) b);
}

size_t lua_custom_command_names(const char **names, size_t max)
{
  /* the names stay referenced by the commands table, which lives as long as the state */
  lua_State *L = main_state;
  size_t n = 0;

  lua_getglobal(L, "sysbench");
  lua_getfield(L, -1, "cmdline");
  lua_getfield(L, -1, "commands");
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
      if (lua_type(L, -2) == LUA_TSTRING && lua_istable(L, -1)) {
        if (n < max)
          names[n] = lua_tostring(L, -2);
        n++;
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 3);
  qsort(names, n < max ? n : max, sizeof(*names), compare_names);
  return n;
}

/* sysbench.cmdline.call_command(name) in L: 0 when the command succeeded. */
static int call_command_in(lua_State *L, const char *command)
{
  lua_getglobal(L, "sysbench");
  lua_getfield(L, -1, "cmdline");
  lua_getfield(L, -1, "call_command");
  lua_pushstring(L, command);
  if (lua_pcall(L, 1, 1, 0) != 0) {
    /* 1.0.20 names the Lua function that ran the command, not the command. */
    log_function_failed("sysbench.cmdline.call_command", L);
    lua_pop(L, 3);
    return -1;
  }
  int ok = lua_toboolean(L, -1);
  lua_pop(L, 3);
  return ok ? 0 : -1;
}

typedef struct {
  worker worker;                  /* first: the array is allocated for its alignment */
  const char *command;
  int rc;
} command_worker;

static void *command_worker_main(void *arg)
{
  command_worker *cw = arg;
  worker *w = &cw->worker;

  worker_bind_thread(w);
  lua_State *L = new_script_state(w, (int) w->id);
  if (L == NULL) {
    cw->rc = -1;
    return NULL;
  }
  w->script = L;
  export_options(L, runner_config());
  cw->rc = call_command_in(L, cw->command);
  lua_close(L);
  w->script = NULL;
  return NULL;
}

int lua_call_custom_command(const char *command)
{
  const run_config *cfg = runner_config();
  unsigned n = cfg->threads;

  /* One thread is the main state itself, as in 1.0.20 (which then says nothing about
     worker threads). */
  if (n <= 1 || !cmdline_predicate(main_state, "command_parallel", command))
    return call_command_in(main_state, command);

  command_worker *workers = aligned_alloc(_Alignof(command_worker), n * sizeof(command_worker));
  pthread_t *threads = calloc(n, sizeof(pthread_t));
  unsigned ready = 0, started = 0;
  int rc = -1;

  if (workers == NULL || threads == NULL)
    goto out;
  memset(workers, 0, n * sizeof(command_worker));
  for (; ready < n; ready++) {
    workers[ready].command = command;
    if (worker_init(&workers[ready].worker, ready, NULL) != 0)
      goto out;
  }
  log_text(LOG_NOTICE, "Initializing worker threads...\n");
  /* The threads of a command get --thread-stack-size, as the run's workers do. */
  int err = threads_spawn(threads, n, cfg->thread_stack_size, command_worker_main, workers,
                          sizeof(command_worker), &started);
  if (err == THREAD_SPAWN_BAD_STACK_SIZE)
    log_text(LOG_FATAL, "Invalid value for thread-stack-size: %zu.", cfg->thread_stack_size);
  else if (err != 0)
    log_text(LOG_FATAL, "Cannot create thread %u for the '%s' command: %s", started, command,
             strerror(err));
  threads_join(threads, started);
  rc = err == 0 ? 0 : -1;
  for (unsigned i = 0; i < started; i++)
    if (workers[i].rc != 0)
      rc = -1;
out:
  for (unsigned i = 0; i < ready; i++)
    worker_free(&workers[i].worker);
  free(workers);
  free(threads);
  return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Loading                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static char *test_name_of(const char *name)
{
  if (name == NULL)
    return strdup("<stdin>");
  char *copy = strdup(name);
  char *base = strdup(basename(copy));
  free(copy);
  return base;
}

static bool hook_defined(lua_State *L, const char *hook)
{
  lua_getglobal(L, "sysbench");
  lua_getfield(L, -1, "hooks");
  lua_getfield(L, -1, hook);
  bool rc = lua_isfunction(L, -1);
  lua_pop(L, 3);
  return rc;
}

sb_test *lua_load_test(const char *name, const char *command, worker *main)
{
  char shown[PRINTABLE_MAX];

  main_worker = main;
  if (find_script(name, &script) != 0) {
    if (name == NULL)
      log_text(LOG_FATAL, "Cannot read the script from the standard input: %s", strerror(errno));
    else
      log_text(LOG_FATAL, "Cannot find benchmark '%s': no such built-in test, file or module",
               printable(name, shown, sizeof(shown)));
    return NULL;
  }
  script_command = command;
  lua_test.name = test_name_of(name);

  /* The main state is thread 0 to scripts, as in 1.0; it acts for the main thread's worker
     (its C-side work is not counted in any report). */
  main_state = new_script_state(main_worker, 0);
  if (main_state == NULL)
    return NULL;
  if (read_declared_options(main_state) != 0) {
    lua_close(main_state);
    main_state = NULL;
    return NULL;
  }

  lua_test.ops = (sb_test_ops) {
    .init = op_init,
    .thread_init = op_thread_init,
    .thread_run = op_thread_run,
    .thread_done = op_thread_done,
    .report_intermediate = op_report_intermediate,
    .report_cumulative = op_report_cumulative,
    .report_done = op_report_done,
    .done = op_done,
  };
  lua_test.cmd_prepare = global_is_function(main_state, "prepare") ? cmd_prepare : NULL;
  lua_test.cmd_cleanup = global_is_function(main_state, "cleanup") ? cmd_cleanup : NULL;
  lua_test.cmd_help = global_is_function(main_state, "help") ? cmd_help : NULL;
  hook_intermediate = hook_defined(main_state, "report_intermediate");
  hook_cumulative = hook_defined(main_state, "report_cumulative");
  return &lua_test;
}

void lua_env_refresh_options(const run_config *cfg)
{
  if (main_state != NULL)
    export_options(main_state, cfg);
}

void lua_env_done(void)
{
  if (main_state != NULL)
    lua_close(main_state);
  main_state = NULL;
}
