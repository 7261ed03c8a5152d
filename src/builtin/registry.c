/*
 * registry.c: the compiled-in tests, in the order --help lists them.
 */
#include <stddef.h>

#include "test.h"

extern sb_test fileio_test;
extern sb_test cpu_test;
extern sb_test memory_test;
extern sb_test threads_test;
extern sb_test mutex_test;

sb_test *const builtin_tests[] = {
  &fileio_test,
  &cpu_test,
  &memory_test,
  &threads_test,
  &mutex_test,
  NULL
};
