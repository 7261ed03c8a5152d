/*
 * logger.c: levelled text output with sysbench 1.0's prefixes and repeated-line folding.
 * Called from any thread; a mutex keeps lines whole (logging is never on the per-event path),
 * and stdout's own lock, held across the several stdio calls of a line, keeps a script's
 * print() or io.write() from another thread out of the middle of it. No password leaves in a
 * line (secrets.h): a library's message that echoes a connection string is masked here.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "logger.h"
#include "output_mode.h"
#include "printable.h"
#include "secrets.h"

#define LOG_LINE_MAX 4096

static int verbosity = LOG_NOTICE;
static pthread_mutex_t log_mutex = PTHREAD_MUTEX_INITIALIZER;
static char last_line[LOG_LINE_MAX];
static unsigned repeat_count;
static int timestamp_decimals;
static log_error_observer error_observer;

/* log_once_begin(): hashes of the lines of once_level or worse printed since (a line beyond the
   table is printed every time). */
#define ONCE_LINES_MAX 128
static bool once_open;
static log_level once_level;
static uint64_t once_lines[ONCE_LINES_MAX];
static unsigned once_count;

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

/* FNV-1a of a line: two different lines with one hash are too rare to matter here. */
static uint64_t line_hash(const char *line)
{
  uint64_t h = 14695981039346656037u;
  for (const unsigned char *p = (const unsigned char *) line; *p != '\0'; p++)
    h = (h ^ *p) * 1099511628211u;
  return h;
}

/* Caller holds log_mutex. Was `line` printed already since log_once_begin()? (then it is
   not printed again; otherwise it is remembered) In the exact mode every line is printed:
   1.0.20 says them once per thread. */
static bool said_once(log_level level, const char *line)
{
  if (!once_open || level > once_level || output_exact())
    return false;
  uint64_t h = line_hash(line);
  for (unsigned i = 0; i < once_count; i++)
    if (once_lines[i] == h)
      return true;
  if (once_count < ONCE_LINES_MAX)
    once_lines[once_count++] = h;
  return false;
}

void log_once_begin(log_level most_severe)
{
  pthread_mutex_lock(&log_mutex);
  if (!once_open)
    once_count = 0;
  once_open = true;
  once_level = most_severe;
  pthread_mutex_unlock(&log_mutex);
}

void log_once_end(void)
{
  pthread_mutex_lock(&log_mutex);
  once_open = false;
  once_count = 0;
  pthread_mutex_unlock(&log_mutex);
}

void log_vtext(log_level level, const char *fmt, va_list ap)
{
  char text[LOG_LINE_MAX], line[LOG_LINE_MAX], shown[LOG_LINE_MAX];

  if ((int) level > verbosity)
    return;
  vsnprintf(text, sizeof(text), fmt, ap);
  secrets_mask(text, line, sizeof(line));

  pthread_mutex_lock(&log_mutex);
  if (said_once(level, line)) {
    pthread_mutex_unlock(&log_mutex);
    return;
  }
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
  if (error_observer != NULL && level <= LOG_ALERT)
    error_observer(printable_message(line, shown, sizeof(shown)));
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

void log_observe_errors(log_error_observer observer)
{
  pthread_mutex_lock(&log_mutex);
  error_observer = observer;
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
