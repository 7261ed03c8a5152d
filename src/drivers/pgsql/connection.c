/*
 * connection.c: opening, closing and re-opening connections with libpq: the server each one
 * goes to, the connection parameters (TLS included), and 1.0.20's message when a connection
 * cannot be made. The password goes to libpq only; libpq's messages never contain it.
 */
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "drivers/pgsql/connection.h"
#include "drivers/pgsql/endpoints.h"
#include "drivers/pgsql/query.h"
#include "drivers/pgsql/settings.h"
#include "drivers/pgsql/state.h"
#include "drivers/pgsql/wire.h"
#include "logger.h"

/* Server notices (a BEGIN inside a transaction, RAISE NOTICE ...) are not errors: 1.0.20
   printed none. They show with --db-debug. */
static void on_notice(void *arg, const char *message)
{
  (void) arg;
  if (db_debug_enabled())
    log_text(LOG_DEBUG, "server notice: %.*s", (int) strcspn(message, "\n"), message);
}

/* A new connection to `ep`, or NULL with libpq's reason in `why` (a copy, as the handle is
   gone by then). */
static PGconn *open_handle(const pgsqldrv_endpoint *ep, char *why, size_t why_len)
{
  const pgsqldrv_settings *c = &pgsqldrv_config;
  const char *keys[12], *values[12];
  int n = 0;

  /* dbname first: as with 1.0.20's PQsetdbLogin(), --pgsql-db may be a connection string
     ("dbname=x sslmode=require"), and the options below override what it says. */
  keys[n] = "dbname";       values[n++] = c->db;
  keys[n] = "host";         values[n++] = ep->host;
  keys[n] = "port";         values[n++] = ep->port;
  keys[n] = "user";         values[n++] = c->user;
  if (c->password != NULL && *c->password != '\0') {
    keys[n] = "password";   values[n++] = c->password;
  }
  if (c->sslmode != NULL) {
    keys[n] = "sslmode";    values[n++] = c->sslmode;
  }
  if (c->sslrootcert != NULL) {
    keys[n] = "sslrootcert"; values[n++] = c->sslrootcert;
  }
  keys[n] = "fallback_application_name"; values[n++] = "sysbench";
  keys[n] = NULL;           values[n] = NULL;

  PGconn *pg = PQconnectdbParams(keys, values, 1);
  if (pg == NULL) {
    snprintf(why, why_len, "out of memory\n");
    return NULL;
  }
  if (PQstatus(pg) != CONNECTION_OK) {
    snprintf(why, why_len, "%s", PQerrorMessage(pg));
    PQfinish(pg);
    return NULL;
  }
  PQsetNoticeProcessor(pg, on_notice, NULL);
  const char *version = PQparameterStatus(pg, "server_version");
  if (version != NULL) {                /* for the result file */
    char text[96];
    snprintf(text, sizeof(text), "PostgreSQL %s", version);
    db_note_server_version(text);
  }
  return pg;
}

int pgsqldrv_connect(db_conn *con)
{
  pgsqldrv_conn *c = calloc(1, sizeof(*c));
  char why[1024];

  if (c == NULL)
    return -1;
  con->ptr = c;
  c->wire.fd = -1;
  pgsqldrv_next_endpoint(&c->endpoint);
  if (pgsqldrv_config.dry_run)
    return 0;

  c->pg = open_handle(&c->endpoint, why, sizeof(why));
  if (c->pg == NULL) {
    /* 1.0.20's line, libpq's message with its own line breaks (and final newline) */
    if (db_connect_failure_first())
      log_text(LOG_FATAL, "Connection to database failed: %s", why);
    db_connect_error_logged(con);
    free(c);
    con->ptr = NULL;
    return -1;
  }
  c->session = 1;
  pgsqldrv_wire_attach(c);
  return 0;
}

static void close_handle(pgsqldrv_conn *c)
{
  pgsqldrv_drop_pending(c);
  pgsqldrv_wire_detach(c);
  if (c->pg != NULL) {
    PQfinish(c->pg);
    c->pg = NULL;
  }
}

int pgsqldrv_disconnect(db_conn *con)
{
  pgsqldrv_conn *c = con->ptr;

  if (c == NULL)
    return 0;
  close_handle(c);
  free(c->pending.items);
  free(c);
  con->ptr = NULL;
  return 0;
}

/* Close the connection (its prepared statements die with the server session: db.c prepares
   them again through the connection's generation) and connect again to the same server.
   The connection's error fields are left alone: they describe the error that caused this. */
int pgsqldrv_reconnect(db_conn *con)
{
  pgsqldrv_conn *c = con->ptr;
  char why[1024];

  if (c == NULL)
    return pgsqldrv_connect(con);
  if (pgsqldrv_config.dry_run)
    return 0;
  close_handle(c);
  c->pg = open_handle(&c->endpoint, why, sizeof(why));
  if (c->pg == NULL) {
    log_text(LOG_DEBUG, "Reconnect failed: %.*s", (int) strcspn(why, "\n"), why);
    db_set_connect_error(con, "%.*s", (int) strcspn(why, "\n"), why);
    return -1;
  }
  c->session++;
  pgsqldrv_wire_attach(c);
  return 0;
}
