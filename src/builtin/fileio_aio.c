/*
 * fileio_aio.c: --file-io-mode=async with Linux native AIO (libaio): each worker's AIO context
 * and the calls that submit and collect its requests. What is in flight, when a request is
 * seen complete and when a submission waits is the queue's (fileio_aio_queue.c); this file
 * only carries requests to the kernel and back, and names what went wrong.
 *
 * Built without libaio, the mode is refused when the options are read (fileio_options.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "clock.h"
#include "fileio.h"
#include "fileio_aio_queue.h"
#include "logger.h"

#ifdef HAVE_LIBAIO

#include <libaio.h>

struct fileio_aio {
  io_context_t context;
  struct iocb *iocbs;           /* one per queue slot */
  struct io_event *events;
  aio_queue queue;
};

/* The head of the completion ring the kernel maps at an AIO context's address (struct aio_ring
   of fs/aio.c, the layout libaio and fio read too): the kernel adds events at `tail`, the
   reader takes them from `head` and moves it on. Reading it costs no system call, where
   io_getevents() costs one per call whenever an event is there, i.e. after every request on
   a buffered file. */
typedef struct {
  unsigned id;
  unsigned nr;                  /* events the ring holds */
  unsigned head;
  unsigned tail;
  unsigned magic;
  unsigned compat_features;
  unsigned incompat_features;
  unsigned header_length;       /* the size of this header: the events follow it */
} aio_ring_header;
#define AIO_RING_MAGIC 0xa10a10a1u

static aio_ring_header *ring_of(io_context_t context)
{
  aio_ring_header *ring = (aio_ring_header *) context;
  if (ring == NULL || ring->magic != AIO_RING_MAGIC || ring->incompat_features != 0 ||
      ring->header_length != sizeof(*ring) || ring->nr == 0)
    return NULL;                /* not the layout above: io_getevents() reads it */
  return ring;
}

/* Up to `max` events from the ring, without a system call: how many. Only the worker that
   owns the context reads it, and never during an io_getevents() of its own. */
static int ring_take(aio_ring_header *ring, struct io_event *out, unsigned max)
{
  const struct io_event *events = (const struct io_event *) (ring + 1);
  unsigned nr = ring->nr;
  unsigned head = ring->head % nr;
  /* Acquire: the events before the tail are written before the tail is. */
  unsigned tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE) % nr;
  unsigned n = 0;

  while (head != tail && n < max) {
    out[n++] = events[head];
    head = head + 1 == nr ? 0 : head + 1;
  }
  if (n > 0)   /* release: the events are copied before the kernel may reuse their places */
    __atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
  return (int) n;
}

bool fileio_aio_available(void)
{
  return true;
}

static void aio_hint(unsigned backlog, int err)
{
  if (err == EAGAIN)
    log_hint("the kernel allows fewer AIO requests in flight (sysctl "
             "fs.aio-max-nr, for all processes) than --threads x --file-async-backlog = %u "
             "per thread asks for: lower either, or raise fs.aio-max-nr", backlog);
}

static int submit(void *context, unsigned slot, const fileio_request *r, unsigned char *buffer)
{
  fileio_worker *w = context;
  struct iocb *iocb = &w->aio->iocbs[slot];
  struct iocb *list[1] = { iocb };
  int fd = w->files->fds[r->file];
  int rc;

  if (r->op == FILEIO_OP_READ)
    io_prep_pread(iocb, fd, buffer, r->size, (long long) r->pos);
  else
    io_prep_pwrite(iocb, fd, buffer, r->size, (long long) r->pos);
  iocb->data = (void *) (uintptr_t) slot;
  do
    rc = io_submit(w->aio->context, 1, list);
  while (rc == -EINTR);
  if (rc == 1)
    return 0;
  fileio_log_errno(rc < 0 ? -rc : EIO, "io_submit() failed!");
  if (rc < 0) {
    char name[64];
    fileio_file_name(name, sizeof(name), r->file);
    fileio_hint_for_errno(-rc, w->settings, name, false);
  }
  return -1;
}

static int collect(void *context, bool wait, aio_completion *out, unsigned max)
{
  fileio_worker *w = context;
  struct fileio_aio *a = w->aio;
  struct timespec no_wait = { 0, 0 };
  aio_ring_header *ring = wait ? NULL : ring_of(a->context);
  int n;

  if (ring != NULL)
    n = ring_take(ring, a->events, max);
  else
    do
      n = io_getevents(a->context, wait ? 1 : 0, max, a->events, wait ? NULL : &no_wait);
    while (n == -EINTR);
  if (n < 0) {
    fileio_log_errno(-n, "io_getevents() failed!");
    return -1;
  }
  for (int i = 0; i < n; i++) {
    out[i].slot = (unsigned) (uintptr_t) a->events[i].data;
    out[i].result = (int64_t) (long) a->events[i].res;
  }
  return n;
}

static uint64_t now_ns(void)
{
  return clock_now_ns();
}

static int finished(void *context, const fileio_request *r, const unsigned char *buffer,
                    int64_t result, uint64_t latency_ns, bool measured)
{
  int error = result < 0 ? (int) -result : 0;
  return fileio_io_completed(context, r, buffer, result, error, latency_ns, measured);
}

static const aio_queue_ops libaio_ops = {
  .submit = submit,
  .collect = collect,
  .now_ns = now_ns,
  .finished = finished,
};

int fileio_aio_thread_init(fileio_worker *w)
{
  const fileio_settings *s = w->settings;
  struct fileio_aio *a = calloc(1, sizeof(*a));

  if (a == NULL) {
    log_text(LOG_FATAL, "Failed to allocate async I/O context!");
    return -1;
  }
  w->aio = a;
  int rc = io_queue_init((int) s->async_backlog, &a->context);
  if (rc != 0) {
    a->context = 0;
    fileio_log_errno(-rc, "io_queue_init() failed!");
    aio_hint(s->async_backlog, -rc);
    return -1;
  }
  a->iocbs = calloc(s->async_backlog, sizeof(*a->iocbs));
  a->events = calloc(s->async_backlog, sizeof(*a->events));
  if (a->iocbs == NULL || a->events == NULL ||
      aio_queue_init(&a->queue, &libaio_ops, w, s->async_backlog, s->request_size, s->validate,
                     &w->reads_counted, &w->writes_counted) != 0) {
    log_text(LOG_FATAL, "Failed to allocate async I/O context!");
    return -1;
  }
  return 0;
}

void fileio_aio_thread_free(fileio_worker *w)
{
  struct fileio_aio *a = w->aio;

  if (a == NULL)
    return;
  if (a->context != 0)
    io_queue_release(a->context);
  aio_queue_free(&a->queue);
  free(a->iocbs);
  free(a->events);
  free(a);
  w->aio = NULL;
}

unsigned char *fileio_aio_next_buffer(fileio_worker *w)
{
  return aio_queue_next_buffer(&w->aio->queue);
}

int fileio_aio_submit(fileio_worker *w, const fileio_request *r, uint64_t started_ns)
{
  return aio_queue_submit(&w->aio->queue, r, started_ns, fileio_latency_measured(w->worker));
}

int fileio_aio_poll(fileio_worker *w)
{
  return aio_queue_poll(&w->aio->queue);
}

int fileio_aio_drain(fileio_worker *w)
{
  return aio_queue_drain(&w->aio->queue);
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

int fileio_aio_submit(fileio_worker *w, const fileio_request *r, uint64_t started_ns)
{
  (void) w;
  (void) r;
  (void) started_ns;
  return -1;
}

int fileio_aio_poll(fileio_worker *w)
{
  (void) w;
  return 0;
}

int fileio_aio_drain(fileio_worker *w)
{
  (void) w;
  return 0;
}

#endif
