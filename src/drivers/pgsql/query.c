/*
 * query.c: text queries (and client-side prepared statements, which db.c turns into text):
 * running them, classifying a result as 1.0.20 does (rows are a read, a command that touched
 * rows a write, anything else other), rows as strings, the further results of a
 * multi-statement query, escaping string values for the connection's server, and the
 * ROLLBACK after an error that aborted the transaction.
 */
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "drivers/pgsql/errors.h"
#include "drivers/pgsql/query.h"
#include "drivers/pgsql/settings.h"
#include "drivers/pgsql/state.h"
#include "drivers/pgsql/wire.h"

/* 1.0.20 raised "SQL API error" for what the SQL API cannot use (an empty query, COPY):
   an error without an SQLSTATE. */
static driver_error_class api_error(db_conn *con)
{
  db_set_api_error(con);
  return DRIVER_ERROR_FATAL;
}

driver_error_class pgsqldrv_take_result(db_conn *con, PGresult *res, db_result *rs,
                                        const pgsqldrv_failure *how)
{
  driver_error_class rc = DRIVER_ERROR_NONE;

  switch (PQresultStatus(res)) {
    case PGRES_TUPLES_OK:
    case PGRES_SINGLE_TUPLE:
      rs->ptr = res;
      rs->stat_type = SB_CNT_READ;
      rs->nrows = (uint32_t) PQntuples(res);
      rs->nfields = (uint32_t) PQnfields(res);
      return DRIVER_ERROR_NONE;

    case PGRES_COMMAND_OK: {
      unsigned long rows = strtoul(PQcmdTuples(res), NULL, 10);
      rs->nrows = (uint32_t) rows;
      rs->stat_type = rows > 0 ? SB_CNT_WRITE : SB_CNT_OTHER;
      break;
    }

    case PGRES_EMPTY_QUERY:
    case PGRES_COPY_OUT:
    case PGRES_COPY_IN:
    case PGRES_COPY_BOTH:
      rc = api_error(con);
      break;

    default:
      rc = pgsqldrv_fail(con, res, how);
      break;
  }
  PQclear(res);
  return rc;
}

static bool is_error(ExecStatusType status)
{
  return status == PGRES_FATAL_ERROR || status == PGRES_BAD_RESPONSE ||
         status == PGRES_NONFATAL_ERROR;
}

/* A COPY the script started cannot go on through the SQL API: end it so the connection
   stays usable (the server answers COPY FROM STDIN's end with an error). */
static void end_copy(PGconn *pg, ExecStatusType status)
{
  if (status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH) {
    char *data;
    while (PQgetCopyData(pg, &data, 0) > 0)
      PQfreemem(data);
  } else if (status == PGRES_COPY_IN) {
    PQputCopyEnd(pg, "COPY FROM STDIN is not supported by the SQL API");
  }
}

void pgsqldrv_drop_pending(pgsqldrv_conn *c)
{
  pgsqldrv_pending *p = &c->pending;
  for (size_t i = p->next; i < p->count; i++)
    PQclear(p->items[i]);
  p->count = p->next = 0;
}

static int push_pending(pgsqldrv_conn *c, PGresult *res)
{
  pgsqldrv_pending *p = &c->pending;
  if (p->count == p->capacity) {
    size_t capacity = p->capacity ? 2 * p->capacity : 4;
    PGresult **grown = realloc(p->items, capacity * sizeof(PGresult *));
    if (grown == NULL)
      return -1;
    p->items = grown;
    p->capacity = capacity;
  }
  p->items[p->count++] = res;
  return 0;
}

driver_error_class pgsqldrv_query(db_conn *con, const char *query, size_t len, db_result *rs)
{
  if (pgsqldrv_config.dry_run)
    return DRIVER_ERROR_NONE;
  pgsqldrv_conn *c = con->ptr;
  pgsqldrv_failure how = {"PQexec", query, len, false};
  if (c == NULL || c->pg == NULL)
    return pgsqldrv_fail(con, NULL, &how);
  PGconn *pg = c->pg;

  pgsqldrv_drop_pending(c);
  pgsqldrv_wire_release(c);
  if (!PQsendQuery(pg, query))
    return pgsqldrv_fail(con, NULL, &how);

  /* Every result of the query is read now (the server sent them all): the first goes to
     the script, the others wait for next_result(), and an error in any of them is the
     query's error, as with PQexec(). */
  PGresult *first = NULL, *error = NULL, *res;
  while ((res = PQgetResult(pg)) != NULL) {
    ExecStatusType status = PQresultStatus(res);
    end_copy(pg, status);
    if (error != NULL)
      PQclear(res);
    else if (is_error(status))
      error = res;
    else if (first == NULL)
      first = res;
    else if (push_pending(c, res) != 0)
      PQclear(res);
  }
  if (error != NULL) {
    PQclear(first);
    pgsqldrv_drop_pending(c);
    return pgsqldrv_take_result(con, error, rs, &how);
  }
  if (first == NULL)
    return pgsqldrv_fail(con, NULL, &how);
  return pgsqldrv_take_result(con, first, rs, &how);
}

int pgsqldrv_fetch_row(db_result *rs, db_row_t *row)
{
  pgsqldrv_conn *c = rs->connection->ptr;
  if (c != NULL && pgsqldrv_wire_result(c, rs))
    return pgsqldrv_wire_fetch_row(c, rs, row);
  const PGresult *res = rs->ptr;
  if (res == NULL || rs->rows_fetched >= (uint64_t) PQntuples(res))
    return 1;
  int r = (int) rs->rows_fetched;
  for (uint32_t i = 0; i < rs->nfields; i++) {
    if (PQgetisnull(res, r, (int) i)) {
      row->values[i].ptr = NULL;
      row->values[i].len = 0;
    } else {
      row->values[i].ptr = PQgetvalue(res, r, (int) i);
      row->values[i].len = (uint32_t) PQgetlength(res, r, (int) i);
    }
  }
  row->ptr = rs->ptr;
  return 0;
}

bool pgsqldrv_more_results(db_conn *con)
{
  pgsqldrv_conn *c = con->ptr;
  return c != NULL && c->pending.next < c->pending.count;
}

driver_error_class pgsqldrv_next_result(db_conn *con, db_result *rs)
{
  pgsqldrv_conn *c = con->ptr;
  if (c == NULL || c->pending.next >= c->pending.count) {
    rs->stat_type = SB_CNT_OTHER;
    return DRIVER_ERROR_NONE;
  }
  PGresult *res = c->pending.items[c->pending.next++];
  if (c->pending.next == c->pending.count)
    c->pending.count = c->pending.next = 0;
  pgsqldrv_failure how = {"PQexec", NULL, 0, false};
  return pgsqldrv_take_result(con, res, rs, &how);
}

int pgsqldrv_free_results(db_result *rs)
{
  pgsqldrv_conn *c = rs->connection->ptr;
  if (c != NULL && pgsqldrv_wire_result(c, rs)) {
    pgsqldrv_wire_free_result(c);
    rs->ptr = NULL;
    return 0;
  }
  if (rs->ptr != NULL) {
    PQclear(rs->ptr);
    rs->ptr = NULL;
  }
  return 0;
}

/* Without a server to ask (a dry run), quotes are doubled: what every PostgreSQL with
   standard_conforming_strings (the default since 9.1) reads back as the same bytes. */
size_t pgsqldrv_escape(db_conn *con, char *dst, const char *src, size_t len)
{
  PGconn *pg = pgsqldrv_config.dry_run ? NULL : pgsqldrv_handle(con);
  if (pg != NULL) {
    int error = 0;
    size_t n = PQescapeStringConn(pg, dst, src, len, &error);
    if (error == 0)
      return n;
  }
  size_t n = 0;
  for (size_t i = 0; i < len && src[i] != '\0'; i++) {
    if (src[i] == '\'')
      dst[n++] = '\'';
    dst[n++] = src[i];
  }
  dst[n] = '\0';
  return n;
}

void pgsqldrv_rollback(db_conn *con)
{
  pgsqldrv_conn *c = con->ptr;
  if (c == NULL || c->pg == NULL)
    return;
  pgsqldrv_wire_release(c);
  PQclear(PQexec(c->pg, "ROLLBACK"));
  c->wire.used_last = false;
}
