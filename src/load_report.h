/*
 * load_report.h: what `prepare` and `verify` of the sbtest tables print besides 1.0.20's
 * messages: progress while they run (on a terminal one live line per table being worked on;
 * otherwise a plain line every --report-interval seconds, 10 unless given), the size report
 * after prepare, the verdicts of verify, and the summary of an interrupted command.
 */
#ifndef SB_LOAD_REPORT_H
#define SB_LOAD_REPORT_H

#include <stddef.h>
#include <stdint.h>

/* Start and stop the progress reporter thread (load_state.c calls them). */
void load_report_start(void);
void load_report_stop(void);
/* A line of the command's output, always printed (1.0.20 prints its messages whatever the
   --verbosity); the live progress lines of a terminal are redrawn below it. */
void load_report_say(const char *text);
/* After the last thread: the size report (prepare), the verdict count (verify), or the
   interrupt summary. 1 when verify found a table wrong, else 0. */
int load_report_final(void);

/* "12.3 MiB" style figure of `bytes` into buf ("-" when negative: not known). */
void load_report_mib(char *buf, size_t len, int64_t bytes);

#endif
