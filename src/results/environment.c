/*
 * environment.c: the machine a run ran on and the command line and options that started it,
 * as the result file keeps them, with every password masked (secrets.h): password options,
 * and the passwords of connection strings and URIs in any other option.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "clock.h"
#include "options.h"
#include "secrets.h"
#include "results/environment.h"

static int saved_argc;
static char **saved_argv;

void environment_describe_client(result_client *c)
{
  char host[256] = "";
  struct utsname u;

  if (gethostname(host, sizeof(host) - 1) != 0)
    host[0] = '\0';
  c->host = strdup(host);
  if (uname(&u) == 0) {
    char os[sizeof(u.sysname) + sizeof(u.release) + sizeof(u.machine) + 3];
    snprintf(os, sizeof(os), "%s %s %s", u.sysname, u.release, u.machine);
    c->os = strdup(os);
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  c->cpus = cpus > 0 ? (unsigned) cpus : 0;
}

void environment_set_command_line(int argc, char **argv)
{
  saved_argc = argc;
  saved_argv = argv;
}

int environment_command_line(char ***argv, size_t *argc)
{
  *argc = 0;
  *argv = calloc((size_t) saved_argc + 1, sizeof(char *));
  if (*argv == NULL)
    return -1;
  for (int i = 0; i < saved_argc; i++) {
    /* argv[0] may be a long path: keep the program's name. */
    const char *arg = saved_argv[i];
    if (i == 0) {
      const char *slash = strrchr(arg, '/');
      arg = slash ? slash + 1 : arg;
    }
    if (((*argv)[i] = secrets_argument_dup(arg)) == NULL)
      return -1;
    (*argc)++;
  }
  return 0;
}

/* The options as name/value text as the run of `cfg` uses them, passwords masked: those the
   user gave, or every one (`all`; an option without a value has NULL). */
static int list_options(const run_config *cfg, bool all, result_option **out, size_t *count)
{
  size_t n = options_count(), used = 0;
  *out = calloc(n ? n : 1, sizeof(result_option));
  *count = 0;
  if (*out == NULL)
    return -1;
  for (size_t i = 0; i < n; i++) {
    sb_option *opt = options_at(i);
    const char *name = option_name(opt);
    if (!all && !option_given(opt))
      continue;
    char run_text[32];
    const char *text = run_config_option_text(cfg, name, run_text, sizeof(run_text));
    if (text == NULL)
      text = option_text(opt);
    if (!all && text == NULL)
      text = "";
    (*out)[used].name = strdup(name);
    (*out)[used].value = secrets_option_value_dup(name, text);
    if ((*out)[used].name == NULL || (text != NULL && (*out)[used].value == NULL))
      return -1;
    *count = ++used;
  }
  return 0;
}

int environment_given_options(const run_config *cfg, result_option **out, size_t *count)
{
  return list_options(cfg, false, out, count);
}

int environment_effective_options(const run_config *cfg, result_option **out, size_t *count)
{
  return list_options(cfg, true, out, count);
}

void environment_new_run_id(char out[ENVIRONMENT_RUN_ID_SIZE])
{
  unsigned char bytes[(ENVIRONMENT_RUN_ID_SIZE - 1) / 2];
  size_t got = 0;
  while (got < sizeof(bytes)) {
    ssize_t n = getrandom(bytes + got, sizeof(bytes) - got, 0);
    if (n <= 0)
      break;
    got += (size_t) n;
  }
  if (got < sizeof(bytes)) {
    /* No entropy source: the clock and the process still tell runs apart. */
    uint64_t mix = clock_wall_ns() ^ ((uint64_t) getpid() << 32);
    for (size_t i = 0; i < sizeof(bytes); i++) {
      mix = mix * 6364136223846793005ull + 1442695040888963407ull;
      bytes[i] = (unsigned char) (mix >> 56);
    }
  }
  for (size_t i = 0; i < sizeof(bytes); i++)
    snprintf(out + 2 * i, 3, "%02x", bytes[i]);
}

/* Written by workers' first connections, read after the run: one mutex, a first write wins. */
static pthread_mutex_t database_mutex = PTHREAD_MUTEX_INITIALIZER;
static char database_driver[64];
static char database_version[128];

static void note_once(char *slot, size_t size, const char *text)
{
  pthread_mutex_lock(&database_mutex);
  if (slot[0] == '\0' && text != NULL)
    snprintf(slot, size, "%s", text);
  pthread_mutex_unlock(&database_mutex);
}

static const char *noted(const char *slot)
{
  pthread_mutex_lock(&database_mutex);
  const char *text = slot[0] != '\0' ? slot : NULL;
  pthread_mutex_unlock(&database_mutex);
  return text;
}

void environment_note_driver(const char *driver)
{
  note_once(database_driver, sizeof(database_driver), driver);
}

void environment_note_server_version(const char *version)
{
  note_once(database_version, sizeof(database_version), version);
}

const char *environment_driver(void)
{
  return noted(database_driver);
}

const char *environment_server_version(void)
{
  return noted(database_version);
}

/* What the driver reported about its engine (--rocksdb-stats), kept until a run takes it. */
static result_counter *driver_stats;
static size_t driver_stat_count;
static char *driver_stats_text;

void environment_note_driver_statistic(const char *name, uint64_t value)
{
  pthread_mutex_lock(&database_mutex);
  result_counter_set(&driver_stats, &driver_stat_count, name, value);
  pthread_mutex_unlock(&database_mutex);
}

void environment_note_driver_statistics_text(const char *text)
{
  pthread_mutex_lock(&database_mutex);
  free(driver_stats_text);
  driver_stats_text = secrets_mask_dup(text);
  pthread_mutex_unlock(&database_mutex);
}

void environment_take_driver_statistics(result_run *r)
{
  pthread_mutex_lock(&database_mutex);
  r->driver_stats = driver_stats;
  r->driver_stat_count = driver_stat_count;
  r->driver_stats_text = driver_stats_text;
  driver_stats = NULL;
  driver_stat_count = 0;
  driver_stats_text = NULL;
  pthread_mutex_unlock(&database_mutex);
}
