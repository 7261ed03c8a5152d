/*
 * cli_options.c: the core options (general, random numbers, log) with 1.0.20's names,
 * defaults and help text plus master's additions, and their translation into the runner's,
 * the random generator's and the logger's configuration. Every value is checked here, once,
 * with a message naming the option and what it accepts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_options.h"
#include "logger.h"
#include "rand.h"

#define MAX_THREADS 100000

const sb_arg_t general_args[] = {
  {"threads", "number of threads to use", "1", SB_ARG_TYPE_INT, NULL},
  {"events", "limit for total number of events", "0", SB_ARG_TYPE_INT, NULL},
  {"time", "limit for total execution time in seconds", "10", SB_ARG_TYPE_DOUBLE, NULL},
  {"warmup-time", "execute events for this many seconds with statistics disabled before the "
   "actual benchmark run with statistics enabled", "0", SB_ARG_TYPE_DOUBLE, NULL},
  {"forced-shutdown", "number of seconds to wait after the --time limit before forcing "
   "shutdown, or 'off' to disable", "off", SB_ARG_TYPE_STRING, NULL},
  {"thread-stack-size", "size of stack per thread", "64K", SB_ARG_TYPE_SIZE, NULL},
  {"thread-init-timeout", "wait time in seconds for worker threads to initialize", "30",
   SB_ARG_TYPE_DOUBLE, NULL},
  {"rate", "average transactions rate. 0 for unlimited rate", "0", SB_ARG_TYPE_DOUBLE, NULL},
  {"report-interval", "periodically report intermediate statistics with a specified interval "
   "in seconds. 0 disables intermediate reports", "0", SB_ARG_TYPE_DOUBLE, NULL},
  {"report-checkpoints", "dump full statistics and reset all counters at specified points in "
   "time. The argument is a list of comma-separated values representing the amount of time in "
   "seconds elapsed from start of test when report checkpoint(s) must be performed. Report "
   "checkpoints are off by default.", "", SB_ARG_TYPE_LIST, NULL},
  {"debug", "print more debugging info", "off", SB_ARG_TYPE_BOOL, NULL},
  {"validate", "perform validation checks where possible", "off", SB_ARG_TYPE_BOOL, NULL},
  {"help", "print help and exit", "off", SB_ARG_TYPE_BOOL, NULL},
  {"version", "print version and exit", "off", SB_ARG_TYPE_BOOL, NULL},
  {"config-file", "File containing command line options", NULL, SB_ARG_TYPE_FILE, NULL},
  {"tx-rate", "deprecated alias for --rate", "0", SB_ARG_TYPE_INT, NULL},
  {"max-requests", "deprecated alias for --events", "0", SB_ARG_TYPE_INT, NULL},
  {"max-time", "deprecated alias for --time", "0", SB_ARG_TYPE_INT, NULL},
  {"num-threads", "deprecated alias for --threads", "1", SB_ARG_TYPE_INT, NULL},
  {NULL, NULL, NULL, SB_ARG_TYPE_NULL, NULL}
};

const sb_arg_t rand_args[] = {
  {"rand-type", "random numbers distribution {uniform,gaussian,special,pareto,zipfian}",
   "special", SB_ARG_TYPE_STRING, NULL},
  {"rand-spec-iter", "number of iterations used for numbers generation", "12",
   SB_ARG_TYPE_INT, NULL},
  {"rand-spec-pct", "percentage of values to be treated as 'special' (for special "
   "distribution)", "1", SB_ARG_TYPE_DOUBLE, NULL},
  {"rand-spec-res", "percentage of 'special' values to use (for special distribution)", "75",
   SB_ARG_TYPE_DOUBLE, NULL},
  {"rand-seed", "seed for random number generator. When 0, the current time is used as a RNG "
   "seed.", "0", SB_ARG_TYPE_INT, NULL},
  {"rand-pareto-h", "parameter h for pareto distribution", "0.2", SB_ARG_TYPE_DOUBLE, NULL},
  {"rand-zipfian-exp", "shape parameter (exponent, theta) for the Zipfian distribution", "0.8",
   SB_ARG_TYPE_DOUBLE, NULL},
  {NULL, NULL, NULL, SB_ARG_TYPE_NULL, NULL}
};

const sb_arg_t log_verbosity_args[] = {
  {"verbosity", "verbosity level {5 - debug, 0 - only critical messages}", "3",
   SB_ARG_TYPE_INT, NULL},
  {NULL, NULL, NULL, SB_ARG_TYPE_NULL, NULL}
};

const sb_arg_t log_latency_args[] = {
  {"percentile", "percentile to calculate in latency statistics (1-100). Use the special value "
   "of 0 to disable percentile calculations", "95", SB_ARG_TYPE_INT, NULL},
  {"histogram", "print latency histogram in report", "off", SB_ARG_TYPE_BOOL, NULL},
  {NULL, NULL, NULL, SB_ARG_TYPE_NULL, NULL}
};

int cli_options_register(char *err, size_t errlen)
{
  if (options_register(general_args, err, errlen) || options_register(rand_args, err, errlen) ||
      options_register(log_verbosity_args, err, errlen) ||
      options_register(log_latency_args, err, errlen))
    return -1;
  /* Hidden: the deprecated --test=NAME is handled by the argument parser. */
  static const sb_arg_t hidden[] = {
    {"test", NULL, NULL, SB_ARG_TYPE_STRING, NULL},
    {NULL, NULL, NULL, SB_ARG_TYPE_NULL, NULL}
  };
  return options_register(hidden, err, errlen);
}

/* 1.0's deprecated aliases win when given a non-default value, with a warning. The value is
   copied into the new option too, so scripts reading sysbench.opt.threads see it, as in 1.0. */
static int64_t aliased_int(const char *name, const char *alias, int64_t alias_default)
{
  int64_t old = opt_int(alias);
  if (opt_is_set(alias) && old != alias_default) {
    log_text(LOG_WARNING, "--%s is deprecated, use --%s instead", alias, name);
    option_force(name, opt_string(alias));
    return old;
  }
  return -1;
}

/* One line naming the option, the value given and what would be accepted. */
static int fail(const char *option, double value, const char *expected)
{
  log_text(LOG_FATAL, "Invalid value for --%s: %g (%s)", option, value, expected);
  return -1;
}

static int load_forced_shutdown(run_config *cfg)
{
  const char *text = opt_string("forced-shutdown");

  cfg->forced_shutdown = false;
  if (cfg->max_time <= 0)
    return 0;
  if (text == NULL || *text == '\0') {       /* bare --forced-shutdown: 5 % of --time */
    cfg->forced_shutdown = true;
    cfg->forced_shutdown_after = cfg->max_time / 20;
    return 0;
  }
  if (strcasecmp(text, "off") == 0)
    return 0;

  char *end;
  double n = strtod(text, &end);
  if (end == text || n < 0 || (*end != '\0' && strcmp(end, "%") != 0)) {
    log_text(LOG_FATAL, "Invalid value for --forced-shutdown: '%s' (expected 'off', a number "
             "of seconds, or a percentage of --time such as 5%%)", text);
    return -1;
  }
  cfg->forced_shutdown = true;
  cfg->forced_shutdown_after = *end == '%' ? cfg->max_time * n / 100 : n;
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
    if (end == items[i] || *end != '\0' || t < 0 || !isfinite(t)) {
      log_text(LOG_FATAL, "Invalid value for --report-checkpoints: '%s' (expected a list of "
               "non-negative numbers of seconds, e.g. 10,20,30)", items[i]);
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

static bool non_negative(double v)
{
  return v >= 0 && isfinite(v);
}

int cli_options_load_run_config(run_config *cfg)
{
  int64_t alias;

  memset(cfg, 0, sizeof(*cfg));

  int64_t threads = opt_int("threads");
  if ((alias = aliased_int("threads", "num-threads", 1)) >= 0)
    threads = alias;
  if (threads < 1 || threads > MAX_THREADS)
    return fail("threads", (double) threads, "expected 1 to 100000");
  cfg->threads = (unsigned) threads;

  int64_t events = opt_int("events");
  if ((alias = aliased_int("events", "max-requests", 0)) > 0)
    events = alias;
  if (events < 0)
    return fail("events", (double) events, "expected 0 for no limit, or a positive count");
  cfg->max_events = (uint64_t) events;

  double time = opt_double("time");
  if ((alias = aliased_int("time", "max-time", 0)) > 0)
    time = (double) alias;
  if (!non_negative(time))
    return fail("time", time, "expected 0 for no limit, or a number of seconds");
  cfg->max_time = time;

  if (cfg->max_events == 0 && cfg->max_time == 0)
    log_text(LOG_WARNING, "Both event and time limits are disabled, running an endless test");

  cfg->warmup_time = opt_double("warmup-time");
  if (!non_negative(cfg->warmup_time))
    return fail("warmup-time", cfg->warmup_time, "expected a number of seconds, 0 or more");

  cfg->thread_init_timeout = opt_double("thread-init-timeout");
  if (!(cfg->thread_init_timeout > 0) || !isfinite(cfg->thread_init_timeout))
    return fail("thread-init-timeout", cfg->thread_init_timeout,
                "expected a positive number of seconds");

  cfg->thread_stack_size = opt_size("thread-stack-size");
  /* 1.0's 64K default is too small for the C++ storage engine linked in (its thread-local
     storage alone can exceed it); unless the user asked for a size, workers get 1M. */
  if (!opt_is_set("thread-stack-size") && cfg->thread_stack_size < (1u << 20))
    cfg->thread_stack_size = 1u << 20;
  if (cfg->thread_stack_size < 16384)
    return fail("thread-stack-size", (double) cfg->thread_stack_size, "expected at least 16K");

  double rate = opt_double("rate");
  if ((alias = aliased_int("rate", "tx-rate", 0)) > 0)
    rate = (double) alias;
  if (!non_negative(rate))
    return fail("rate", rate, "expected 0 for unlimited, or events per second");
  cfg->rate = rate;

  cfg->report_interval = opt_double("report-interval");
  if (!non_negative(cfg->report_interval))
    return fail("report-interval", cfg->report_interval,
                "expected 0 to disable, or a number of seconds such as 10 or 0.5");

  if (load_checkpoints(cfg) || load_forced_shutdown(cfg))
    return -1;

  int64_t percentile = opt_int("percentile");
  if (percentile < 0 || percentile > 100)
    return fail("percentile", (double) percentile, "expected 1 to 100, or 0 to disable");
  cfg->percentile = (unsigned) percentile;
  cfg->histogram = opt_bool("histogram");
  if (cfg->histogram && cfg->percentile == 0) {
    log_text(LOG_FATAL, "--histogram cannot be used with --percentile=0");
    return -1;
  }

  cfg->debug = opt_bool("debug");
  cfg->validate = opt_bool("validate");
  return 0;
}

int cli_options_apply_log(void)
{
  int64_t verbosity = opt_int("verbosity");
  if (opt_bool("debug")) {
    verbosity = LOG_DEBUG;
    option_force("verbosity", "5");    /* sysbench.opt.verbosity shows it, as in 1.0 */
  }
  if (verbosity < 0 || verbosity > 5) {
    log_text(LOG_FATAL, "Invalid value for --verbosity: %lld (expected 0 to 5)",
             (long long) verbosity);
    return -1;
  }
  log_set_verbosity((int) verbosity);
  return 0;
}

int cli_options_load_rand_config(rand_config *cfg)
{
  const char *type = opt_string("rand-type");

  memset(cfg, 0, sizeof(*cfg));
  if (type == NULL || !rand_distribution_parse(type, &cfg->type)) {
    log_text(LOG_FATAL, "Invalid value for --rand-type: '%s' (expected uniform, gaussian, "
             "special, pareto or zipfian)", type ? type : "");
    return -1;
  }
  int64_t iter = opt_int("rand-spec-iter");
  if (iter < 1 || iter > 1000)
    return fail("rand-spec-iter", (double) iter, "expected 1 to 1000");
  cfg->spec_iter = (unsigned) iter;

  cfg->spec_pct = opt_double("rand-spec-pct");
  if (!(cfg->spec_pct >= 0 && cfg->spec_pct <= 100))
    return fail("rand-spec-pct", cfg->spec_pct, "expected a percentage, 0 to 100");
  cfg->spec_res = opt_double("rand-spec-res");
  if (!(cfg->spec_res >= 0 && cfg->spec_res <= 100))
    return fail("rand-spec-res", cfg->spec_res, "expected a percentage, 0 to 100");

  cfg->pareto_h = opt_double("rand-pareto-h");
  if (!(cfg->pareto_h > 0 && cfg->pareto_h < 1))
    return fail("rand-pareto-h", cfg->pareto_h, "expected a number between 0 and 1");
  cfg->zipfian_exp = opt_double("rand-zipfian-exp");
  if (!(cfg->zipfian_exp >= 0) || !isfinite(cfg->zipfian_exp))
    return fail("rand-zipfian-exp", cfg->zipfian_exp, "expected a number, 0 or more");

  int64_t seed = opt_int("rand-seed");
  cfg->seed = (uint64_t) seed;
  return 0;
}
