/*
 * output_mode.h: whether this run prints exactly what sysbench 1.0.20 prints. With
 * --compat=1.0.20 (or SYSBENCH_COMPAT=1.0.20 in the environment, so that wrappers need no
 * change) every addition to 1.0.20's output is left out: no added line, block, HINT or help
 * text. output_exact() is the one predicate every addition consults (docs/architecture.md,
 * "Additions to the output").
 */
#ifndef SB_OUTPUT_MODE_H
#define SB_OUTPUT_MODE_H

#include <stdbool.h>
#include <stddef.h>

/* The release whose output --compat reproduces. */
#define OUTPUT_EXACT_RELEASE "1.0.20"

/* True when the output must be 1.0.20's byte for byte (apart from where 1.0.20 crashes,
   hangs or accepts nonsense: docs/compatibility.md). Set once before any thread starts. */
bool output_exact(void);

/* The mode asked for before the options are parsed: SYSBENCH_COMPAT, then a --compat=VALUE
   argument (so that the parser's own messages already follow it). A value that is not one
   --compat takes is left for output_mode_configure() to report. */
void output_mode_early(int argc, char *const argv[]);

/* The mode the parsed options ask for: `compat_option`, --compat's value when the user gave
   it (command line or config file; NULL if not), else SYSBENCH_COMPAT. Returns -1 after
   printing why SYSBENCH_COMPAT's value is not one --compat takes. */
int output_mode_configure(const char *compat_option);

#endif
