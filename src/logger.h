/*
 * logger.h: the one place text reaches the user. Messages carry a level; those above
 * --verbosity are dropped, the rest get sysbench 1.0's prefixes ("FATAL: ", "ALERT: ",
 * "WARNING: ", "DEBUG: ") and go to stdout, and a message identical to the previous one is
 * folded into "(last message repeated N times)".
 */
#ifndef SB_LOGGER_H
#define SB_LOGGER_H

#include <stdarg.h>

typedef enum {
  LOG_FATAL = 0,
  LOG_ALERT = 1,
  LOG_WARNING = 2,
  LOG_NOTICE = 3,
  LOG_INFO = 4,
  LOG_DEBUG = 5
} log_level;

void log_set_verbosity(int verbosity);
int log_verbosity(void);

void log_text(log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void log_vtext(log_level level, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* A line prefixed with "[ Ns ] " (seconds since the run started, rounded as 1.0 does);
   never folded into "repeated" lines. */
void log_timestamped(log_level level, double seconds, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));

/* Digits after the point in "[ Ns ]" (0 as in 1.0; more for sub-second report intervals). */
void log_set_timestamp_decimals(int decimals);
/* (exported for the Lua reporters, which print the same times) */
int log_timestamp_decimals(void);

/* Flush a pending "(last message repeated N times)" line. */
void log_flush(void);

/*
 * A "HINT: " line after an error line of 1.0.20's: what would be accepted, or how to fix it.
 * Hints are additions to 1.0.20's output, so in exact mode (output_mode.h) they print
 * nothing. log_hint_at_end() keeps the hint for log_print_end_hints(), which main() calls
 * last: for an error whose own lines 1.0.20 follows with more (the script's error naming the
 * function that failed), so the hint comes after all of them. Each kept hint prints once.
 */
void log_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_hint_at_end(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_print_end_hints(void);

/* While the workers start (thread_init), every thread that fails usually fails alike; while
   they run, several may stop on one cause (a full disk fails every writer's commit). Between
   these calls a line of `most_severe` or worse already printed is not printed again, so each
   failure is said once however many threads had it. log_once_begin() again changes the level
   and keeps what was printed. In the exact mode (output_mode.h) each thread's lines are
   printed, as 1.0.20 prints them. */
void log_once_begin(log_level most_severe);
void log_once_end(void);

/* Every FATAL and ALERT line printed from now on (its text after the prefix, passwords
   masked) is also handed to `observer` (NULL: none), under the logger's lock: the result file
   keeps the errors of a run. */
typedef void (*log_error_observer)(const char *line);
void log_observe_errors(log_error_observer observer);

#endif
