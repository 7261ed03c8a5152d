/*
 * output_mode.c: --compat=1.0.20 / SYSBENCH_COMPAT=1.0.20, the exact-output mode: one flag,
 * set before any thread starts and read by every addition to 1.0.20's output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output_mode.h"
#include "printable.h"

#define COMPAT_ENV "SYSBENCH_COMPAT"

static bool exact;

bool output_exact(void)
{
  return exact;
}

/* 1: exact, 0: additions on, -1: not a value --compat takes. */
static int parse_mode(const char *value)
{
  if (strcmp(value, OUTPUT_EXACT_RELEASE) == 0)
    return 1;
  if (strcmp(value, "off") == 0 || value[0] == '\0')
    return 0;
  return -1;
}

void output_mode_early(int argc, char *const argv[])
{
  const char *env = getenv(COMPAT_ENV);
  if (env != NULL && parse_mode(env) >= 0)
    exact = parse_mode(env) == 1;
  for (int i = 1; i < argc; i++)
    if (strncmp(argv[i], "--compat=", 9) == 0 && parse_mode(argv[i] + 9) >= 0)
      exact = parse_mode(argv[i] + 9) == 1;
}

int output_mode_configure(const char *compat_option)
{
  if (compat_option != NULL) {
    /* the option's declaration checked the value */
    exact = parse_mode(compat_option) == 1;
    return 0;
  }
  const char *env = getenv(COMPAT_ENV);
  if (env == NULL) {
    exact = false;
    return 0;
  }
  int mode = parse_mode(env);
  if (mode < 0) {
    char shown[PRINTABLE_MAX];
    printf("FATAL: Invalid value for %s: '%s' (expected %s or off)\n", COMPAT_ENV,
           printable(env, shown, sizeof(shown)), OUTPUT_EXACT_RELEASE);
    return -1;
  }
  exact = mode == 1;
  return 0;
}
