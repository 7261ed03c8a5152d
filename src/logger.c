/*
 * logger.c: levelled text output with sysbench 1.0's prefixes and repeated-line folding.
 * Called from any thread; a mutex keeps lines whole (logging is never on the per-event path),
 * and stdout's own lock, held across the several stdio calls of a line, keeps a script's
 * print() or io.write() from another thread out of the middle of it.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "logger.h"
#include "output_mode.h"
#include "printable.h"

#define LOG_LINE_MAX 4096

static int verbosity = LOG_NOTICE;
static pthread_mutex_t log_mutex = PTHREAD_MUTEX_INITIALIZER;
static char last_line[LOG_LINE_MAX];
static unsigned repeat_count;
static int timestamp_decimals;

static const char *const level_prefix[] = {
  [LOG_FATAL] = "FATAL: ",
  [LOG_ALERT] = "ALERT: ",
  [LOG_WARNING] = "WARNING: ",
  [LOG_NOTICE] = "",
  [LOG_INFO] = "",
  [LOG_DEBUG] = "DEBUG: ",
};

void log_set_verbosity(int v)
{
  verbosity = v;
}

int log_verbosity(void)
{
  return verbosity;
}

/* Caller holds log_mutex. */
static void flush_repeats(void)
{
  if (repeat_count > 0)
    printf("(last message repeated %u times)\n", repeat_count);
  repeat_count = 0;
}

void log_vtext(log_level level, const char *fmt, va_list ap)
{
  char line[LOG_LINE_MAX], shown[LOG_LINE_MAX];

  if ((int) level > verbosity)
    return;
  vsnprintf(line, sizeof(line), fmt, ap);

  pthread_mutex_lock(&log_mutex);
  flockfile(stdout);
  if (strcmp(line, last_line) == 0 && line[0] != '\0' && line[0] != '\n') {
    repeat_count++;
  } else {
    flush_repeats();
    memcpy(last_line, line, sizeof(line));
    fputs(level_prefix[level], stdout);
    /* Messages carry user text (option values, file names, server and Lua errors): no raw
       control byte of theirs reaches the terminal. */
    fputs(printable_message(line, shown, sizeof(shown)), stdout);
    fputc('\n', stdout);
    fflush(stdout);
  }
  funlockfile(stdout);
  pthread_mutex_unlock(&log_mutex);
}

void log_text(log_level level, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  log_vtext(level, fmt, ap);
  va_end(ap);
}

void log_timestamped(log_level level, double seconds, const char *fmt, ...)
{
  va_list ap;

  if ((int) level > verbosity)
    return;
  pthread_mutex_lock(&log_mutex);
  flockfile(stdout);
  flush_repeats();
  last_line[0] = '\0';
  printf("%s[ %.*fs ] ", level_prefix[level], timestamp_decimals, seconds);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  fputc('\n', stdout);
  fflush(stdout);
  funlockfile(stdout);
  pthread_mutex_unlock(&log_mutex);
}

void log_set_timestamp_decimals(int decimals)
{
  timestamp_decimals = decimals;
}

int log_timestamp_decimals(void)
{
  return timestamp_decimals;
}

void log_flush(void)
{
  pthread_mutex_lock(&log_mutex);
  flush_repeats();
  last_line[0] = '\0';
  fflush(stdout);
  pthread_mutex_unlock(&log_mutex);
}

/* The hint's text into buf; false in exact mode, where no hint is printed. */
static bool format_hint(char *buf, size_t len, const char *fmt, va_list ap)
  __attribute__((format(printf, 3, 0)));
static bool format_hint(char *buf, size_t len, const char *fmt, va_list ap)
{
  if (output_exact())
    return false;
  vsnprintf(buf, len, fmt, ap);
  return true;
}

void log_hint(const char *fmt, ...)
{
  char hint[LOG_LINE_MAX];
  va_list ap;

  va_start(ap, fmt);
  bool wanted = format_hint(hint, sizeof(hint), fmt, ap);
  va_end(ap);
  if (wanted)
    log_text(LOG_NOTICE, "HINT: %s", hint);
}

#define END_HINTS_MAX 4
static char end_hints[END_HINTS_MAX][512];
static unsigned end_hint_count;

void log_hint_at_end(const char *fmt, ...)
{
  char hint[sizeof(end_hints[0])];
  va_list ap;

  va_start(ap, fmt);
  bool wanted = format_hint(hint, sizeof(hint), fmt, ap);
  va_end(ap);
  if (!wanted)
    return;
  pthread_mutex_lock(&log_mutex);
  bool known = false;
  for (unsigned i = 0; i < end_hint_count; i++)
    known = known || strcmp(end_hints[i], hint) == 0;
  if (!known && end_hint_count < END_HINTS_MAX)
    memcpy(end_hints[end_hint_count++], hint, sizeof(hint));
  pthread_mutex_unlock(&log_mutex);
}

void log_print_end_hints(void)
{
  for (unsigned i = 0; i < end_hint_count; i++)
    log_text(LOG_NOTICE, "HINT: %s", end_hints[i]);
  end_hint_count = 0;
}
