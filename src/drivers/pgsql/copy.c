/*
 * copy.c: COPY ... FROM STDIN fed from memory (db_driver_ops.stream_in), PostgreSQL's fast
 * path for loading tables: the caller's fill function produces the data, sent with
 * PQputCopyData() in the buffers it fills. When fill aborts, the COPY is ended with an error
 * message, so the server rolls the whole statement back.
 */
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "drivers/pgsql/copy.h"
#include "drivers/pgsql/errors.h"
#include "drivers/pgsql/query.h"
#include "drivers/pgsql/settings.h"
#include "drivers/pgsql/state.h"
#include "drivers/pgsql/wire.h"

#define COPY_BUFFER_BYTES (256 * 1024)
#define ABORTED_TEXT "the data stream was broken off"

/* The results libpq still holds after the one we looked at. */
static void drain(PGconn *pg)
{
  PGresult *res;
  while ((res = PQgetResult(pg)) != NULL)
    PQclear(res);
}

driver_error_class pgsqldrv_stream_in(db_conn *con, const char *statement, size_t len,
                                      db_stream_fill fill, void *arg, db_result *rs)
{
  if (pgsqldrv_config.dry_run)
    return DRIVER_ERROR_NONE;
  pgsqldrv_conn *c = con->ptr;
  pgsqldrv_failure how = {"PQexec", statement, len, false};
  if (c == NULL || c->pg == NULL)
    return pgsqldrv_fail(con, NULL, &how);
  PGconn *pg = c->pg;

  pgsqldrv_drop_pending(c);
  pgsqldrv_wire_release(c);
  PGresult *res = PQexec(pg, statement);
  if (PQresultStatus(res) != PGRES_COPY_IN) {
    if (PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_TUPLES_OK) {
      PQclear(res);
      db_set_error(con, DRIVER_ERROR_FATAL, 0, "42601", "the statement did not start a COPY");
      return DRIVER_ERROR_FATAL;
    }
    driver_error_class rc = pgsqldrv_fail(con, res, &how);
    PQclear(res);
    return rc;
  }
  PQclear(res);

  char *buf = malloc(COPY_BUFFER_BYTES);
  bool aborted = buf == NULL, send_failed = false;
  while (!aborted) {
    long n = fill(arg, buf, COPY_BUFFER_BYTES);
    if (n < 0)
      aborted = true;
    else if (n == 0)
      break;
    else if (PQputCopyData(pg, buf, (int) n) != 1) {
      send_failed = true;
      break;
    }
  }
  free(buf);

  if (aborted) {
    PQputCopyEnd(pg, ABORTED_TEXT);
    drain(pg);
    db_set_error(con, DRIVER_ERROR_FATAL, 0, "57014", ABORTED_TEXT);
    return DRIVER_ERROR_FATAL;
  }
  if (!send_failed && PQputCopyEnd(pg, NULL) != 1)
    send_failed = true;
  res = PQgetResult(pg);
  if (send_failed || PQresultStatus(res) != PGRES_COMMAND_OK) {
    driver_error_class rc = pgsqldrv_fail(con, res, &how);
    PQclear(res);
    drain(pg);
    return rc;
  }
  unsigned long rows = strtoul(PQcmdTuples(res), NULL, 10);
  rs->nrows = (uint32_t) rows;
  rs->stat_type = rows > 0 ? SB_CNT_WRITE : SB_CNT_OTHER;
  PQclear(res);
  drain(pg);
  return DRIVER_ERROR_NONE;
}
