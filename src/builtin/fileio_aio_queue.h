/*
 * fileio_aio_queue.h: one worker's queue of asynchronous requests (--file-io-mode=async), apart
 * from the interface that carries them: fileio_aio.c plugs in Linux native AIO, the unit test
 * (tests/unit/test_fileio_aio_queue.c) a fake with a fake clock. The queue decides
 *
 *  - how long a request took: from the start of its submission to the first look that finds
 *    it complete. The queue looks right after every submission, at every poll (the start of
 *    each event) and, when it has to wait, as each wait returns, so a request is never left
 *    to wait for a full backlog before it is seen;
 *  - when a submission waits, and which requests rndrw's read/write ratio has seen: as in
 *    sysbench 1.0.20, which reaps (and only then counts) completed requests only once
 *    --file-async-backlog requests are submitted and not reaped. A completed request is
 *    therefore "held" until then: it still takes a place in the backlog and is not yet
 *    in the ratio's counts, though it is long counted in the report.
 */
#ifndef SB_FILEIO_AIO_QUEUE_H
#define SB_FILEIO_AIO_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fileio.h"

/* A finished request: the slot it was submitted in, and what it returned. */
typedef struct aio_completion {
  unsigned slot;
  int64_t result;               /* bytes transferred, or -errno */
} aio_completion;

/* What the queue needs from outside; `context` is handed to each call. */
typedef struct aio_queue_ops {
  /* Start `r` on `buffer`, as the request of slot `slot`: 0, or -1 after saying why. */
  int (*submit)(void *context, unsigned slot, const fileio_request *r, unsigned char *buffer);
  /* Up to `max` finished requests into `out`: with `wait`, block until there is at least
     one; without, only those finished already. Their number, or -1 after saying why. */
  int (*collect)(void *context, bool wait, aio_completion *out, unsigned max);
  /* The monotonic clock, in nanoseconds. */
  uint64_t (*now_ns)(void);
  /* A request is complete: check, count and time it. 0, or -1 to stop the run. */
  int (*finished)(void *context, const fileio_request *r, const unsigned char *buffer,
                  int64_t result, uint64_t latency_ns, bool measured);
} aio_queue_ops;

typedef struct aio_slot {
  fileio_request request;
  uint64_t submitted_ns;        /* when its submission began */
  bool measured;                /* submitted by a measured (not a warm-up) event */
  unsigned char *buffer;        /* its own buffer (--validate), else NULL */
} aio_slot;

typedef struct aio_queue {
  const aio_queue_ops *ops;
  void *context;
  unsigned backlog;             /* --file-async-backlog */
  unsigned in_flight;           /* submitted, not yet seen complete */
  unsigned held_reads;          /* seen complete, not yet reaped by 1.0.20's rule */
  unsigned held_writes;
  uint64_t *ratio_reads;        /* where requests reaped by that rule are counted */
  uint64_t *ratio_writes;
  aio_slot *slots;
  unsigned *free_slots;         /* a stack of the indexes of slots not in flight */
  unsigned free_count;
  aio_completion *completions;
  unsigned char *read_buffer;   /* shared by all reads (without --validate) */
  unsigned char *write_buffer;  /* shared by all writes, zeroes (without --validate) */
  unsigned char *slot_buffers;  /* --validate: backlog x request_size */
  bool failed;                  /* a request failed: the rest are only waited for */
} aio_queue;

/* `own_buffers`: every slot gets a buffer of its own (--validate), so a block read is checked
   as it was read; otherwise all reads share one and all writes another. The requests reaped
   by 1.0.20's rule are added to *ratio_reads and *ratio_writes. 0, or -1 when out of memory. */
int aio_queue_init(aio_queue *q, const aio_queue_ops *ops, void *context, unsigned backlog,
                   size_t request_size, bool own_buffers, uint64_t *ratio_reads,
                   uint64_t *ratio_writes);
void aio_queue_free(aio_queue *q);
/* The buffer the next write will be submitted from (fill it first under --validate). */
unsigned char *aio_queue_next_buffer(aio_queue *q);
/* Submit `r`, whose submission began at `started_ns`; look for completions; when the backlog
   is full, wait for at least one completion (unless some are held) and reap. 0 or -1. */
int aio_queue_submit(aio_queue *q, const fileio_request *r, uint64_t started_ns, bool measured);
/* Take the completions that are there, without waiting: how many, or -1. */
int aio_queue_poll(aio_queue *q);
/* Wait until nothing is in flight, taking each completion as it comes. 0 or -1. */
int aio_queue_drain(aio_queue *q);

#endif
