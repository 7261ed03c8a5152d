/*
 * run_config.h: the configuration of a run, built once from the options (cli_options.c) and
 * never changed after: a run copies it, a sweep's step is given a value of its own.
 */
#ifndef SB_RUN_CONFIG_H
#define SB_RUN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RUNNER_MAX_CHECKPOINTS 256
#define RUNNER_MAX_PERCENTILES 16

typedef struct run_config {
  unsigned threads;
  uint64_t max_events;            /* 0 = no limit */
  double max_time;                /* seconds; 0 = no limit */
  double warmup_time;             /* seconds run before statistics start */
  double report_interval;         /* seconds; 0 = no intermediate reports */
  double checkpoints[RUNNER_MAX_CHECKPOINTS];  /* seconds, ascending */
  size_t checkpoint_count;
  double rate;                    /* events per second; 0 = as fast as possible */
  bool forced_shutdown;
  double forced_shutdown_after;   /* seconds after max_time */
  double thread_init_timeout;     /* seconds */
  size_t thread_stack_size;
  double percentile;              /* the first of --percentile; 0 = disabled */
  double percentiles[RUNNER_MAX_PERCENTILES];  /* every --percentile value, as given */
  size_t percentile_count;        /* 0 = disabled */
  bool histogram;
  bool debug;
  bool validate;
  uint64_t start_at_unix_ns;      /* --start-at: wall clock to start at (ns); 0 = at once */
  bool sweep_step;                /* a step of a thread sweep: `threads` is this step's count
                                     of the --threads list */
} run_config;

/* Once, when the options are parsed: the configuration they give. Never changed afterwards:
   a run (a sweep's step) is given its own value (runner_config() is the active run's). */
void run_config_publish(const run_config *config);
/* The configuration the options give (read-only): for what every run of a process shares,
   such as --report-interval and --percentile. */
const run_config *run_config_of_options(void);

/*
 * Option `name` as a run with `cfg` uses it, where that differs from the text given: a
 * sweep's step runs its own thread count, and --debug runs at verbosity 5 (as 1.0.20 shows
 * it to scripts). The text (in buf) or NULL where the option's own text is what runs. What
 * scripts read as sysbench.opt and what a result file records come from here; the option
 * registry itself is never written after parsing.
 */
const char *run_config_option_text(const run_config *cfg, const char *name, char *buf,
                                   size_t len);

#endif
