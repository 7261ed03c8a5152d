/*
 * builtin_util.c: helpers shared by the compiled-in tests (see builtin_util.h).
 */
#include <stdlib.h>

#include "builtin_util.h"
#include "logger.h"

padded_mutex *padded_mutexes_new(unsigned count, const char *option)
{
  void *memory;

  if (posix_memalign(&memory, _Alignof(padded_mutex), count * sizeof(padded_mutex)) != 0) {
    log_text(LOG_FATAL, "Out of memory for %u mutexes (--%s)", count, option);
    return NULL;
  }
  padded_mutex *mutexes = memory;
  for (unsigned i = 0; i < count; i++)
    pthread_mutex_init(&mutexes[i].mutex, NULL);
  return mutexes;
}

void padded_mutexes_free(padded_mutex *mutexes, unsigned count)
{
  for (unsigned i = 0; i < count && mutexes != NULL; i++)
    pthread_mutex_destroy(&mutexes[i].mutex);
  free(mutexes);
}
