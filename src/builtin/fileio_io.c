/*
 * fileio_io.c: doing one request of a worker: pread/pwrite (sync), memcpy to and from the
 * whole-file mappings (mmap), or handing it to the AIO queue (async, fileio_aio.c); fsync,
 * fdatasync or msync; and, once a read or write is complete, checking it, validating what was
 * read, counting it (reads, writes, fsyncs and bytes, in the worker's own counters) and
 * recording its latency. Also the end of a worker: its queue drained, its files fsynced.
 *
 * Latency is taken around each operation itself, so a write and the fsync that
 * --file-fsync-all adds to it are two measurements, and an asynchronous request is measured
 * from the start of its submission until its worker sees it complete (fileio_aio_queue.h),
 * not by the time its submission took.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "builtin_util.h"
#include "clock.h"
#include "fileio.h"
#include "logger.h"
#include "runner.h"
#include "stats.h"

int fileio_io_thread_init(fileio_worker *w)
{
  const fileio_settings *s = w->settings;

  if (s->io_mode == FILEIO_IO_ASYNC)       /* its buffers are the queue's */
    return fileio_aio_thread_init(w);
  w->buffer = page_aligned_zeroed(s->request_size);
  if (w->buffer == NULL) {
    log_text(LOG_FATAL, "Failed to allocate a memory buffer");
    return -1;
  }
  return 0;
}

void fileio_io_thread_free(fileio_worker *w)
{
  if (w->aio != NULL)
    fileio_aio_thread_free(w);
  free(w->buffer);
  w->buffer = NULL;
}

/* --validate: a checksummed block at each whole block of a write. */
static void fill_blocks(fileio_worker *w, unsigned char *buffer, const fileio_request *r)
{
  const fileio_settings *s = w->settings;
  for (uint64_t done = 0; done + s->block_size <= r->size; done += s->block_size)
    fileio_block_fill(&w->worker->rand, buffer + done, s->block_size, r->pos + done);
}

/* --validate: check each whole block of a read. A tail shorter than a block (a file size that
   is no multiple of the block size) holds no checksum of its own and is not checked. */
static int check_blocks(const fileio_settings *s, const unsigned char *buffer,
                        const fileio_request *r)
{
  for (uint64_t done = 0; done + s->block_size <= r->size; done += s->block_size) {
    if (fileio_block_check(buffer + done, s->block_size, r->pos + done) != 0) {
      log_text(LOG_FATAL, "Validation failed on file %u, block offset %" PRIu64 ", exiting...",
               r->file, r->pos + done);
      return -1;
    }
  }
  return 0;
}

static int report_failure(fileio_worker *w, const fileio_request *r, int64_t result, int error)
{
  const fileio_settings *s = w->settings;
  bool read = r->op == FILEIO_OP_READ;
  char name[64];

  fileio_file_name(name, sizeof(name), r->file);
  if (w->aio != NULL)
    log_text(LOG_FATAL, "Asynchronous %s failed!\n", read ? "read" : "write");
  else if (result < 0)
    fileio_log_errno(error, "Failed to %s file! file: %d pos: %lld", read ? "read" : "write",
                     w->files->fds[r->file], (long long) r->pos);
  else
    log_text(LOG_FATAL, "Failed to %s file! file: %d pos: %lld", read ? "read" : "write",
             w->files->fds[r->file], (long long) r->pos);

  if (result >= 0)
    log_hint("%s %" PRId64 " of %" PRIu64 " bytes at offset %" PRIu64
             " of %s: the file is shorter than --file-total-size / --file-num make it, or the "
             "disk is full", read ? "read" : "wrote", result, r->size, r->pos, name);
  else if (w->aio != NULL)
    log_hint("the %s of %s at offset %" PRIu64 " failed: errno = %d (%s)",
             read ? "read" : "write", name, r->pos, error, strerror(error));
  if (result < 0)
    fileio_hint_for_errno(error, s, name, false);
  return -1;
}

int fileio_io_completed(fileio_worker *w, const fileio_request *r, const unsigned char *buffer,
                        int64_t result, int error, uint64_t latency_ns, bool measured)
{
  const fileio_settings *s = w->settings;

  if (result != (int64_t) r->size)
    return report_failure(w, r, result, error);
  if (r->op == FILEIO_OP_READ && s->validate && check_blocks(s, buffer, r) != 0)
    return -1;
  fileio_request_finished(r);
  if (r->op == FILEIO_OP_READ) {
    sb_worker_counter_add(w->worker, SB_CNT_READ, 1);
    sb_worker_counter_add(w->worker, SB_CNT_BYTES_READ, r->size);
  } else {
    sb_worker_counter_add(w->worker, SB_CNT_WRITE, 1);
    sb_worker_counter_add(w->worker, SB_CNT_BYTES_WRITTEN, r->size);
  }
  fileio_latency_record(w->thread_id, r->op, latency_ns, measured);
  return 0;
}

/* An fsync of `file` begun at `started`. */
static int do_fsync(fileio_worker *w, unsigned file, bool measured, uint64_t started)
{
  const fileio_settings *s = w->settings;
  int fd = w->files->fds[file];
  int rc;

  if (s->io_mode == FILEIO_IO_MMAP)
    rc = msync(w->files->maps[file], w->files->map_size, MS_SYNC | MS_INVALIDATE);
  else if (s->fdatasync)
    rc = fdatasync(fd);
  else
    rc = fsync(fd);
  uint64_t latency = clock_now_ns() - started;
  if (rc != 0) {
    int err = errno;
    char name[64];
    fileio_file_name(name, sizeof(name), file);
    fileio_log_errno(err, "Failed to fsync file! file: %d", fd);
    fileio_hint_for_errno(err, s, name, false);
    return -1;
  }
  sb_worker_counter_add(w->worker, SB_CNT_OTHER, 1);
  fileio_latency_record(w->thread_id, FILEIO_OP_FSYNC, latency, measured);
  return 0;
}

/* One read or write begun at `started`, done in the calling thread (sync and mmap); `*ended`
   is when it finished. */
static int transfer(fileio_worker *w, const fileio_request *r, bool measured, uint64_t started,
                    uint64_t *ended)
{
  const fileio_settings *s = w->settings;
  unsigned char *buffer = w->buffer;
  int64_t result;
  int error = 0;

  if (r->op == FILEIO_OP_WRITE && s->validate) {
    fill_blocks(w, buffer, r);
    started = clock_now_ns();     /* the checksums are not part of the write */
  }
  if (s->io_mode == FILEIO_IO_MMAP) {
    unsigned char *at = w->files->maps[r->file] + r->pos;
    if (r->op == FILEIO_OP_READ)
      memcpy(buffer, at, r->size);
    else
      memcpy(at, buffer, r->size);
    result = (int64_t) r->size;
  } else {
    int fd = w->files->fds[r->file];
    ssize_t n = r->op == FILEIO_OP_READ ? pread(fd, buffer, r->size, (off_t) r->pos)
                                        : pwrite(fd, buffer, r->size, (off_t) r->pos);
    if (n < 0)
      error = errno;
    result = n;
  }
  *ended = clock_now_ns();
  return fileio_io_completed(w, r, buffer, result, error, *ended - started, measured);
}

int fileio_io_execute(fileio_worker *w, const fileio_request *r)
{
  const fileio_settings *s = w->settings;
  bool measured = fileio_latency_measured(w->worker);
  /* The operation starts with the event (the request was chosen a few instructions ago). */
  uint64_t now = fileio_event_started_ns(w->worker);

  /* Requests that finished since the last look (during an fsync, or a --rate pause) are seen
     as this event starts, not when the backlog is next full; taking them is not part of this
     event's operation. */
  if (w->aio != NULL) {
    int seen = fileio_aio_poll(w);
    if (seen < 0)
      return -1;
    if (seen > 0)
      now = clock_now_ns();
  }
  if (r->op == FILEIO_OP_FSYNC)
    return do_fsync(w, r->file, measured, now);

  if (w->aio != NULL) {
    if (r->op == FILEIO_OP_WRITE && s->validate) {
      fill_blocks(w, fileio_aio_next_buffer(w), r);
      now = clock_now_ns();
    }
    if (fileio_aio_submit(w, r, now) != 0)
      return -1;
    if (s->fsync_all)
      now = clock_now_ns();
  } else if (transfer(w, r, measured, now, &now) != 0) {
    return -1;
  }
  /* As in 1.0.20, an asynchronous write is followed by a synchronous fsync of its file at
     once, whether or not the write has reached the file yet. */
  if (r->op == FILEIO_OP_WRITE && s->fsync_all)
    return do_fsync(w, r->file, measured, now);
  return 0;
}

int fileio_io_thread_done(fileio_worker *w)
{
  const fileio_settings *s = w->settings;
  bool measured = fileio_latency_measured(w->worker);

  if (w->aio != NULL && fileio_aio_drain(w) != 0)
    return -1;
  if (s->fsync_end && fileio_mode_writes(s->mode))
    for (unsigned i = 0; i < s->file_num; i++)
      if (do_fsync(w, i, measured, clock_now_ns()) != 0)
        return -1;
  return 0;
}
