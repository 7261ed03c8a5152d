/*
 * fileio.c: the `fileio` test, sysbench 1.0.20's file I/O benchmark, compiled in: its prepare,
 * cleanup and help commands, and the run hooks that tie the parts together (see fileio.h).
 *
 *   sysbench fileio --file-total-size=8G prepare
 *   sysbench fileio --file-total-size=8G --file-test-mode=rndrw --time=60 run
 *   sysbench fileio --file-total-size=8G cleanup
 *
 * Every event is one request: a read, a write (plus its fsync under --file-fsync-all) or one
 * file's fsync of a periodic round. The settings are read once per command and are read-only
 * while workers run; each worker touches only its own fileio_worker.
 */
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "logger.h"
#include "options.h"
#include "test.h"

extern const option_decl fileio_args[];

static fileio_settings settings;
static fileio_files files;
static fileio_worker *workers;

static int fileio_cmd_prepare(void)
{
  if (fileio_settings_read(&settings, false) != 0)
    return 1;
  return fileio_files_create(&settings) == 0 ? 0 : 1;
}

static int fileio_cmd_cleanup(void)
{
  if (fileio_settings_read(&settings, false) != 0)
    return 1;
  return fileio_files_remove(&settings) == 0 ? 0 : 1;
}

static int fileio_init(void)
{
  if (fileio_settings_read(&settings, true) != 0)
    return 1;
  /* The kinds of operation this run can do: only they need latency histograms. */
  unsigned kinds = 0;
  if (!fileio_mode_writes(settings.mode) || settings.mode == FILEIO_RNDRW)
    kinds |= 1u << fileio_op_index(FILEIO_OP_READ);
  if (fileio_mode_writes(settings.mode))
    kinds |= 1u << fileio_op_index(FILEIO_OP_WRITE) | 1u << fileio_op_index(FILEIO_OP_FSYNC);

  workers = aligned_alloc(128, settings.threads * sizeof(*workers));
  if (workers == NULL || fileio_latency_init(settings.threads, kinds) != 0) {
    log_text(LOG_FATAL, "Memory allocation failure.");
    return 1;
  }
  memset(workers, 0, settings.threads * sizeof(*workers));
  for (unsigned i = 0; i < settings.threads; i++) {
    workers[i].thread_id = (int) i;
    workers[i].settings = &settings;
    workers[i].files = &files;
  }
  return fileio_requests_init(&settings) == 0 ? 0 : 1;
}

static void fileio_print_mode(void)
{
  fileio_report_mode(&settings);
}

static int fileio_open(void)
{
  return fileio_files_open(&settings, &files) == 0 ? 0 : 1;
}

static int fileio_thread_init(worker *runner_worker)
{
  fileio_worker *w = &workers[runner_worker->id];
  w->worker = runner_worker;
  return fileio_io_thread_init(w) == 0 ? 0 : 1;
}

static int fileio_event(worker *runner_worker)
{
  fileio_worker *w = &workers[runner_worker->id];
  fileio_request r;

  if (fileio_request_next(w, &r) != 0)
    return 1;
  if (settings.debug)
    log_text(LOG_DEBUG, "Executing request, operation: %d, file_id: %u, pos: %d, size: %d",
             (int) r.op, r.file, (int) r.pos, (int) r.size);
  return fileio_io_execute(w, &r) == 0 ? 0 : 1;
}

static int fileio_thread_done(worker *runner_worker)
{
  return fileio_io_thread_done(&workers[runner_worker->id]) == 0 ? 0 : 1;
}

static int fileio_done(void)
{
  for (unsigned i = 0; workers != NULL && i < settings.threads; i++)
    fileio_io_thread_free(&workers[i]);
  free(workers);
  workers = NULL;
  fileio_files_close(&files);
  fileio_requests_free();
  fileio_latency_free();
  return 0;
}

sb_test fileio_test = {
  .name = "fileio",
  .description = "File I/O test",
  .options = fileio_args,
  .cmd_prepare = fileio_cmd_prepare,
  .cmd_cleanup = fileio_cmd_cleanup,
  .ops = {
    .init = fileio_init,
    .print_mode = fileio_print_mode,
    .prepare = fileio_open,
    .thread_init = fileio_thread_init,
    .event = fileio_event,
    .thread_done = fileio_thread_done,
    .report_intermediate = fileio_report_intermediate,
    .report_cumulative = fileio_report_cumulative,
    .done = fileio_done,
  },
};
