/*
 * rdb_dir.c: the database directory as files: how RocksDB reads the names in it (the ones it
 * may delete, rename or replay when it opens the database), what a directory holds, whether
 * another process has the database open, unlinking a set of plain files, and whether the file
 * system has room to open a database. Nothing here follows a symlink or looks inside a
 * subdirectory. Which of RocksDB's files are the database's is rdb_files.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "logger.h"
#include "rdb.h"

/* Opening a database writes an OPTIONS file and a new MANIFEST (a list of the live files:
   about 100 bytes each); on top of that it flushes what its write-ahead logs hold into a
   table file. */
#define OPEN_MARGIN_BYTES (1u << 20)

/* The digits at *p as a number (saturating), *p moved past them; false when there are none. */
static bool take_number(const char **p, uint64_t *number)
{
  const char *s = *p;
  uint64_t n = 0;
  if (*s < '0' || *s > '9')
    return false;
  for (; *s >= '0' && *s <= '9'; s++)
    n = n > (UINT64_MAX - 9) / 10 ? UINT64_MAX : n * 10 + (uint64_t) (*s - '0');
  *p = s;
  *number = n;
  return true;
}

/* As RocksDB 7.8 parses a name of its directory (file/filename.cc, ParseFileName). It is
   lenient in places, and what it parses it may delete: "OPTIONS-5x" counts as an OPTIONS
   file, and any name that starts with "LOG" as an info log (measured: a file "LOGfoo" put in
   a database directory is gone after the next open). "LOG.old" alone it keeps (an info log
   numbered 0, never among the old ones it deletes). */
rdb_name_kind rdb_dir_name_kind(const char *name, uint64_t *number)
{
  const char *p;
  *number = 0;
  if (strcmp(name, "CURRENT") == 0 || strcmp(name, "IDENTITY") == 0 ||
      strcmp(name, "LOCK") == 0 || strcmp(name, "LOG") == 0)
    return RDB_NAME_FIXED;
  if (strcmp(name, "LOG.old") == 0)
    return RDB_NAME_OTHER;
  if (strncmp(name, "LOG.old.", 8) == 0) {
    p = name + 8;
    return take_number(&p, number) && *p == '\0' ? RDB_NAME_OLD_LOG : RDB_NAME_ODD;
  }
  if (strncmp(name, "LOG", 3) == 0)
    return RDB_NAME_ODD;
  if (strncmp(name, "MANIFEST-", 9) == 0) {
    p = name + 9;
    return take_number(&p, number) && *p == '\0' ? RDB_NAME_MANIFEST : RDB_NAME_OTHER;
  }
  if (strncmp(name, "OPTIONS-", 8) == 0) {
    p = name + 8;
    if (!take_number(&p, number))
      return RDB_NAME_OTHER;
    return *p == '\0' ? RDB_NAME_OPTIONS : RDB_NAME_NUMBERED;
  }
  p = name;
  if (!take_number(&p, number) || *p++ != '.')
    return RDB_NAME_OTHER;
  if (strcmp(p, "log") == 0)
    return RDB_NAME_WAL;
  if (strcmp(p, "sst") == 0 || strcmp(p, "ldb") == 0)
    return RDB_NAME_TABLE;
  if (strcmp(p, "blob") == 0 || strcmp(p, "dbtmp") == 0)
    return RDB_NAME_NUMBERED;
  return RDB_NAME_OTHER;
}

/* True when `name` is `pattern`, each '#' of it matching one or more digits. */
static bool name_matches(const char *name, const char *pattern)
{
  for (; *pattern != '\0'; pattern++) {
    if (*pattern == '#') {
      if (*name < '0' || *name > '9')
        return false;
      while (*name >= '0' && *name <= '9')
        name++;
    } else if (*name++ != *pattern) {
      return false;
    }
  }
  return *name == '\0';
}

bool rdb_dir_is_load_file(const char *name)
{
  return name_matches(name, "load-#-#-p-#.sst") || name_matches(name, "load-#-#-s-#.sst");
}

/* The files of this tool itself: its marker, its record of the database's files (and the
   record being rewritten), the loader's files before they are ingested. */
bool rdb_dir_is_own_file(const char *name)
{
  return strcmp(name, RDB_MARKER_FILE) == 0 || strcmp(name, RDB_RECORD_FILE) == 0 ||
         strcmp(name, RDB_RECORD_FILE ".tmp") == 0 || rdb_dir_is_load_file(name);
}

static bool is_dot(const char *name)
{
  return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

DIR *rdb_dir_open(const char *path, int *fd)
{
  *fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = *fd >= 0 ? fdopendir(*fd) : NULL;
  if (d == NULL && *fd >= 0)
    close(*fd);
  return d;
}

bool rdb_dir_next(DIR *d, int fd, const char **name, struct stat *st)
{
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (is_dot(e->d_name))
      continue;
    *name = e->d_name;
    /* lstat: a symlink is never ours, whatever it is called and points to */
    if (fstatat(fd, e->d_name, st, AT_SYMLINK_NOFOLLOW) != 0)
      memset(st, 0, sizeof(*st));
    return true;
  }
  return false;
}

int rdb_dir_scan(const char *path, rdb_dir_contents *c)
{
  memset(c, 0, sizeof(*c));
  int fd;
  DIR *d = rdb_dir_open(path, &fd);
  if (d == NULL)
    return -1;
  const char *name;
  struct stat st;
  while (rdb_dir_next(d, fd, &name, &st)) {
    uint64_t number;
    if (c->entries++ == 0)
      snprintf(c->first_entry, sizeof(c->first_entry), "%s", name);
    rdb_name_kind kind = rdb_dir_name_kind(name, &number);
    if (!S_ISREG(st.st_mode) || (kind == RDB_NAME_OTHER && !rdb_dir_is_own_file(name))) {
      if (c->foreign++ == 0)
        snprintf(c->first_foreign, sizeof(c->first_foreign), "%s", name);
      continue;
    }
    if (strcmp(name, "CURRENT") == 0)
      c->has_current = true;
    else if (strcmp(name, RDB_MARKER_FILE) == 0)
      c->has_marker = true;
    else if (strcmp(name, RDB_RECORD_FILE) == 0)
      c->has_record = true;
    else if (kind == RDB_NAME_WAL)
      c->replay_bytes += (uint64_t) st.st_size;
  }
  closedir(d);
  return 0;
}

int rdb_dir_remove_load_files(const char *path)
{
  int fd, removed = 0;
  DIR *d = rdb_dir_open(path, &fd);
  if (d == NULL)
    return -1;
  const char *name;
  struct stat st;
  while (rdb_dir_next(d, fd, &name, &st))
    if (S_ISREG(st.st_mode) && rdb_dir_is_load_file(name) && unlinkat(fd, name, 0) == 0)
      removed++;
  closedir(d);
  return removed;
}

/* Only before this process opens the database: closing a descriptor of the LOCK file drops
   every fcntl lock the process holds on it, RocksDB's too. */
bool rdb_dir_lock_held(const char *path)
{
  char lock[4200];
  snprintf(lock, sizeof(lock), "%s/LOCK", path);
  int fd = open(lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return false;
  /* RocksDB locks the whole file with fcntl (PosixEnv::LockFile); asking about a write lock
     finds it, and takes none */
  struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
  bool held = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
  close(fd);
  return held;
}

int rdb_dir_check_space(const char *path, uint64_t replay_bytes)
{
  struct statvfs fs;
  if (statvfs(path, &fs) != 0 || fs.f_blocks == 0)
    return 0;   /* nothing to go by: RocksDB will say what is wrong */
  uint64_t free_bytes = (uint64_t) fs.f_bavail * fs.f_frsize;
  uint64_t need = OPEN_MARGIN_BYTES + replay_bytes;
  if (free_bytes >= need)
    return 0;
  log_text(LOG_FATAL, "No space left on device for the RocksDB database at '%s': its file "
           "system has %" PRIu64 " KiB free, opening the database needs %" PRIu64 " KiB: "
           "free some space or choose another --rocksdb-path", path, free_bytes >> 10,
           (need + 1023) >> 10);
  return -1;
}
