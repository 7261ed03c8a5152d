/*
 * builtin_util.h: what several compiled-in tests share:
 * an array of mutexes each on its own cache line, and page-aligned buffers.
 */
#ifndef SB_BUILTIN_UTIL_H
#define SB_BUILTIN_UTIL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One mutex per cache line: threads contend only on the mutex they share. */
typedef struct {
  pthread_mutex_t mutex;
} __attribute__((aligned(128))) padded_mutex;

/* `count` initialized mutexes, or NULL after logging an out-of-memory line naming `option`. */
padded_mutex *padded_mutexes_new(unsigned count, const char *option);
void padded_mutexes_free(padded_mutex *mutexes, unsigned count);

/* `len` zeroed bytes starting on a page boundary (as O_DIRECT needs), or NULL. Inline, so
   code unit-tested on its own needs no other object for it. */
static inline unsigned char *page_aligned_zeroed(size_t len)
{
  void *buffer = NULL;
  long page = sysconf(_SC_PAGESIZE);

  if (posix_memalign(&buffer, page > 0 ? (size_t) page : 4096, len) != 0)
    return NULL;
  memset(buffer, 0, len);
  return buffer;
}

#endif
