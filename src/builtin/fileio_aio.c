/*
 * fileio_aio.c: --file-io-mode=async, with Linux native AIO (libaio). Each worker has its own
 * AIO context and up to --file-async-backlog requests in flight: an event submits one request,
 * and when the backlog is full it waits until at least one completes (as 1.0.20 does). A
 * request is counted, checked and timed when it completes, so reads/s, writes/s and the
 * per-operation latency are those of finished I/O, not of submissions.
 *
 * Request slots and their buffers are allocated once per worker, not per request. Without
 * --validate all reads share one buffer and all writes another (what lands in it does not
 * matter); with --validate every slot has its own, so a block is checked as it was read.
 *
 * Built without libaio, the mode is refused when the options are read (fileio_options.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "fileio.h"
#include "logger.h"

#ifdef HAVE_LIBAIO

#include <libaio.h>

typedef struct aio_slot {
  struct iocb iocb;
  fileio_request request;
  uint64_t submitted_ns;
  bool measured;
  unsigned char *buffer;        /* --validate: this slot's own; else NULL */
} aio_slot;

struct fileio_aio {
  io_context_t context;
  unsigned backlog;
  unsigned in_flight;
  aio_slot *slots;
  aio_slot **free_slots;        /* a stack of the slots not in flight */
  unsigned free_count;
  struct io_event *events;
  unsigned char *read_buffer;   /* shared by all reads (without --validate) */
  unsigned char *write_buffer;  /* shared by all writes, zeroes (without --validate) */
  unsigned char *slot_buffers;  /* --validate: backlog x request_size */
  bool failed;                  /* a request failed: the rest are only waited for */
};

bool fileio_aio_available(void)
{
  return true;
}

static unsigned char *aligned_buffer(size_t len)
{
  void *buffer = NULL;
  long page = sysconf(_SC_PAGESIZE);

  if (posix_memalign(&buffer, page > 0 ? (size_t) page : 4096, len) != 0)
    return NULL;
  memset(buffer, 0, len);
  return buffer;
}

static void aio_hint(unsigned backlog, int err)
{
  if (err == EAGAIN)
    log_hint("the kernel allows fewer AIO requests in flight (sysctl "
             "fs.aio-max-nr, for all processes) than --threads x --file-async-backlog = %u "
             "per thread asks for: lower either, or raise fs.aio-max-nr", backlog);
}

int fileio_aio_thread_init(fileio_worker *w)
{
  const fileio_settings *s = w->settings;
  struct fileio_aio *a = calloc(1, sizeof(*a));

  if (a == NULL) {
    log_text(LOG_FATAL, "Failed to allocate async I/O context!");
    return -1;
  }
  w->aio = a;
  a->backlog = s->async_backlog;
  int rc = io_queue_init((int) a->backlog, &a->context);
  if (rc != 0) {
    a->context = 0;
    fileio_log_errno(-rc, "io_queue_init() failed!");
    aio_hint(a->backlog, -rc);
    return -1;
  }
  a->slots = calloc(a->backlog, sizeof(*a->slots));
  a->free_slots = calloc(a->backlog, sizeof(*a->free_slots));
  a->events = calloc(a->backlog, sizeof(*a->events));
  if (s->validate)
    a->slot_buffers = aligned_buffer((size_t) (a->backlog * s->request_size));
  else {
    a->read_buffer = aligned_buffer(s->request_size);
    a->write_buffer = aligned_buffer(s->request_size);
  }
  if (a->slots == NULL || a->free_slots == NULL || a->events == NULL ||
      (s->validate ? a->slot_buffers == NULL : a->read_buffer == NULL || a->write_buffer == NULL)) {
    log_text(LOG_FATAL, "Failed to allocate async I/O context!");
    return -1;
  }
  for (unsigned i = 0; i < a->backlog; i++) {
    if (s->validate)
      a->slots[i].buffer = a->slot_buffers + (size_t) i * s->request_size;
    a->free_slots[i] = &a->slots[a->backlog - 1 - i];
  }
  a->free_count = a->backlog;
  return 0;
}

void fileio_aio_thread_free(fileio_worker *w)
{
  struct fileio_aio *a = w->aio;

  if (a == NULL)
    return;
  if (a->context != 0)
    io_queue_release(a->context);
  free(a->slots);
  free(a->free_slots);
  free(a->events);
  free(a->read_buffer);
  free(a->write_buffer);
  free(a->slot_buffers);
  free(a);
  w->aio = NULL;
}

static unsigned char *buffer_of(const struct fileio_aio *a, const aio_slot *slot, fileio_op op)
{
  if (slot->buffer != NULL)
    return slot->buffer;
  return op == FILEIO_OP_READ ? a->read_buffer : a->write_buffer;
}

unsigned char *fileio_aio_next_buffer(fileio_worker *w)
{
  struct fileio_aio *a = w->aio;
  /* There is always a free slot between events: a full backlog is waited on at once. */
  return buffer_of(a, a->free_slots[a->free_count - 1], FILEIO_OP_WRITE);
}

/* Wait for at least `min` requests to complete, and finish each. After a failure (reported
   once) the others are still waited for, so the queue empties, but no longer counted. */
static int reap(fileio_worker *w, unsigned min)
{
  struct fileio_aio *a = w->aio;
  int n;

  do
    n = io_getevents(a->context, min, a->backlog, a->events, NULL);
  while (n == -EINTR);
  if (n < 0) {
    fileio_log_errno(-n, "io_getevents() failed!");
    a->failed = true;
    a->in_flight = 0;           /* nothing more can be waited for */
    return -1;
  }
  uint64_t now = clock_now_ns();
  for (int i = 0; i < n; i++) {
    aio_slot *slot = a->events[i].data;
    long res = (long) a->events[i].res;
    int64_t result = res;
    int error = res < 0 ? (int) -res : 0;
    a->free_slots[a->free_count++] = slot;
    a->in_flight--;
    if (!a->failed &&
        fileio_io_completed(w, &slot->request, buffer_of(a, slot, slot->request.op), result,
                            error, now - slot->submitted_ns, slot->measured) != 0)
      a->failed = true;
  }
  return a->failed ? -1 : 0;
}

int fileio_aio_submit(fileio_worker *w, const fileio_request *r, uint64_t now_ns)
{
  struct fileio_aio *a = w->aio;
  aio_slot *slot = a->free_slots[--a->free_count];
  unsigned char *buffer = buffer_of(a, slot, r->op);
  int fd = w->files->fds[r->file];
  struct iocb *list[1] = { &slot->iocb };

  slot->request = *r;
  if (r->op == FILEIO_OP_READ)
    io_prep_pread(&slot->iocb, fd, buffer, r->size, (long long) r->pos);
  else
    io_prep_pwrite(&slot->iocb, fd, buffer, r->size, (long long) r->pos);
  slot->iocb.data = slot;
  slot->measured = fileio_latency_measured(w->worker);
  slot->submitted_ns = now_ns;

  int rc;
  do
    rc = io_submit(a->context, 1, list);
  while (rc == -EINTR);
  if (rc < 1) {
    a->free_slots[a->free_count++] = slot;
    fileio_log_errno(rc < 0 ? -rc : EIO, "io_submit() failed!");
    if (rc < 0) {
      char name[64];
      fileio_file_name(name, sizeof(name), r->file);
      fileio_hint_for_errno(-rc, w->settings, name, false);
    }
    return -1;
  }
  a->in_flight++;
  if (a->in_flight < a->backlog)
    return 0;
  return reap(w, 1);
}

int fileio_aio_drain(fileio_worker *w)
{
  struct fileio_aio *a = w->aio;

  while (a->in_flight > 0)
    reap(w, a->in_flight);
  return a->failed ? -1 : 0;
}

#else  /* !HAVE_LIBAIO */

bool fileio_aio_available(void)
{
  return false;
}

int fileio_aio_thread_init(fileio_worker *w)
{
  (void) w;
  log_text(LOG_FATAL, "asynchronous I/O mode is unsupported on this platform.");
  return -1;
}

void fileio_aio_thread_free(fileio_worker *w)
{
  (void) w;
}

unsigned char *fileio_aio_next_buffer(fileio_worker *w)
{
  return w->buffer;
}

int fileio_aio_submit(fileio_worker *w, const fileio_request *r, uint64_t now_ns)
{
  (void) w;
  (void) r;
  return -1;
}

int fileio_aio_drain(fileio_worker *w)
{
  (void) w;
  return 0;
}

#endif
