/*
 * rdb_dir.c: what a database directory holds, as files: the ones RocksDB and this driver
 * write, told apart by name from anything else (a user's file, a subdirectory, a symlink);
 * removing ours and nothing else; and whether its file system has room to open a database.
 * Nothing here follows a symlink or looks inside a subdirectory.
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

/* File names, '#' standing for one or more digits. RocksDB's own (file/filename.cc):
   the numbered table, blob and write-ahead log files, its temporary files (".dbtmp"), the
   info log and its old copies; then the loader's SST files before ingestion (rdb_load.c)
   and our marker. */
static const char *const our_names[] = {
  "CURRENT", "IDENTITY", "LOCK", "LOG", "LOG.old.#", "MANIFEST-#", "OPTIONS-#",
  "OPTIONS-#.dbtmp", "#.dbtmp", "#.sst", "#.ldb", "#.log", "#.blob", "#.sst.trash",
  "load-#-#-p-#.sst", "load-#-#-s-#.sst", RDB_MARKER_FILE, NULL
};

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

static bool written_by_us(const char *name)
{
  for (size_t i = 0; our_names[i] != NULL; i++)
    if (name_matches(name, our_names[i]))
      return true;
  return false;
}

bool rdb_dir_is_load_file(const char *name)
{
  return name_matches(name, "load-#-#-p-#.sst") || name_matches(name, "load-#-#-s-#.sst");
}

static bool is_dot(const char *name)
{
  return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

/* The directory at `path` for reading, *fd its descriptor (for the *at() calls); NULL when it
   cannot be opened. */
static DIR *open_dir(const char *path, int *fd)
{
  *fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = *fd >= 0 ? fdopendir(*fd) : NULL;
  if (d == NULL && *fd >= 0)
    close(*fd);
  return d;
}

int rdb_dir_scan(const char *path, rdb_dir_contents *c)
{
  memset(c, 0, sizeof(*c));
  int fd;
  DIR *d = open_dir(path, &fd);
  if (d == NULL)
    return -1;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    struct stat st;
    if (is_dot(e->d_name))
      continue;
    if (c->entries++ == 0)
      snprintf(c->first_entry, sizeof(c->first_entry), "%s", e->d_name);
    /* lstat: a symlink is never ours, whatever it is called and points to */
    bool plain = fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
    if (!plain || !written_by_us(e->d_name)) {
      if (c->foreign++ == 0)
        snprintf(c->first_foreign, sizeof(c->first_foreign), "%s", e->d_name);
      continue;
    }
    if (strcmp(e->d_name, "CURRENT") == 0)
      c->has_current = true;
    else if (strcmp(e->d_name, RDB_MARKER_FILE) == 0)
      c->has_marker = true;
    else if (name_matches(e->d_name, "#.log"))
      c->replay_bytes += (uint64_t) st.st_size;
  }
  closedir(d);
  return 0;
}

/* Unlinks, in `path`, the plain files whose names `wanted` accepts; the marker last, so that
   a cleanup stopped half-way still leaves a directory this tool recognises as its own. */
static int remove_files(const char *path, bool (*wanted)(const char *name))
{
  int fd;
  DIR *d = open_dir(path, &fd);
  int removed = 0;
  bool marker = false;
  if (d == NULL)
    return -1;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    struct stat st;
    if (is_dot(e->d_name) || !wanted(e->d_name) ||
        fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
      continue;
    if (strcmp(e->d_name, RDB_MARKER_FILE) == 0)
      marker = true;
    else if (unlinkat(fd, e->d_name, 0) == 0)
      removed++;
  }
  if (marker && unlinkat(fd, RDB_MARKER_FILE, 0) == 0)
    removed++;
  closedir(d);
  return removed;
}

int rdb_dir_remove_load_files(const char *path)
{
  return remove_files(path, rdb_dir_is_load_file);
}

void rdb_dir_remove_database(const char *path)
{
  rdb_dir_contents before, after;
  if (rdb_dir_scan(path, &before) != 0) {
    log_text(LOG_WARNING, "Could not read the RocksDB directory '%s' to remove it: %s", path,
             strerror(errno));
    return;
  }
  remove_files(path, written_by_us);
  if (rdb_dir_scan(path, &after) == 0 && after.entries == 0) {
    if (rmdir(path) != 0)
      log_text(LOG_WARNING, "Could not remove the RocksDB directory '%s': %s", path,
               strerror(errno));
    return;
  }
  if (after.foreign > 0)
    log_text(LOG_WARNING, "Kept the directory '%s': it holds %d entr%s sysbench did not write "
             "(the first: '%s'), left untouched; only the database files were removed", path,
             after.foreign, after.foreign == 1 ? "y" : "ies", after.first_foreign);
  else
    log_text(LOG_WARNING, "Could not remove all the files of the RocksDB directory '%s': %s",
             path, strerror(errno));
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
