/*
 * tap.h: the few TAP helpers the C unit tests use. Each check prints "ok N - name" or
 * "not ok N - name" (with a diagnostic line); tap_done() prints the plan and returns the exit
 * status. tests/run.sh counts these lines across the whole suite.
 */
#ifndef SB_TAP_H
#define SB_TAP_H

#include <stdio.h>
#include <stdarg.h>
#include <string.h>

static int tap_count;
static int tap_failed;

static inline int tap_check(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int tap_check(int cond, const char *fmt, ...)
{
  va_list ap;
  tap_count++;
  if (!cond)
    tap_failed++;
  printf("%sok %d - ", cond ? "" : "not ", tap_count);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  fflush(stdout);
  return cond;
}

/* ok(cond, "what must hold") */
#define ok(cond, ...) tap_check(!!(cond), __VA_ARGS__)

/* Numeric comparison with the values shown on failure. */
#define ok_num(got, op, want, name)                                              \
  do {                                                                           \
    double tap_g_ = (double) (got), tap_w_ = (double) (want);                   \
    if (!tap_check(tap_g_ op tap_w_, "%s", name))                               \
      printf("#   got %.10g, expected %s %.10g\n", tap_g_, #op, tap_w_);        \
  } while (0)

/* String equality with both strings shown on failure. */
#define is_str(got, want, name)                                                  \
  do {                                                                           \
    const char *tap_gs_ = (got), *tap_ws_ = (want);                              \
    if (!tap_check(strcmp(tap_gs_, tap_ws_) == 0, "%s", name))                   \
      printf("#   got '%s', expected '%s'\n", tap_gs_, tap_ws_);               \
  } while (0)

static inline void tap_skip(const char *why)
{
  tap_count++;
  printf("ok %d # SKIP %s\n", tap_count, why);
}

static inline int tap_done(void)
{
  printf("1..%d\n", tap_count);
  return tap_failed ? 1 : 0;
}

#endif
