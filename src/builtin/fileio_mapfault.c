/*
 * fileio_mapfault.c: what a bus error on a test file's mapping says (--file-io-mode=mmap).
 *
 * A page of a mapped file that the file system cannot back -- no room left for a block of a
 * sparse file seqwr writes into, a file truncated by someone else -- is a SIGBUS at the access,
 * not an error a call returns. 1.0.20 dies of it without a word ("Bus error"); we name the
 * file and the position like its write errors, add a HINT, and exit 1. The handler only reads
 * the mappings' addresses and calls write() and _exit(), which is safe in a signal handler.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "output_mode.h"

static const fileio_files *watched;

static size_t put_text(char *buf, size_t used, size_t cap, const char *text)
{
  size_t n = strlen(text);
  if (used + n >= cap)
    n = cap - used - 1;
  memcpy(buf + used, text, n);
  return used + n;
}

static size_t put_number(char *buf, size_t used, size_t cap, uint64_t value)
{
  char digits[24];
  size_t n = 0;
  do {
    digits[n++] = (char) ('0' + value % 10);
    value /= 10;
  } while (value > 0);
  while (n > 0 && used + 1 < cap)
    buf[used++] = digits[--n];
  return used;
}

static void on_bus_error(int sig, siginfo_t *info, void *context)
{
  char line[512];
  size_t n = 0, cap = sizeof(line);
  uintptr_t at = (uintptr_t) info->si_addr;
  (void) sig;
  (void) context;

  n = put_text(line, n, cap, "FATAL: Bus error (SIGBUS) accessing the mapping of ");
  for (unsigned i = 0; watched != NULL && i < watched->count; i++) {
    uintptr_t start = (uintptr_t) watched->maps[i];
    if (start != 0 && at >= start && at - start < watched->map_size) {
      n = put_text(line, n, cap, "test_file.");
      n = put_number(line, n, cap, i);
      n = put_text(line, n, cap, " at pos ");
      n = put_number(line, n, cap, (uint64_t) (at - start));
      break;
    }
  }
  if (line[n - 1] == ' ')
    n = put_text(line, n, cap, "a test file");
  if (!output_exact())
    n = put_text(line, n, cap, "\nHINT: the file system could not back a page of the file (no "
                 "room left on it, or the file was truncated): free space or use a smaller "
                 "--file-total-size, or another --file-io-mode, which reports the error "
                 "itself");
  n = put_text(line, n, cap, "\n");
  ssize_t ignored = write(STDOUT_FILENO, line, n);
  (void) ignored;
  _exit(1);
}

void fileio_mapfault_watch(const fileio_files *files)
{
  struct sigaction sa;

  watched = files;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = on_bus_error;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGBUS, &sa, NULL);
}

void fileio_mapfault_unwatch(void)
{
  signal(SIGBUS, SIG_DFL);
  watched = NULL;
}
