/*
 * sweep.h: --threads=8,16,32 runs the test once per thread count, each run in a process of
 * its own (its own warm-up, connections and statistics, as if started alone), then prints a
 * summary table and writes one result file with every run, an SVG chart and an HTML page.
 */
#ifndef SB_RESULTS_SWEEP_H
#define SB_RESULTS_SWEEP_H

#include <stdbool.h>

#include "run_config.h"
#include "test.h"

/* Was --threads given a list? */
bool sweep_requested(void);
/* Checks between options (before anything runs); 0 or -1 with the message printed. */
int sweep_check_options(const run_config *cfg);
/* Run the sweep, each step with `cfg` and its own thread count; `main` is the main thread's
   worker. Returns the exit code (the first failing run's, else 0). */
int sweep_run(sb_test *test, const run_config *cfg, worker *main);

#endif
