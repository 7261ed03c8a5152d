/*
 * output.h: where results go. --report-format=text|json|csv chooses what standard output
 * carries (1.0.20's text by default; with json or csv, only that, and the text moves to
 * standard error), --report-file=PATH writes the JSON result document, --start-at=TIME starts
 * the measurement at a wall-clock time (for several clients run as one). This module owns the
 * document of the session (one run, or the runs of a sweep) and writes it at the end.
 */
#ifndef SB_RESULTS_OUTPUT_H
#define SB_RESULTS_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"
#include "results/result.h"
#include "run_config.h"

typedef enum { REPORT_FORMAT_TEXT, REPORT_FORMAT_JSON, REPORT_FORMAT_CSV } report_format;

extern const option_decl results_args[];

int results_register(char *err, size_t errlen);

/* After the options are read: check them, and for a `run` with --report-format=json|csv
   move everything else printed to standard error. Sets run->start_at_unix_ns. 0 or -1 (the
   message printed). */
int results_configure(const char *command, run_config *run);

/* Is this run recorded (a result file, a machine-readable format, or a sweep)? */
bool results_recording(void);
void results_enable_recording(void);
/* Seconds between recorded intervals: --report-interval, or 1 when reports are not printed. */
double results_interval_seconds(void);
/* The path of --report-file, or NULL. */
const char *results_report_file(void);
void results_set_report_file(const char *path);
/* Does standard output carry the results (--report-format=json|csv)? */
bool results_machine_readable(void);
/* The stream machine-readable output goes to (the original standard output). */
FILE *results_stream(void);

/* CSV: one row per recorded period, as it happens (nothing unless --report-format=csv). */
void results_csv_header(void);
void results_csv_period(const result_run *run, const result_period *p, const char *kind);

/* A run ended: its result joins the session's document (or, in a sweep's child process,
   goes to the parent). Takes ownership; NULL is allowed (nothing was measured). */
void results_run_finished(result_run *run);
/* This process runs one run of a sweep: its result goes to `fd`. */
void results_enter_sweep_child(int fd);
result_doc *results_session(void);

/* The end of the command: write the document (standard output for json, --report-file).
   Returns `rc`, or 1 if the result could not be written. */
int results_finish(int rc);


#endif
