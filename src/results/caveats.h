/*
 * caveats.h: how far a comparison of result files can be trusted. The warnings (files that ran
 * other tests, drivers or options, runs that failed) and the noise band of each ratio, from
 * the spread of the runs' own interval figures. `compare` prints them; its page shows them.
 */
#ifndef SB_RESULTS_CAVEATS_H
#define SB_RESULTS_CAVEATS_H

#include <stddef.h>

#include "results/figures.h"

/* The warnings about comparing these sources, each one line without a prefix; *count set.
   NULL when there are none (or out of memory: then *count is 0). Free with caveats_free. */
char **caveats_warnings(const figures_source *src, size_t n, size_t *count);
void caveats_free(char **warnings, size_t count);

/* How much figure `m` of run `r` moves from interval to interval: the standard deviation of
   its per-interval values over their mean (0.05 = 5 %). NAN when it cannot be told: fewer
   than 3 intervals, a mean of 0, or a figure intervals do not have (the maximum). */
double caveats_spread(const figure *m, const result_run *r);

/* The ratio b/a with its noise band, "1.112x ±0.081" (band = ratio x sqrt(spread_a^2 +
   spread_b^2); "±?" when a spread is unknown), or "-" when a is 0. Returns buf. */
char *caveats_ratio_text(char *buf, size_t len, double a, double b, double spread_a,
                         double spread_b);

#endif
