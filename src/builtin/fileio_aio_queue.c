/*
 * fileio_aio_queue.c: one worker's queue of asynchronous requests: its slots and buffers, when
 * a request is seen complete and timed, and when a submission waits (see fileio_aio_queue.h).
 * It knows nothing of libaio, so its decisions are unit-tested with a fake clock.
 *
 * Slots and buffers are allocated once, not per request.
 */
#include <stdlib.h>
#include <string.h>

#include "builtin_util.h"
#include "fileio_aio_queue.h"

int aio_queue_init(aio_queue *q, const aio_queue_ops *ops, void *context, unsigned backlog,
                   size_t request_size, bool own_buffers, uint64_t *ratio_reads,
                   uint64_t *ratio_writes)
{
  memset(q, 0, sizeof(*q));
  q->ops = ops;
  q->context = context;
  q->backlog = backlog;
  q->ratio_reads = ratio_reads;
  q->ratio_writes = ratio_writes;
  q->slots = calloc(backlog, sizeof(*q->slots));
  q->free_slots = calloc(backlog, sizeof(*q->free_slots));
  q->completions = calloc(backlog, sizeof(*q->completions));
  if (own_buffers)
    q->slot_buffers = page_aligned_zeroed(backlog * request_size);
  else {
    q->read_buffer = page_aligned_zeroed(request_size);
    q->write_buffer = page_aligned_zeroed(request_size);
  }
  if (q->slots == NULL || q->free_slots == NULL || q->completions == NULL ||
      (own_buffers ? q->slot_buffers == NULL : q->read_buffer == NULL || q->write_buffer == NULL))
    return -1;
  for (unsigned i = 0; i < backlog; i++) {
    if (own_buffers)
      q->slots[i].buffer = q->slot_buffers + (size_t) i * request_size;
    q->free_slots[i] = backlog - 1 - i;      /* slot 0 on top */
  }
  q->free_count = backlog;
  return 0;
}

void aio_queue_free(aio_queue *q)
{
  free(q->slots);
  free(q->free_slots);
  free(q->completions);
  free(q->read_buffer);
  free(q->write_buffer);
  free(q->slot_buffers);
  memset(q, 0, sizeof(*q));
}

static unsigned char *buffer_of(const aio_queue *q, const aio_slot *slot, fileio_op op)
{
  if (slot->buffer != NULL)
    return slot->buffer;
  return op == FILEIO_OP_READ ? q->read_buffer : q->write_buffer;
}

unsigned char *aio_queue_next_buffer(aio_queue *q)
{
  /* There is always a free slot between submissions: a full backlog is reaped at once. */
  return buffer_of(q, &q->slots[q->free_slots[q->free_count - 1]], FILEIO_OP_WRITE);
}

/* Take what the interface has finished (waiting for one completion if `wait`), timed by one
   clock read as the collection returns: how many, or -1. After a failure (reported once) the
   others are still taken, so the queue empties, but no longer counted. */
static int collect(aio_queue *q, bool wait)
{
  if (q->in_flight == 0)
    return q->failed ? -1 : 0;
  int n = q->ops->collect(q->context, wait, q->completions, q->in_flight);
  if (n < 0) {
    q->failed = true;
    q->in_flight = 0;           /* nothing more can be waited for */
    return -1;
  }
  if (n == 0)
    return q->failed ? -1 : 0;
  uint64_t now = q->ops->now_ns();
  for (int i = 0; i < n; i++) {
    aio_slot *slot = &q->slots[q->completions[i].slot];
    const fileio_request *r = &slot->request;
    q->free_slots[q->free_count++] = q->completions[i].slot;
    q->in_flight--;
    if (r->op == FILEIO_OP_READ)
      q->held_reads++;
    else
      q->held_writes++;
    if (!q->failed &&
        q->ops->finished(q->context, r, buffer_of(q, slot, r->op), q->completions[i].result,
                         now - slot->submitted_ns, slot->measured) != 0)
      q->failed = true;
  }
  return q->failed ? -1 : n;
}

/* 1.0.20 reaps: every completion there is goes into the ratio and leaves the backlog. */
static void reap_held(aio_queue *q)
{
  *q->ratio_reads += q->held_reads;
  *q->ratio_writes += q->held_writes;
  q->held_reads = q->held_writes = 0;
}

int aio_queue_submit(aio_queue *q, const fileio_request *r, uint64_t started_ns, bool measured)
{
  unsigned index = q->free_slots[--q->free_count];
  aio_slot *slot = &q->slots[index];

  slot->request = *r;
  slot->submitted_ns = started_ns;
  slot->measured = measured;
  if (q->ops->submit(q->context, index, r, buffer_of(q, slot, r->op)) != 0) {
    q->free_slots[q->free_count++] = index;
    return -1;
  }
  q->in_flight++;
  /* A request on a buffered file is done before io_submit returns: see it now. */
  if (collect(q, false) < 0)
    return -1;
  if (q->in_flight + q->held_reads + q->held_writes < q->backlog)
    return 0;
  /* The backlog is full: 1.0.20 would wait here for at least one completion. */
  if (q->held_reads + q->held_writes == 0 && collect(q, true) < 0)
    return -1;
  reap_held(q);
  return 0;
}

int aio_queue_poll(aio_queue *q)
{
  return collect(q, false);
}

int aio_queue_drain(aio_queue *q)
{
  while (q->in_flight > 0)
    collect(q, true);
  return q->failed ? -1 : 0;
}
