/*
 * fileio_files.c: the test files, test_file.0 .. test_file.N-1 in the working directory:
 * creating them (the prepare command, with 1.0.20's messages and write rate), opening and
 * mapping them for a run after checking their size, and removing them (the cleanup command,
 * only the N files of --file-num, never anything else).
 *
 * Errors print 1.0.20's line ("Cannot open file 'test_file.0' errno = 2 (...)") and then, where
 * the cause is the file system rather than a missing prepare, one "HINT: " line saying so.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "builtin_util.h"
#include "clock.h"
#include "fileio.h"
#include "logger.h"

void fileio_file_name(char *buf, size_t len, unsigned index)
{
  snprintf(buf, len, "test_file.%u", index);
}

void fileio_log_errno(int err, const char *fmt, ...)
{
  char message[512];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(message, sizeof(message), fmt, ap);
  va_end(ap);
  log_text(LOG_FATAL, "%s errno = %d (%s)", message, err, strerror(err));
}

int fileio_open_flags(const fileio_settings *s)
{
  int flags = 0;

  if (s->extra_flags & FILEIO_FLAG_SYNC)
    flags |= O_SYNC;
  if (s->extra_flags & FILEIO_FLAG_DSYNC)
    flags |= O_DSYNC;
  if (s->extra_flags & FILEIO_FLAG_DIRECT)
    flags |= O_DIRECT;
  return flags;
}

void fileio_hint_for_errno(int err, const fileio_settings *s, const char *file_name,
                           bool opening)
{
  char dir[512];
  char size[32];
  bool direct = (s->extra_flags & FILEIO_FLAG_DIRECT) != 0;

  if (getcwd(dir, sizeof(dir)) == NULL)
    snprintf(dir, sizeof(dir), ".");
  switch (err) {
    case ENOSPC:
    case EDQUOT: {
      struct statvfs fs;
      uint64_t free_bytes = statvfs(".", &fs) == 0 ? (uint64_t) fs.f_bavail * fs.f_frsize : 0;
      char free_text[32];
      log_hint("the file system of '%s' has no room left for %s: "
               "--file-total-size asks for %sB there, %sB are still free; use a smaller "
               "--file-total-size or run from another directory", dir, file_name,
               fileio_size_text(size, sizeof(size), (double) s->total_size),
               fileio_size_text(free_text, sizeof(free_text), (double) free_bytes));
      break;
    }
    case EROFS:
      log_hint("'%s' is on a read-only file system: run from a writable "
               "directory%s", dir,
               s->for_run && !fileio_mode_writes(s->mode) ? "" : " (prepare and the write "
               "tests create and change the files)");
      break;
    case EACCES:
    case EPERM:
      log_hint("this user may not %s %s in '%s': run from a directory it "
               "can write to", opening ? "create or open" : "write", file_name, dir);
      break;
    case EINVAL:
      if (direct && opening)
        log_hint("the file system of '%s' does not support O_DIRECT "
                 "(--file-extra-flags=direct): use a disk file system such as ext4 or xfs, "
                 "or leave out 'direct'", dir);
      else if (direct)
        log_hint("with --file-extra-flags=direct every transfer must be "
                 "aligned to the device's logical block size (often 512 or 4096 bytes): "
                 "--file-block-size and --file-total-size / --file-num must be multiples of it");
      break;
    case EMFILE:
    case ENFILE:
      log_hint("--file-num=%u needs that many open files: raise the limit "
               "(ulimit -n) or use fewer files", s->file_num);
      break;
    default:
      break;
  }
}

/* ------------------------------------------------------------------------------------------ */
/* prepare                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Write all `len` bytes; 0, or -1 with errno set. */
static int write_fully(int fd, const unsigned char *buf, size_t len)
{
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    if (n == 0) {
      errno = ENOSPC;
      return -1;
    }
    buf += n;
    len -= (size_t) n;
  }
  return 0;
}

/* Bring one file up to the test size in whole blocks, from where it ends now. */
static int fill_file(const fileio_settings *s, rand_state *rand, unsigned index, int flags,
                     unsigned char *block, uint64_t *written)
{
  char name[64];
  int fd;

  fileio_file_name(name, sizeof(name), index);
  fd = open(name, O_CREAT | O_WRONLY | flags, S_IRUSR | S_IWUSR);
  if (fd < 0) {
    int err = errno;
    fileio_log_errno(err, "Can't open file");
    fileio_hint_for_errno(err, s, name, true);
    return -1;
  }

  off_t end = lseek(fd, 0, SEEK_END);
  uint64_t offset = end > 0 ? (uint64_t) end : 0;
  if (offset >= s->file_size)
    log_text(LOG_NOTICE, "Reusing existing file %s", name);
  else if (offset > 0)
    log_text(LOG_NOTICE, "Extending existing file %s", name);
  else
    log_text(LOG_NOTICE, "Creating file %s", name);

  for (; offset < s->file_size; offset += s->block_size) {
    if (s->validate)
      fileio_block_fill(rand, block, s->block_size, offset);
    if (write_fully(fd, block, s->block_size) != 0) {
      int err = errno;
      fileio_log_errno(err, "Failed to write file!");
      fileio_hint_for_errno(err, s, name, false);
      close(fd);
      return -1;
    }
    *written += s->block_size;
  }
  /* On disk before the run starts, so a flush of the prepare does not land in the run. A file
     system that allocates late reports a full disk only here. */
  if (fsync(fd) != 0 && errno != EINVAL) {
    int err = errno;
    fileio_log_errno(err, "Failed to fsync file '%s'", name);
    fileio_hint_for_errno(err, s, name, false);
    close(fd);
    return -1;
  }
  close(fd);
  return 0;
}

int fileio_files_create(const fileio_settings *s)
{
  int flags = fileio_open_flags(s);
  uint64_t written = 0;
  int rc = 0;

  log_text(LOG_NOTICE, "%u files, %ldKb each, %ldMb total", s->file_num,
           (long) (s->file_size / 1024), (long) (s->file_size * s->file_num / (1024 * 1024)));
  log_text(LOG_NOTICE, "Creating files for the test...");
  fileio_print_extra_flags(s);

  unsigned char *block = page_aligned_zeroed(s->block_size);
  if (block == NULL) {
    log_text(LOG_FATAL, "Failed to allocate a memory buffer");
    return -1;
  }
  /* --validate's random bytes: the stream the main thread had (id = threads), as before
     workers owned their streams. */
  rand_state rand;
  rand_state_seed(&rand, s->threads);
  uint64_t started = clock_now_ns();
  for (unsigned i = 0; i < s->file_num && rc == 0; i++)
    rc = fill_file(s, &rand, i, flags, block, &written);
  double seconds = units_ns_to_seconds(clock_now_ns() - started);
  free(block);
  if (rc != 0)
    return -1;

  if (written > 0)
    log_text(LOG_NOTICE, "%" PRIu64 " bytes written in %.2f seconds (%.2f MiB/sec).", written,
             seconds, (double) written / (1024.0 * 1024.0) / seconds);
  else
    log_text(LOG_NOTICE, "No bytes written.");
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* cleanup                                                                                    */
/* ------------------------------------------------------------------------------------------ */

int fileio_files_remove(const fileio_settings *s)
{
  unsigned failed = 0;
  char name[64];

  log_text(LOG_NOTICE, "Removing test files...");
  for (unsigned i = 0; i < s->file_num; i++) {
    fileio_file_name(name, sizeof(name), i);
    if (unlink(name) == 0 || errno == ENOENT)
      continue;
    /* 1.0.20 ignores these; a file left behind is worth one line. */
    if (failed++ == 0) {
      int err = errno;
      fileio_log_errno(err, "Cannot remove file '%s'", name);
      fileio_hint_for_errno(err, s, name, false);
    }
  }
  if (failed > 1)
    log_hint("%u of the %u test files could not be removed", failed,
             s->file_num);
  return failed > 0 ? -1 : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* run                                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* seqwr starts from no files: remove the old one and create it empty. */
static int recreate(const fileio_settings *s, const char *name)
{
  int err = unlink(name) == 0 || errno == ENOENT ? 0 : errno;
  int fd = open(name, O_CREAT | O_EXCL | O_WRONLY, S_IRUSR | S_IWUSR);
  if (fd < 0) {
    /* A file that could not be removed is the cause, not that it exists. */
    if (err == 0 || errno != EEXIST)
      err = errno;
    fileio_log_errno(err, "Cannot create file '%s'", name);
    fileio_hint_for_errno(err, s, name, true);
    return -1;
  }
  close(fd);
  return 0;
}

static int check_size(const fileio_settings *s, int fd, const char *name)
{
  struct stat st;
  char have[32], want[32];

  if (fstat(fd, &st) != 0) {
    fileio_log_errno(errno, "fstat() failed on file '%s'", name);
    return -1;
  }
  if ((uint64_t) st.st_size < s->file_size) {
    log_text(LOG_FATAL, "Size of file '%s' is %sB, but at least %sB is expected.", name,
             fileio_size_text(have, sizeof(have), (double) st.st_size),
             fileio_size_text(want, sizeof(want), (double) s->file_size));
    log_text(LOG_WARNING, "Did you run 'prepare' with different --file-total-size or "
             "--file-num values?");
    return -1;
  }
  return 0;
}

static int map_files(const fileio_settings *s, fileio_files *f)
{
  bool writes = fileio_mode_writes(s->mode);

  f->maps = calloc(f->count, sizeof(*f->maps));
  if (f->maps == NULL) {
    log_text(LOG_FATAL, "Memory allocation failure.");
    return -1;
  }
  f->map_size = s->file_size;
  for (unsigned i = 0; i < f->count; i++) {
    if (s->mode == FILEIO_SEQWR && ftruncate(f->fds[i], (off_t) s->file_size) != 0) {
      fileio_log_errno(errno, "ftruncate() failed on file %u", i);
      return -1;
    }
    void *map = mmap(NULL, s->file_size, writes ? PROT_READ | PROT_WRITE : PROT_READ,
                     MAP_SHARED, f->fds[i], 0);
    if (map == MAP_FAILED) {
      fileio_log_errno(errno, "mmap() failed on file %u", i);
      return -1;
    }
    f->maps[i] = map;
  }
  fileio_mapfault_watch(f);
  return 0;
}

int fileio_files_open(const fileio_settings *s, fileio_files *f)
{
  /* Read tests open the files read-only, so they also run on read-only media. */
  int flags = (fileio_mode_writes(s->mode) ? O_RDWR : O_RDONLY) | fileio_open_flags(s);
  char name[64];

  memset(f, 0, sizeof(*f));
  f->fds = malloc(s->file_num * sizeof(*f->fds));
  if (f->fds == NULL) {
    log_text(LOG_FATAL, "Memory allocation failure.");
    return -1;
  }
  for (unsigned i = 0; i < s->file_num; i++)
    f->fds[i] = -1;
  f->count = s->file_num;

  for (unsigned i = 0; i < s->file_num; i++) {
    fileio_file_name(name, sizeof(name), i);
    if (s->mode == FILEIO_SEQWR && recreate(s, name) != 0)
      return -1;
    log_text(LOG_DEBUG, "Opening file: %s", name);
    f->fds[i] = open(name, flags, S_IRUSR | S_IWUSR);
    if (f->fds[i] < 0) {
      int err = errno;
      fileio_log_errno(err, "Cannot open file '%s'", name);
      log_text(LOG_WARNING, "Did you forget to run the prepare step?");
      if (err != ENOENT)
        fileio_hint_for_errno(err, s, name, true);
      return -1;
    }
    if (s->mode != FILEIO_SEQWR && check_size(s, f->fds[i], name) != 0)
      return -1;
  }
  if (s->io_mode == FILEIO_IO_MMAP)
    return map_files(s, f);
  return 0;
}

void fileio_files_close(fileio_files *f)
{
  if (f->maps != NULL)
    fileio_mapfault_unwatch();
  for (unsigned i = 0; f->maps != NULL && i < f->count; i++)
    if (f->maps[i] != NULL)
      munmap(f->maps[i], f->map_size);
  for (unsigned i = 0; f->fds != NULL && i < f->count; i++)
    if (f->fds[i] >= 0)
      close(f->fds[i]);
  free(f->maps);
  free(f->fds);
  memset(f, 0, sizeof(*f));
}
