/*
 * load_report.h: what `prepare` and `verify` of the sbtest tables print besides 1.0.20's
 * messages: progress while they run (on a terminal one live line per table being worked on;
 * otherwise a plain line every --report-interval seconds, 10 unless given), the size report
 * after prepare, the verdicts of verify, and the summary of an interrupted command. In exact
 * mode (output_mode.h) prepare prints 1.0.20's messages alone: no progress, notes or sizes.
 */
#ifndef SB_LOAD_REPORT_H
#define SB_LOAD_REPORT_H

#include <stddef.h>
#include <stdint.h>

/* ---- exported for sysbench.load (Lua, through FFI): a command's beginning, end and lines */

/* Join the command (the first caller sets it up and starts the progress lines): `tables`
   tables sbtest1.., `rows` each, `threads` threads calling. 0, or -1 when the arguments
   differ from the first caller's. */
int sb_load_start(int command, uint32_t tables, uint64_t rows, uint32_t threads);
/* After the last thread: stop the progress lines, print the report or the interrupt
   summary. Returns 0, or 1 when verify found a table wrong. */
int sb_load_finish(void);
/* Prints a line of the command's output, always (1.0.20 prints its messages whatever the
   --verbosity); the live progress lines of a terminal are redrawn below it. */
void sb_load_say(const char *text);
/* Prints `text` unless the same text was printed by this function before (a note that every
   thread may come to, said once). Notes are additions to 1.0.20's output: none in exact
   mode (output_mode.h). */
void sb_load_note_once(const char *text);

/* "12.3 MiB" style figure of `bytes` into buf ("-" when negative: not known). */
void load_report_mib(char *buf, size_t len, int64_t bytes);

#endif
