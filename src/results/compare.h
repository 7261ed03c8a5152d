/*
 * compare.h: result files side by side as text: which file is which, then per thread count
 * every figure of each file and its ratio to the first file.
 */
#ifndef SB_RESULTS_COMPARE_H
#define SB_RESULTS_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "results/figures.h"

void compare_print(FILE *out, const figures_source *src, size_t n);

#endif
