/*
 * cli_options.c: the core options (general, random numbers, log) with 1.0.20's names,
 * defaults and help text plus master's additions, and their translation into the runner's,
 * the random generator's and the logger's configuration. Every value is checked here, once,
 * with a message naming the option and what it accepts.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_options.h"
#include "logger.h"
#include "output_mode.h"
#include "rand.h"

#define MAX_THREADS 100000
/* Durations stay far from where seconds * 1e9 overflows a 64-bit count of nanoseconds. */
#define MAX_SECONDS 1e9

#define UNBOUNDED 1e300

static const char *const distributions[] = {"uniform", "gaussian", "special", "pareto",
                                            "zipfian", NULL};

const option_decl general_args[] = {
  {.name = "threads", .desc = "number of threads to use", .default_text = "1",
   .type = SB_ARG_TYPE_INT, .ranged = true, .min = 1, .max = MAX_THREADS, .number_list = true,
   .expect = "1 to 100000, or a list such as 8,16,32 (one run each)",
   .compat_error = "FATAL: Invalid value for --threads: %s.", .compat_integer = true},
  {.name = "events", .desc = "limit for total number of events", .default_text = "0",
   .type = SB_ARG_TYPE_INT, .ranged = true, .min = 0, .max = UNBOUNDED,
   .expect = "0 for no limit, or a positive count"},
  {.name = "time", .desc = "limit for total execution time in seconds", .default_text = "10",
   .type = SB_ARG_TYPE_DOUBLE, .ranged = true, .min = 0, .max = MAX_SECONDS,
   .expect = "0 for no limit, or a number of seconds up to 1e9", .compat_integer = true},
  {.name = "warmup-time", .desc = "execute events for this many seconds with statistics "
   "disabled before the actual benchmark run with statistics enabled", .default_text = "0",
   .type = SB_ARG_TYPE_DOUBLE, .ranged = true, .min = 0, .max = MAX_SECONDS,
   .expect = "a number of seconds, 0 to 1e9", .added = true},
  {.name = "forced-shutdown", .desc = "number of seconds to wait after the --time limit before "
   "forcing shutdown, or 'off' to disable", .default_text = "off", .type = SB_ARG_TYPE_STRING},
  {.name = "thread-stack-size", .desc = "size of stack per thread", .default_text = "64K",
   .type = SB_ARG_TYPE_SIZE, .ranged = true, .min = 16384, .max = 1024.0 * 1024 * 1024,
   .expect = "16K to 1G", .compat_error = "FATAL: Invalid value for thread-stack-size: %s."},
  {.name = "thread-init-timeout", .desc = "wait time in seconds for worker threads to "
   "initialize", .default_text = "30", .type = SB_ARG_TYPE_DOUBLE, .ranged = true,
   .min = 0.001, .max = MAX_SECONDS, .expect = "a number of seconds from 0.001 to 1e9",
   .added = true},
  {.name = "rate", .desc = "average transactions rate. 0 for unlimited rate",
   .default_text = "0", .type = SB_ARG_TYPE_DOUBLE, .ranged = true, .min = 0, .max = 1e9,
   .smallest_nonzero = 1e-6, .expect = "0 for unlimited, or 1e-6 to 1e9 events per second",
   .compat_integer = true},
  {.name = "report-interval", .desc = "periodically report intermediate statistics with a "
   "specified interval in seconds. 0 disables intermediate reports", .default_text = "0",
   .type = SB_ARG_TYPE_DOUBLE, .ranged = true, .min = 0, .max = MAX_SECONDS,
   .smallest_nonzero = 0.001, .expect = "0 to disable, or a number of seconds from 0.001 to 1e9",
   .compat_integer = true},
  {.name = "report-checkpoints", .desc = "dump full statistics and reset all counters at "
   "specified points in time. The argument is a list of comma-separated values representing "
   "the amount of time in seconds elapsed from start of test when report checkpoint(s) must "
   "be performed. Report checkpoints are off by default.", .default_text = "",
   .type = SB_ARG_TYPE_LIST},
  {.name = "debug", .desc = "print more debugging info", .default_text = "off",
   .type = SB_ARG_TYPE_BOOL},
  {.name = "validate", .desc = "perform validation checks where possible",
   .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = "help", .desc = "print help and exit", .default_text = "off",
   .type = SB_ARG_TYPE_BOOL},
  {.name = "version", .desc = "print version and exit", .default_text = "off",
   .type = SB_ARG_TYPE_BOOL},
  {.name = "show-script", .desc = "print a Lua script compiled into sysbench (a bundled "
   "workload such as oltp_common, or a module such as sysbench.oltp_load) and exit",
   .type = SB_ARG_TYPE_STRING, .added = true},
  {.name = "config-file", .desc = "File containing command line options",
   .type = SB_ARG_TYPE_FILE},
  {.name = "tx-rate", .desc = "deprecated alias for --rate", .default_text = "0",
   .type = SB_ARG_TYPE_INT},
  {.name = "max-requests", .desc = "deprecated alias for --events", .default_text = "0",
   .type = SB_ARG_TYPE_INT},
  {.name = "max-time", .desc = "deprecated alias for --time", .default_text = "0",
   .type = SB_ARG_TYPE_INT},
  {.name = "num-threads", .desc = "deprecated alias for --threads", .default_text = "1",
   .type = SB_ARG_TYPE_INT},
  {.name = "compat", .desc = "print exactly what sysbench " OUTPUT_EXACT_RELEASE " prints: no "
   "line, block, hint or help text it lacks (also SYSBENCH_COMPAT=" OUTPUT_EXACT_RELEASE ")",
   .default_text = "off", .type = SB_ARG_TYPE_STRING,
   .choices = (const char *const[]) {OUTPUT_EXACT_RELEASE, "off", NULL},
   .expect = OUTPUT_EXACT_RELEASE " (exactly its output) or off", .added = true},
  {.name = NULL}
};

const option_decl rand_args[] = {
  {.name = "rand-type", .desc = "random numbers distribution "
   "{uniform,gaussian,special,pareto,zipfian}", .default_text = "special",
   .compat_help.desc = "random numbers distribution {uniform,gaussian,special,pareto}",
   .type = SB_ARG_TYPE_STRING, .choices = distributions,
   .compat_error = "FATAL: Invalid random numbers distribution: %s."},
  {.name = "rand-spec-iter", .desc = "number of iterations used for numbers generation",
   .default_text = "12", .type = SB_ARG_TYPE_INT, .ranged = true, .min = 1, .max = 1000},
  {.name = "rand-spec-pct", .desc = "percentage of values to be treated as 'special' (for "
   "special distribution)", .default_text = "1", .type = SB_ARG_TYPE_DOUBLE, .ranged = true,
   .min = 0, .max = 100, .expect = "a percentage, 0 to 100"},
  {.name = "rand-spec-res", .desc = "percentage of 'special' values to use (for special "
   "distribution)", .default_text = "75", .type = SB_ARG_TYPE_DOUBLE, .ranged = true,
   .min = 0, .max = 100, .expect = "a percentage, 0 to 100"},
  {.name = "rand-seed", .desc = "seed for random number generator. When 0, the current time "
   "is used as a RNG seed.", .default_text = "0", .type = SB_ARG_TYPE_INT},
  {.name = "rand-pareto-h", .desc = "parameter h for pareto distribution",
   .default_text = "0.2", .type = SB_ARG_TYPE_DOUBLE, .ranged = true, .min = 1e-9,
   .max = 1 - 1e-9, .expect = "a number between 0 and 1"},
  {.name = "rand-zipfian-exp", .desc = "shape parameter (exponent, theta) for the Zipfian "
   "distribution", .default_text = "0.8", .type = SB_ARG_TYPE_DOUBLE, .ranged = true,
   .min = 0, .max = UNBOUNDED, .added = true},
  {.name = NULL}
};

const option_decl log_verbosity_args[] = {
  {.name = "verbosity", .desc = "verbosity level {5 - debug, 0 - only critical messages}",
   .default_text = "3", .type = SB_ARG_TYPE_INT, .ranged = true, .min = 0, .max = 5,
   .compat_error = "Invalid value for verbosity: %s"},
  {.name = NULL}
};

const option_decl log_latency_args[] = {
  {.name = "percentile", .desc = "percentile to calculate in latency statistics (1-100). Use "
   "the special value of 0 to disable percentile calculations", .default_text = "95",
   .type = SB_ARG_TYPE_DOUBLE, .ranged = true, .min = 0, .max = 100, .number_list = true,
   .expect = "1 to 100, or 0 to disable; a list such as 50,95,99.9 for several",
   .compat_error = "FATAL: Invalid value for --percentile: %s", .compat_integer = true},
  {.name = "histogram", .desc = "print latency histogram in report", .default_text = "off",
   .type = SB_ARG_TYPE_BOOL},
  {.name = NULL}
};

int cli_options_register(char *err, size_t errlen)
{
  if (options_declare(general_args, err, errlen) || options_declare(rand_args, err, errlen) ||
      options_declare(log_verbosity_args, err, errlen) ||
      options_declare(log_latency_args, err, errlen))
    return -1;
  /* Hidden: the deprecated --test=NAME is handled by the argument parser. */
  static const option_decl hidden[] = {
    {.name = "test", .type = SB_ARG_TYPE_STRING},
    {.name = NULL}
  };
  return options_declare(hidden, err, errlen);
}

/*
 * 1.0.20's deprecated aliases. Each takes over its new option when given a value that 1.0.20
 * acts on (--num-threads other than 0 and 1, --max-time above 0, the others non-zero), with
 * 1.0.20's warning, in its order. The value then is the new option's as if the user had typed
 * it there, so it is checked the same way (--num-threads=-3 fails as --threads=-3 does) and
 * scripts reading sysbench.opt.threads see it.
 */
int cli_options_resolve_aliases(void)
{
  static const struct {
    const char *alias, *name;
    int64_t ignored_at_most, ignored_at_least;   /* values 1.0.20 ignores: [least, most] */
  } aliases[] = {
    {"num-threads", "threads", 1, 0},
    {"max-requests", "events", 0, 0},
    {"max-time", "time", 0, INT64_MIN},
    {"tx-rate", "rate", 0, 0},
  };

  for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
    const sb_option *alias = options_get(aliases[i].alias);
    if (!option_given(alias))
      continue;
    int64_t v = option_int(alias);
    if (v >= aliases[i].ignored_at_least && v <= aliases[i].ignored_at_most)
      continue;
    log_text(LOG_WARNING, "--%s is deprecated, use --%s instead", aliases[i].alias,
             aliases[i].name);
    if (option_copy_given(aliases[i].name, aliases[i].alias) != 0)
      return -1;
  }
  return 0;
}

/* 1.0.20 read --forced-shutdown and --report-checkpoints with strtol: it refused text that is
   not a whole number (1e12, nan) with its own line, and took any whole number. `rest` is
   the text strtol leaves (a '%' for a percentage). */
static bool whole_number(const char *text, long *n, const char **rest)
{
  char *end;
  errno = 0;
  *n = strtol(text, &end, 10);
  *rest = end;
  return end != text;
}

static int load_forced_shutdown(run_config *cfg)
{
  const char *text = opt_string("forced-shutdown");
  static const char expect[] = "'off', or a number of seconds or a percentage of --time "
                               "(such as 5%) up to 1e9 seconds";

  cfg->forced_shutdown = false;
  if (text != NULL && strcasecmp(text, "off") == 0)
    return 0;
  if (text == NULL || *text == '\0') {       /* bare --forced-shutdown: 5 % of --time */
    cfg->forced_shutdown = cfg->max_time > 0;
    cfg->forced_shutdown_after = cfg->max_time / 20;
    return 0;
  }

  char *end;
  double n = strtod(text, &end);
  bool percent = strcmp(end, "%") == 0;
  double seconds = percent ? cfg->max_time * n / 100 : n;
  if (end == text || (*end != '\0' && !percent) || !(n >= 0 && seconds <= MAX_SECONDS)) {
    long whole;
    const char *rest;
    bool ref_takes = whole_number(text, &whole, &rest) &&
                     (*rest == '\0' || strcmp(rest, "%") == 0);
    option_report_invalid("forced-shutdown", text,
                          ref_takes ? NULL : "FATAL: Invalid value for --forced-shutdown: '%s'",
                          expect);
    return -1;
  }
  cfg->forced_shutdown = cfg->max_time > 0;
  cfg->forced_shutdown_after = seconds;
  return 0;
}

static int load_checkpoints(run_config *cfg)
{
  size_t count;
  const char *const *items = opt_list("report-checkpoints", &count);

  cfg->checkpoint_count = 0;
  for (size_t i = 0; i < count; i++) {
    char *end;
    double t = strtod(items[i], &end);
    if (end == items[i] || *end != '\0' || !(t >= 0 && t <= MAX_SECONDS)) {
      long whole;
      const char *rest;
      bool ref_takes = whole_number(items[i], &whole, &rest) && *rest == '\0' &&
                       errno != ERANGE && whole >= 0 && whole <= INT32_MAX;
      option_report_invalid("report-checkpoints", items[i],
                            ref_takes ? NULL : "FATAL: Invalid value for --report-checkpoints: '%s'",
                            "a list of numbers of seconds from 0 to 1e9, e.g. 10,20,30");
      return -1;
    }
    if (cfg->checkpoint_count == RUNNER_MAX_CHECKPOINTS) {
      log_text(LOG_FATAL, "Too many checkpoints in --report-checkpoints (up to %d can be "
               "defined)", RUNNER_MAX_CHECKPOINTS);
      return -1;
    }
    /* Keep them sorted as they come in. */
    size_t j = cfg->checkpoint_count++;
    while (j > 0 && cfg->checkpoints[j - 1] > t) {
      cfg->checkpoints[j] = cfg->checkpoints[j - 1];
      j--;
    }
    cfg->checkpoints[j] = t;
  }
  return 0;
}

/* --percentile: one value (1.0.20's) or a list; 0 alone disables percentiles. */
static int load_percentiles(run_config *cfg)
{
  size_t n = opt_numbers("percentile", cfg->percentiles, RUNNER_MAX_PERCENTILES);

  if (n > RUNNER_MAX_PERCENTILES) {
    log_text(LOG_FATAL, "Too many values in --percentile (up to %d can be given)",
             RUNNER_MAX_PERCENTILES);
    return -1;
  }
  for (size_t i = 0; n > 1 && i < n; i++) {
    if (cfg->percentiles[i] <= 0) {
      option_report_invalid("percentile", opt_string("percentile"), NULL,
                            "percentiles above 0 in a list; 0 alone disables percentiles");
      return -1;
    }
  }
  cfg->percentile_count = n == 1 && cfg->percentiles[0] <= 0 ? 0 : n;
  cfg->percentile = cfg->percentile_count > 0 ? cfg->percentiles[0] : 0;
  return 0;
}

/* Ranges and choices are checked by the option registry (options_check_given) before this
   runs; what is left are the rules between options. */
int cli_options_load_run_config(run_config *cfg)
{
  memset(cfg, 0, sizeof(*cfg));
  cfg->threads = (unsigned) opt_int("threads");
  cfg->max_events = (uint64_t) opt_int("events");
  cfg->max_time = opt_double("time");

  if (cfg->max_events == 0 && cfg->max_time == 0)
    log_text(LOG_WARNING, "Both event and time limits are disabled, running an endless test");

  cfg->warmup_time = opt_double("warmup-time");
  cfg->thread_init_timeout = opt_double("thread-init-timeout");
  cfg->thread_stack_size = opt_size("thread-stack-size");
  /* 1.0's 64K default is too small for the C++ storage engine linked in (its thread-local
     storage alone can exceed it); unless the user asked for a size, workers get 1M. */
  if (!opt_is_set("thread-stack-size") && cfg->thread_stack_size < (1u << 20))
    cfg->thread_stack_size = 1u << 20;

  cfg->rate = opt_double("rate");
  cfg->report_interval = opt_double("report-interval");

  if (load_checkpoints(cfg) || load_forced_shutdown(cfg))
    return -1;

  if (load_percentiles(cfg) != 0)
    return -1;
  cfg->histogram = opt_bool("histogram");
  if (cfg->histogram && cfg->percentile == 0) {
    log_text(LOG_FATAL, "--histogram cannot be used with --percentile=0");
    return -1;
  }

  cfg->debug = opt_bool("debug");
  cfg->validate = opt_bool("validate");
  return 0;
}

int cli_options_check(run_config *run, rand_config *rand)
{
  if (cli_options_resolve_aliases() != 0 || options_check_given() != 0 ||
      cli_options_apply_log() != 0 || cli_options_load_run_config(run) != 0 ||
      cli_options_load_rand_config(rand) != 0)
    return -1;
  return 0;
}

int cli_options_apply_log(void)
{
  /* --debug is verbosity 5 (run_config_option_text() shows it so to scripts, as 1.0.20) */
  log_set_verbosity(opt_bool("debug") ? 5 : (int) opt_int("verbosity"));
  return 0;
}

int cli_options_load_rand_config(rand_config *cfg)
{
  memset(cfg, 0, sizeof(*cfg));
  if (!rand_distribution_parse(opt_string("rand-type"), &cfg->type))
    return -1;                          /* not reached: the choices were checked */
  cfg->spec_iter = (unsigned) opt_int("rand-spec-iter");
  cfg->spec_pct = opt_double("rand-spec-pct");
  cfg->spec_res = opt_double("rand-spec-res");
  cfg->pareto_h = opt_double("rand-pareto-h");
  cfg->zipfian_exp = opt_double("rand-zipfian-exp");
  cfg->seed = (uint64_t) opt_int("rand-seed");
  return 0;
}
