/*
 * statement.c: server-side prepared statements. The '?' placeholders become $1, $2, ...; a
 * statement with parameters is prepared on the server when its parameters are bound, since
 * their types are part of the prepare (integers as bigint, floats as double precision,
 * strings as varchar: 1.0.20's types), one without at once, as 1.0.20 did. Values travel in
 * binary (no number formatting on the client), results come back as text for fetch_row().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "drivers/pgsql/errors.h"
#include "drivers/pgsql/placeholders.h"
#include "drivers/pgsql/query.h"
#include "drivers/pgsql/settings.h"
#include "drivers/pgsql/state.h"
#include "drivers/pgsql/statement.h"
#include "drivers/pgsql/wire.h"
#include "logger.h"

/* PostgreSQL's type OIDs (catalog/pg_type_d.h, which libpq-dev does not ship) */
#define OID_INT2 21
#define OID_INT4 23
#define OID_INT8 20
#define OID_FLOAT4 700
#define OID_FLOAT8 701
#define OID_BPCHAR 1042
#define OID_VARCHAR 1043
#define OID_UNKNOWN 0

static Oid param_type(db_bind_type_t type)
{
  switch (type) {
    case DB_TYPE_TINYINT:
    case DB_TYPE_SMALLINT:  return OID_INT2;
    case DB_TYPE_INT:       return OID_INT4;
    case DB_TYPE_BIGINT:    return OID_INT8;
    case DB_TYPE_FLOAT:     return OID_FLOAT4;
    case DB_TYPE_DOUBLE:    return OID_FLOAT8;
    case DB_TYPE_CHAR:      return OID_BPCHAR;
    case DB_TYPE_VARCHAR:   return OID_VARCHAR;
    default:                return OID_UNKNOWN;   /* dates and times: text, the server infers */
  }
}

static void free_stmt(pgsqldrv_stmt *s)
{
  free(s->text);
  free(s->types);
  free(s->values);
  free(s->lengths);
  free(s->formats);
  free(s->numbers);
  free(s);
}

/* Prepare `s` on the connection's current session with its parameter types. 0 on success;
   otherwise the error is the connection's (logged as 1.0.20 does when fatal). */
static int prepare_on_server(db_conn *con, pgsqldrv_stmt *s)
{
  pgsqldrv_conn *c = con->ptr;
  pgsqldrv_failure how = {"PQprepare", NULL, 0, true};

  pgsqldrv_wire_release(c);
  snprintf(s->name, sizeof(s->name), "sbstmt%u", ++c->next_statement);
  PGresult *res = PQprepare(c->pg, s->name, s->text, s->nparams, s->types);
  if (res != NULL && PQresultStatus(res) == PGRES_COMMAND_OK) {
    PQclear(res);
    s->on_server = true;
    s->session = c->session;
    s->nfields = -1;
    /* The wire path sends no Describe with each execution: the column count, once. */
    if (c->wire.fd >= 0) {
      res = PQdescribePrepared(c->pg, s->name);
      if (res != NULL && PQresultStatus(res) == PGRES_COMMAND_OK)
        s->nfields = PQnfields(res);
      PQclear(res);
    }
    return 0;
  }
  s->on_server = false;
  pgsqldrv_fail(con, res, &how);
  PQclear(res);
  return -1;
}

/* Forget the statement on the server, if it is there (not after a reconnect). */
static void deallocate(pgsqldrv_conn *c, pgsqldrv_stmt *s)
{
  if (!s->on_server || c == NULL || c->pg == NULL || s->session != c->session ||
      PQstatus(c->pg) != CONNECTION_OK)
    return;
  char sql[48];
  pgsqldrv_wire_release(c);
  snprintf(sql, sizeof(sql), "DEALLOCATE %s", s->name);
  PQclear(PQexec(c->pg, sql));
  s->on_server = false;
}

int pgsqldrv_prepare(db_stmt *stmt, const char *query, size_t len)
{
  if (pgsqldrv_config.dry_run)
    return 0;
  db_conn *con = stmt->connection;
  pgsqldrv_conn *c = con->ptr;
  if (c == NULL || c->pg == NULL) {
    pgsqldrv_failure how = {"PQprepare", NULL, 0, true};
    pgsqldrv_fail(con, NULL, &how);
    return -1;
  }

  pgsqldrv_stmt *s = calloc(1, sizeof(*s));
  if (s == NULL)
    return -1;
  s->text = pgsqldrv_number_placeholders(query, len, &s->nparams);
  s->nfields = -1;
  size_t n = s->nparams > 0 ? (size_t) s->nparams : 1;
  s->types = calloc(n, sizeof(Oid));
  s->values = calloc(n, sizeof(char *));
  s->lengths = calloc(n, sizeof(int));
  s->formats = calloc(n, sizeof(int));
  s->numbers = calloc(n, 8);
  if (s->text == NULL || s->types == NULL || s->values == NULL || s->lengths == NULL ||
      s->formats == NULL || s->numbers == NULL) {
    free_stmt(s);
    return -1;
  }
  /* Without parameters there is nothing to wait for. A statement the server refuses is the
     script's mistake: as in 1.0.20 an API error (after the "PQprepare() failed" line), but
     an ignorable error (a lost connection) keeps its SQLSTATE so the event can restart. */
  if (s->nparams == 0 && prepare_on_server(con, s) != 0) {
    if (con->error == DB_ERROR_FATAL) {
      con->sql_state = NULL;
      con->sql_errmsg = NULL;
    }
    free_stmt(s);
    return -1;
  }
  stmt->ptr = s;
  return 0;
}

int pgsqldrv_bind_param(db_stmt *stmt, db_bind_t *params, size_t count)
{
  if (pgsqldrv_config.dry_run)
    return 0;
  pgsqldrv_stmt *s = stmt->ptr;
  pgsqldrv_conn *c = stmt->connection->ptr;
  if (s == NULL || c == NULL || c->pg == NULL)
    return 1;
  if (count != (size_t) s->nparams) {
    /* 1.0.20's line */
    log_text(LOG_ALERT, "wrong number of parameters in prepared statement");
    return 1;
  }
  bool same_types = s->on_server;
  for (size_t i = 0; i < count; i++) {
    Oid type = param_type(params[i].type);
    same_types &= s->types[i] == type;
    s->types[i] = type;
  }
  if (same_types && s->session == c->session)
    return 0;
  deallocate(c, s);
  return prepare_on_server(stmt->connection, s) == 0 ? 0 : 1;
}

static void put_be(unsigned char *out, uint64_t v, int bytes)
{
  for (int i = bytes - 1; i >= 0; i--) {
    out[i] = (unsigned char) v;
    v >>= 8;
  }
}

/* The bound values as libpq's parameter arrays. */
static void fill_params(db_stmt *stmt, pgsqldrv_stmt *s)
{
  for (int i = 0; i < s->nparams && (size_t) i < stmt->param_count; i++) {
    const db_bind_t *p = &stmt->params[i];
    unsigned char *number = s->numbers + 8 * i;
    s->formats[i] = 1;
    if (p->is_null != NULL && *p->is_null) {
      s->values[i] = NULL;
      s->lengths[i] = 0;
      continue;
    }
    switch (p->type) {
      case DB_TYPE_BIGINT:
        put_be(number, (uint64_t) *(const int64_t *) p->buffer, 8);
        s->lengths[i] = 8;
        break;
      case DB_TYPE_DOUBLE: {
        uint64_t bits;
        memcpy(&bits, p->buffer, 8);
        put_be(number, bits, 8);
        s->lengths[i] = 8;
        break;
      }
      case DB_TYPE_INT:
        put_be(number, (uint32_t) *(const int32_t *) p->buffer, 4);
        s->lengths[i] = 4;
        break;
      case DB_TYPE_SMALLINT:
        put_be(number, (uint16_t) *(const int16_t *) p->buffer, 2);
        s->lengths[i] = 2;
        break;
      case DB_TYPE_TINYINT:
        put_be(number, (uint16_t) (int16_t) *(const int8_t *) p->buffer, 2);
        s->lengths[i] = 2;
        break;
      case DB_TYPE_FLOAT: {
        uint32_t bits;
        memcpy(&bits, p->buffer, 4);
        put_be(number, bits, 4);
        s->lengths[i] = 4;
        break;
      }
      default: {
        /* strings (binary varchar/bpchar are their bytes), and text for other types */
        unsigned long len = p->data_len != NULL ? *p->data_len : 0;
        if (len > p->max_len)
          len = p->max_len;
        s->values[i] = p->buffer;
        s->lengths[i] = (int) len;
        s->formats[i] = s->types[i] == OID_UNKNOWN ? 0 : 1;
        continue;
      }
    }
    s->values[i] = (const char *) number;
  }
}

driver_error_class pgsqldrv_execute(db_stmt *stmt, db_result *rs)
{
  if (pgsqldrv_config.dry_run)
    return DRIVER_ERROR_NONE;
  db_conn *con = stmt->connection;
  pgsqldrv_conn *c = con->ptr;
  pgsqldrv_stmt *s = stmt->ptr;
  pgsqldrv_failure how = {"PQexecPrepared", NULL, 0, false};
  if (c == NULL || c->pg == NULL || s == NULL)
    return pgsqldrv_fail(con, NULL, &how);

  if (stmt->param_count != (size_t) s->nparams) {
    log_text(LOG_ALERT, "wrong number of parameters in prepared statement");
    db_set_api_error(con);
    return DRIVER_ERROR_FATAL;
  }
  /* Refused when its parameters were bound (a table created since?): the server says why
     now. */
  if (!s->on_server || s->session != c->session) {
    if (prepare_on_server(con, s) != 0)
      return con->error_class;
  }
  driver_error_class rc;
  if (pgsqldrv_wire_execute(stmt, rs, &rc) == 0)
    return rc;
  pgsqldrv_wire_release(c);
  fill_params(stmt, s);
  PGresult *res = PQexecPrepared(c->pg, s->name, s->nparams, s->values, s->lengths,
                                 s->formats, 0);
  if (res == NULL)
    return pgsqldrv_fail(con, NULL, &how);
  return pgsqldrv_take_result(con, res, rs, &how);
}

int pgsqldrv_close(db_stmt *stmt)
{
  pgsqldrv_stmt *s = stmt->ptr;
  if (s == NULL)
    return 0;
  deallocate(stmt->connection->ptr, s);
  free_stmt(s);
  stmt->ptr = NULL;
  return 0;
}
