/*
 * merge.h: several client machines' result files as one run: counts added, histograms merged
 * bucket by bucket (exact), per-thread figures side by side, intervals aligned on the wall
 * clock. Run i of every file is merged with run i of the others (a sweep merges per thread
 * count).
 */
#ifndef SB_RESULTS_MERGE_H
#define SB_RESULTS_MERGE_H

#include <stddef.h>

#include "results/result.h"

/* 0, or -1 with one line in err saying which files do not go together and why. Warnings
   (clients that did not start together) are printed. */
int merge_documents(const result_doc *docs, const char *const *names, size_t n,
                    result_doc *out, char *err, size_t errlen);

#endif
