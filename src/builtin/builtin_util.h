/*
 * builtin_util.h: what several compiled-in tests share:
 * an array of mutexes each on its own cache line.
 */
#ifndef SB_BUILTIN_UTIL_H
#define SB_BUILTIN_UTIL_H

#include <pthread.h>
#include <stdint.h>

/* One mutex per cache line: threads contend only on the mutex they share. */
typedef struct {
  pthread_mutex_t mutex;
} __attribute__((aligned(128))) padded_mutex;

/* `count` initialized mutexes, or NULL after logging an out-of-memory line naming `option`. */
padded_mutex *padded_mutexes_new(unsigned count, const char *option);
void padded_mutexes_free(padded_mutex *mutexes, unsigned count);

#endif
