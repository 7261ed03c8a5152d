/*
 * thread_spawn.h: the one place OS threads are started: a run's workers, a parallel
 * command's threads, the reporter and the --rate generator. Workers and command threads get
 * the --thread-stack-size stack (as in 1.0.20, where both came from one thread attribute).
 */
#ifndef SB_THREAD_SPAWN_H
#define SB_THREAD_SPAWN_H

#include <pthread.h>
#include <stddef.h>

/* The system refused the stack size: no thread was started. */
#define THREAD_SPAWN_BAD_STACK_SIZE (-1)

/*
 * Start `count` threads; thread i runs fn(args + i * arg_size) (arg_size 0: every thread gets
 * `args`). `stack_size` 0 is the system's default. Returns 0 when all started; else
 * THREAD_SPAWN_BAD_STACK_SIZE, or the error of the thread that failed to start, with
 * *started telling how many did (the caller stops and joins those).
 */
int threads_spawn(pthread_t *threads, unsigned count, size_t stack_size, void *(*fn)(void *),
                  void *args, size_t arg_size, unsigned *started);

/* Join the first `count` of `threads`. */
void threads_join(pthread_t *threads, unsigned count);

#endif
