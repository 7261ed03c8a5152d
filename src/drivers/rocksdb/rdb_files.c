/*
 * rdb_files.c: which files of the database directory are the database's, so that no other
 * file there is ever deleted: not by RocksDB, which deletes the files it takes for obsolete
 * when it opens a database (and replays every write-ahead log it finds), and not by
 * `cleanup`, which removes the database's files and nothing else.
 *
 * The database's files are kept in a record, RDB_RECORD_FILE in the directory: the names of
 * the files sysbench and RocksDB (working for it) created there, and whether a command is
 * under way. Before every read-write open the directory is compared with it: a file named
 * like RocksDB's that the record does not hold makes the command stop, naming it, before
 * RocksDB could touch it.
 *
 * Why a record, and not only what the database itself references (its live table files, the
 * MANIFEST that CURRENT names, the newest OPTIONS files): RocksDB replays any <n>.log with a
 * number past the last flushed one (a file of the user's named 000501.log would be read as
 * writes of this database; measured: a garbage one stopped the replay of the real log and
 * lost a write), keeps any OPTIONS-<n> with a high number and lets them all accumulate in
 * LOG.old.<n>: none of those can be told apart from its own by the database. And `cleanup`
 * must know all of its files by name, whatever RocksDB references at that moment.
 *
 * A command that does not end (kill -9, a crash) leaves the record saying it was under way,
 * and leaves files of its own that the record does not hold: write-ahead logs, table files
 * being written by a flush or a compaction, a new MANIFEST. Their numbers come from the
 * database's counter, which only grows, so they are numbered above every file the record
 * holds; those are taken as the interrupted command's (RocksDB then deletes or replays them
 * as it would have). What is numbered at or below that is not the database's, interrupted or
 * not. The one case this cannot tell: a file named like RocksDB's, numbered above the record,
 * put into the directory after a command was killed and before the next one ran.
 *
 * A database without a record (prepared by an earlier version) gets one at its first open:
 * the files RocksDB names for itself and the ones it references (the table files of a
 * read-only open, the MANIFEST of CURRENT); its write-ahead logs, OPTIONS and old info logs,
 * which it cannot tell from others, are taken as its own, and anything else is refused (with
 * no record, RocksDB's own leftovers of a killed command look the same: the refusal says so).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "logger.h"
#include "rdb.h"

typedef struct {
  bool present;          /* read from the directory */
  bool under_way;        /* it says a command was under way */
  uint64_t written_us;   /* when it was written, on the clock RocksDB names LOG.old.<n> by */
  uint64_t max_number;   /* the highest number from the database's counter among its files */
  char **names;          /* sorted */
  size_t count, capacity;
} file_record;

/* The record of the process's one database, as read before the open and rewritten since. */
static file_record record;
/* What the record said before this command: the last one did not end, or there was none. */
static bool last_unclean;

static uint64_t now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t) ts.tv_sec * 1000000u + (uint64_t) ts.tv_nsec / 1000u;
}

/* Kinds whose number comes from the database's file counter. */
static bool counter_numbered(rdb_name_kind kind)
{
  return kind == RDB_NAME_WAL || kind == RDB_NAME_TABLE || kind == RDB_NAME_MANIFEST ||
         kind == RDB_NAME_OPTIONS || kind == RDB_NAME_NUMBERED;
}

static void record_clear(file_record *r)
{
  for (size_t i = 0; i < r->count; i++)
    free(r->names[i]);
  free(r->names);
  memset(r, 0, sizeof(*r));
}

static int compare_names(const void *a, const void *b)
{
  return strcmp(*(char *const *) a, *(char *const *) b);
}

static int record_add(file_record *r, const char *name)
{
  if (r->count == r->capacity) {
    size_t capacity = r->capacity ? r->capacity * 2 : 64;
    char **grown = realloc(r->names, capacity * sizeof(*grown));
    if (grown == NULL)
      return -1;
    r->names = grown;
    r->capacity = capacity;
  }
  if ((r->names[r->count] = strdup(name)) == NULL)
    return -1;
  r->count++;
  uint64_t number;
  rdb_name_kind kind = rdb_dir_name_kind(name, &number);
  if (counter_numbered(kind) && number > r->max_number)
    r->max_number = number;
  return 0;
}

static void record_sort(file_record *r)
{
  if (r->count > 0)
    qsort(r->names, r->count, sizeof(*r->names), compare_names);
}

static bool record_has(const file_record *r, const char *name)
{
  return r->count > 0 &&
         bsearch(&name, r->names, r->count, sizeof(*r->names), compare_names) != NULL;
}

/* Reads the record of `path` into *r; absent (or unreadable) leaves r->present false. */
static void record_read(const char *path, file_record *r)
{
  char file[4200], line[512];
  record_clear(r);
  snprintf(file, sizeof(file), "%s/" RDB_RECORD_FILE, path);
  FILE *f = fopen(file, "r");
  if (f == NULL)
    return;
  bool has_state = false;
  while (fgets(line, sizeof(line), f) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    if (strncmp(line, "file ", 5) == 0) {
      if (record_add(r, line + 5) != 0)
        break;
    } else if (strcmp(line, "state under-way") == 0 || strcmp(line, "state closed") == 0) {
      r->under_way = line[6] == 'u';
      has_state = true;
    } else if (strncmp(line, "written ", 8) == 0) {
      r->written_us = strtoull(line + 8, NULL, 10);
    }
  }
  r->present = has_state && !ferror(f);
  fclose(f);
  if (!r->present)
    record_clear(r);
  record_sort(r);
}

/* Writes *r as the record of `path` (a new file renamed over the old one, so that a record
   is always whole); -1 with errno when that failed. */
static int record_write(const char *path, const file_record *r, bool under_way)
{
  char file[4200], temporary[4200];
  snprintf(file, sizeof(file), "%s/" RDB_RECORD_FILE, path);
  snprintf(temporary, sizeof(temporary), "%s/" RDB_RECORD_FILE ".tmp", path);
  FILE *f = fopen(temporary, "w");
  if (f == NULL)
    return -1;
  fprintf(f, "# The files of this RocksDB database, created in this directory by sysbench and "
          "by RocksDB for it\n# (written by sysbench). A command stops before opening the "
          "database while a file named\n# like RocksDB's that is not listed here is in the "
          "directory; `cleanup` removes these files\n# and no other.\n");
  fprintf(f, "state %s\nwritten %" PRIu64 "\n", under_way ? "under-way" : "closed", now_us());
  for (size_t i = 0; i < r->count; i++)
    fprintf(f, "file %s\n", r->names[i]);
  int rc = fflush(f) == 0 && fsync(fileno(f)) == 0 ? 0 : -1;
  int saved = errno;
  if (fclose(f) != 0 && rc == 0) {
    rc = -1;
    saved = errno;
  }
  if (rc == 0 && rename(temporary, file) != 0) {
    rc = -1;
    saved = errno;
  }
  if (rc != 0)
    unlink(temporary);
  errno = saved;
  return rc;
}

/* ---- a database without a record ---- */

/* What a database of an earlier version references: the table files of a read-only open
   (which deletes nothing) and the MANIFEST its CURRENT names. */
typedef struct {
  file_record live;          /* names of its live table files */
  char manifest[256];
} legacy_view;

static int legacy_view_read(const char *path, legacy_view *v)
{
  char file[4200], *err = NULL;
  memset(v, 0, sizeof(*v));
  snprintf(file, sizeof(file), "%s/CURRENT", path);
  FILE *f = fopen(file, "r");
  if (f != NULL) {
    if (fgets(v->manifest, sizeof(v->manifest), f) == NULL)
      v->manifest[0] = '\0';
    v->manifest[strcspn(v->manifest, "\n")] = '\0';
    fclose(f);
  }
  if (v->manifest[0] == '\0')
    return 0;
  rocksdb_options_t *o = rocksdb_options_create();
  rocksdb_t *db = rocksdb_open_for_read_only(o, path, 0, &err);
  rocksdb_options_destroy(o);
  if (err != NULL) {
    log_text(LOG_FATAL, "Cannot read the RocksDB database at '%s': %s", path, err);
    rocksdb_free(err);
    return -1;
  }
  const rocksdb_livefiles_t *files = rocksdb_livefiles(db);
  for (int i = 0, n = files != NULL ? rocksdb_livefiles_count(files) : 0; i < n; i++) {
    const char *name = rocksdb_livefiles_name(files, i);
    record_add(&v->live, name[0] == '/' ? name + 1 : name);
  }
  if (files != NULL)
    rocksdb_livefiles_destroy(files);
  rocksdb_close(db);
  record_sort(&v->live);
  return 0;
}

static bool legacy_database_file(const legacy_view *v, const char *name, rdb_name_kind kind)
{
  switch (kind) {
    case RDB_NAME_WAL:
    case RDB_NAME_OPTIONS:
    case RDB_NAME_OLD_LOG:
      return true;
    case RDB_NAME_TABLE:
      return record_has(&v->live, name);
    case RDB_NAME_MANIFEST:
      return strcmp(name, v->manifest) == 0;
    default:
      return false;
  }
}

/* ---- the check before an open ---- */

/* Whether a file named like RocksDB's (not of a fixed name) is the database's. */
static bool database_file(const char *name, rdb_name_kind kind, uint64_t number,
                          const legacy_view *legacy)
{
  if (!record.present)
    return legacy != NULL && legacy_database_file(legacy, name, kind);
  if (record_has(&record, name))
    return true;
  if (!record.under_way)
    return false;
  /* left by the command that did not end: numbered after everything the record held */
  if (counter_numbered(kind))
    return number > record.max_number;
  return kind == RDB_NAME_OLD_LOG && number >= record.written_us;
}

/* The first three of the sorted names, quoted: "'a', 'b', 'c', ...". */
static void list_names(char *shown, size_t len, const file_record *names)
{
  size_t used = 0;
  shown[0] = '\0';
  for (size_t i = 0; i < names->count && i < 3 && used < len; i++)
    used += (size_t) snprintf(shown + used, len - used, "%s'%s'", i > 0 ? ", " : "",
                              names->names[i]);
  if (names->count > 3 && used < len)
    snprintf(shown + used, len - used, ", ...");
}

int rdb_files_check(const char *path, bool fresh)
{
  legacy_view legacy;
  bool have_legacy = false;
  file_record accepted = { 0 }, foreign = { 0 };
  char shown[1024];
  int fd;

  record_read(path, &record);
  last_unclean = !fresh && (!record.present || record.under_way);
  if (!record.present && !fresh) {
    if (legacy_view_read(path, &legacy) != 0)
      return -1;
    have_legacy = true;
  }
  DIR *d = rdb_dir_open(path, &fd);
  if (d == NULL) {
    log_text(LOG_FATAL, "Cannot read the RocksDB directory '%s': %s", path, strerror(errno));
    if (have_legacy)
      record_clear(&legacy.live);
    return -1;
  }
  const char *name;
  struct stat st;
  while (rdb_dir_next(d, fd, &name, &st)) {
    uint64_t number;
    rdb_name_kind kind = rdb_dir_name_kind(name, &number);
    if (kind == RDB_NAME_OTHER || S_ISDIR(st.st_mode))
      continue;       /* RocksDB leaves these alone */
    if (S_ISREG(st.st_mode) &&
        (kind == RDB_NAME_FIXED ||
         database_file(name, kind, number, have_legacy ? &legacy : NULL))) {
      record_add(&accepted, name);
      continue;
    }
    record_add(&foreign, name);
  }
  closedir(d);
  if (have_legacy)
    record_clear(&legacy.live);

  if (foreign.count > 0) {
    record_sort(&foreign);
    list_names(shown, sizeof(shown), &foreign);
    bool one = foreign.count == 1;
    if (have_legacy)   /* RocksDB's own leftovers of a killed command look the same here */
      log_text(LOG_FATAL, "The RocksDB directory '%s' holds %zu file%s named like RocksDB's "
               "own that the database does not use (%s), and no record of the files sysbench "
               "created there (an earlier version prepared it): opening the database would let "
               "RocksDB delete %s, so it was not opened; move %s out of the directory (if the "
               "last command on the database was killed, %s may be RocksDB's leftovers, which "
               "it would delete)", path, foreign.count, one ? "" : "s", shown,
               one ? "it" : "them", one ? "it" : "them", one ? "it" : "they");
    else
      log_text(LOG_FATAL, "The RocksDB directory '%s' holds %zu file%s named like RocksDB's "
               "own that sysbench did not create (%s): opening the database would let RocksDB "
               "delete or replay %s, so it was not opened; move %s out of the directory", path,
               foreign.count, one ? "" : "s", shown, one ? "it" : "them", one ? "it" : "them");
    record_clear(&accepted);
    record_clear(&foreign);
    return -1;
  }
  /* From now on, until the record says otherwise, a command is under way: if it does not
     end, the next one knows that the files numbered after these may be its. */
  record_sort(&accepted);
  accepted.present = true;
  accepted.under_way = true;
  accepted.written_us = now_us();
  if (record_write(path, &accepted, true) != 0) {
    log_text(LOG_FATAL, "Cannot write in the RocksDB directory '%s': %s", path,
             strerror(errno));
    record_clear(&accepted);
    return -1;
  }
  record_clear(&record);
  record = accepted;
  return 0;
}

bool rdb_files_unclean(void)
{
  return last_unclean;
}

void rdb_files_record(const char *path, bool closed)
{
  file_record now = { 0 };
  int fd;
  DIR *d = rdb_dir_open(path, &fd);
  if (d == NULL)
    return;
  /* Every file of RocksDB's names is the database's: the ones there before the open were
     checked, and the others RocksDB created since, holding the database's lock. */
  const char *name;
  struct stat st;
  while (rdb_dir_next(d, fd, &name, &st)) {
    uint64_t number;
    if (S_ISREG(st.st_mode) && rdb_dir_name_kind(name, &number) != RDB_NAME_OTHER)
      record_add(&now, name);
  }
  closedir(d);
  record_sort(&now);
  now.present = true;
  now.under_way = !closed;
  /* when this fails the record still says a command is under way: the next one is lenient
     with files numbered after it, as after a command that did not end */
  if (record_write(path, &now, !closed) == 0) {
    record_clear(&record);
    record = now;
  } else {
    record_clear(&now);
  }
}

void rdb_files_remove_database(const char *path, bool created_directory, bool say)
{
  int fd;
  DIR *d = rdb_dir_open(path, &fd);
  if (d == NULL) {
    log_text(LOG_WARNING, "Could not read the RocksDB directory '%s' to remove it: %s", path,
             strerror(errno));
    return;
  }
  for (size_t i = 0; i < record.count; i++) {
    struct stat st;
    if (fstatat(fd, record.names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
      unlinkat(fd, record.names[i], 0);
  }
  unlinkat(fd, RDB_RECORD_FILE ".tmp", 0);
  unlinkat(fd, RDB_RECORD_FILE, 0);
  /* the marker last: a cleanup stopped half-way leaves a directory still known as ours */
  unlinkat(fd, RDB_MARKER_FILE, 0);
  closedir(d);
  record_clear(&record);

  rdb_dir_contents after;
  if (rdb_dir_scan(path, &after) != 0)
    return;
  if (created_directory && after.entries == 0) {
    if (rmdir(path) != 0)
      log_text(LOG_WARNING, "Could not remove the RocksDB directory '%s': %s", path,
               strerror(errno));
    return;
  }
  if (!say)
    return;
  if (created_directory)
    log_text(LOG_WARNING, "Kept the directory '%s': it holds %d entr%s sysbench did not write "
             "(the first: '%s'), left untouched; only the database files were removed", path,
             after.entries, after.entries == 1 ? "y" : "ies", after.first_entry);
  else if (after.entries > 0)
    log_text(LOG_NOTICE, "Removed the files of the RocksDB database from '%s' and kept the "
             "directory, which existed before prepare, with the %d entr%s sysbench did not "
             "write (the first: '%s')", path, after.entries, after.entries == 1 ? "y" : "ies",
             after.first_entry);
  else
    log_text(LOG_NOTICE, "Removed the files of the RocksDB database from '%s' and kept the "
             "directory, which existed before prepare", path);
}
