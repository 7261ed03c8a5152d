/*
 * stream.c: LOAD DATA LOCAL INFILE fed from memory (db_driver_ops.stream_in): the statement's
 * "file" is whatever the caller's fill function produces, read by the client library through
 * a LOCAL INFILE handler of ours. No file is ever read: a connection asks for the LOCAL
 * INFILE capability only when the loader wants it (db_want_stream_in), and its handler
 * refuses every request the server makes outside db_stream_in() -- a server cannot use it
 * to read the client's files.
 */
#include <string.h>
#include <sys/socket.h>

#include <errmsg.h>

#include "drivers/mysql/errors.h"
#include "drivers/mysql/settings.h"
#include "drivers/mysql/query.h"
#include "drivers/mysql/state.h"
#include "drivers/mysql/stream.h"
#include "logger.h"

/* One LOAD DATA in progress on a connection. */
struct mysqldrv_stream {
  db_stream_fill fill;
  void *arg;
  MYSQL *mysql;
  bool aborted;
};

#define REFUSED_TEXT "LOAD DATA LOCAL INFILE is only served to sysbench's table loader"
#define ABORTED_TEXT "the data stream was broken off"

static int handler_init(void **state, const char *filename, void *userdata)
{
  (void) filename;
  mysqldrv_conn *c = userdata;
  *state = c;
  return c->stream == NULL ? 1 : 0;
}

static int handler_read(void *state, char *buf, unsigned int capacity)
{
  mysqldrv_conn *c = state;
  struct mysqldrv_stream *st = c->stream;
  if (st == NULL)
    return -1;
  long n = st->fill(st->arg, buf, capacity);
  if (n >= 0)
    return (int) n;
  /* The library would end the data with an empty packet, and the server would load what
     it got as if it were all; breaking the connection off makes it fail the statement. */
  st->aborted = true;
  int fd = (int) mysql_get_socket(st->mysql);
  if (fd >= 0)
    shutdown(fd, SHUT_RDWR);
  return -1;
}

static void handler_end(void *state)
{
  (void) state;
}

static int handler_error(void *state, char *message, unsigned int len)
{
  mysqldrv_conn *c = state;
  const char *text = c != NULL && c->stream != NULL && c->stream->aborted ? ABORTED_TEXT
                                                                           : REFUSED_TEXT;
  snprintf(message, len, "%s", text);
  return CR_UNKNOWN_ERROR;
}

void mysqldrv_stream_prepare_options(MYSQL *mysql)
{
  if (!db_stream_in_wanted())
    return;
  unsigned int on = 1;
  MYSQLDRV_TRACE("mysql_options(%p, MYSQL_OPT_LOCAL_INFILE, 1)", (void *) mysql);
  mysql_options(mysql, MYSQL_OPT_LOCAL_INFILE, &on);
}

void mysqldrv_stream_attach(mysqldrv_conn *c)
{
  if (c->mysql == NULL || !db_stream_in_wanted())
    return;
  mysql_set_local_infile_handler(c->mysql, handler_init, handler_read, handler_end,
                                 handler_error, c);
}

driver_error_class mysqldrv_stream_in(db_conn *con, const char *statement, size_t len,
                                      db_stream_fill fill, void *arg, db_result *rs)
{
  if (mysqldrv_config.dry_run)
    return DRIVER_ERROR_NONE;
  mysqldrv_conn *c = con->ptr;
  MYSQL *m = mysqldrv_handle(con);
  if (m == NULL)
    return mysqldrv_fail_disconnected(con);
  if (!db_stream_in_wanted())
    return mysqldrv_fail(con, CR_UNKNOWN_ERROR, "HY000",
                         "the connection was made without the LOCAL INFILE capability");

  if (mysql_more_results(m))
    mysqldrv_drain_results(m);
  struct mysqldrv_stream st = { .fill = fill, .arg = arg, .mysql = m };
  /* An error of the server names this statement, not the one before it */
  mysqldrv_doing(con, "mysql_drv_query()", statement, len);
  c->stream = &st;
  int rc = mysql_real_query(m, statement, (unsigned long) len);
  c->stream = NULL;
  MYSQLDRV_TRACE("mysql_real_query(%p, \"%.*s\", %zu) = %d (LOCAL INFILE stream)", (void *) m,
                 (int) len, statement, len, rc);
  if (rc != 0) {
    /* Broken off by us because the command is stopping (Ctrl-C, another thread's error):
       the server rolls the statement back, and the stop is the command's to report, not an
       error of this statement -- as with PostgreSQL's COPY (pgsql/copy.c). */
    if (st.aborted) {
      db_set_error(con, DRIVER_ERROR_FATAL, CR_UNKNOWN_ERROR, "HY000", ABORTED_TEXT);
      return DRIVER_ERROR_FATAL;
    }
    return mysqldrv_fail(con, mysql_errno(m), mysql_sqlstate(m), mysql_error(m));
  }
  my_ulonglong affected = mysql_affected_rows(m);
  rs->nrows = (uint32_t) affected;
  rs->stat_type = affected > 0 && affected != (my_ulonglong) -1 ? SB_CNT_WRITE : SB_CNT_OTHER;
  return DRIVER_ERROR_NONE;
}
