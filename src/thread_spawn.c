/*
 * thread_spawn.c: starting and joining groups of threads (see thread_spawn.h).
 */
#include "thread_spawn.h"

int threads_spawn(pthread_t *threads, unsigned count, size_t stack_size, void *(*fn)(void *),
                  void *args, size_t arg_size, unsigned *started)
{
  pthread_attr_t attr;
  int rc = 0;

  *started = 0;
  pthread_attr_init(&attr);
  if (stack_size > 0 && pthread_attr_setstacksize(&attr, stack_size) != 0) {
    pthread_attr_destroy(&attr);
    return THREAD_SPAWN_BAD_STACK_SIZE;
  }
  for (unsigned i = 0; i < count; i++) {
    rc = pthread_create(&threads[i], &attr, fn, (char *) args + (size_t) i * arg_size);
    if (rc != 0)
      break;
    (*started)++;
  }
  pthread_attr_destroy(&attr);
  return rc;
}

void threads_join(pthread_t *threads, unsigned count)
{
  for (unsigned i = 0; i < count; i++)
    pthread_join(threads[i], NULL);
}
