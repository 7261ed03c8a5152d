/*
 * connection.c: opening, closing and re-opening connections: the server each one goes to,
 * the client options (TLS, compression, multi-statements), the session statements and hooks
 * run after every (re)connect, and the one-line message when a connection cannot be made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errmsg.h>

#include "drivers/mysql/connection.h"
#include "drivers/mysql/endpoints.h"
#include "drivers/mysql/hooks.h"
#include "drivers/mysql/settings.h"
#include "drivers/mysql/state.h"
#include "drivers/mysql/stream.h"
#include "drivers/mysql/wire.h"
#include "logger.h"

static char **session_statements;
static size_t session_statement_count;

int mysqldrv_set_session_statements(const char *const *statements, size_t count)
{
  for (size_t i = 0; i < session_statement_count; i++)
    free(session_statements[i]);
  free(session_statements);
  session_statements = NULL;
  session_statement_count = 0;
  if (count == 0)
    return 0;
  session_statements = calloc(count, sizeof(char *));
  if (session_statements == NULL)
    return -1;
  for (size_t i = 0; i < count; i++) {
    session_statements[i] = strdup(statements[i]);
    if (session_statements[i] == NULL)
      return -1;
    session_statement_count++;
  }
  return 0;
}

static const char *or_null(const char *s)
{
  return s != NULL ? s : "(null)";
}

/* --mysql-ssl and friends. MariaDB Connector/C has no ssl-mode: MYSQL_OPT_SSL_ENFORCE asks
   for TLS but quietly goes on in plain text when the server has none (that is "preferred";
   tls_required() makes the other modes fail then), the chain is checked against the CA when
   one is given, and the host name with MYSQL_OPT_SSL_VERIFY_SERVER_CERT. */
static void set_tls_options(MYSQL *m)
{
  const mysqldrv_settings *c = &mysqldrv_config;

  if (c->ssl_mode == MYSQL_SSL_DISABLED)
    return;
  MYSQLDRV_TRACE("mysql_ssl_set(%p, \"%s\", \"%s\", \"%s\", NULL, \"%s\")", (void *) m,
                 or_null(c->ssl_key), or_null(c->ssl_cert), or_null(c->ssl_ca),
                 or_null(c->ssl_cipher));
#ifdef HAVE_MYSQL_OPT_SSL_MODE
  unsigned mode = SSL_MODE_DISABLED;
  switch (c->ssl_mode) {
    case MYSQL_SSL_PREFERRED:       mode = SSL_MODE_PREFERRED; break;
    case MYSQL_SSL_REQUIRED:
    case MYSQL_SSL_LEGACY_ON:       mode = SSL_MODE_REQUIRED; break;
    case MYSQL_SSL_VERIFY_CA:       mode = SSL_MODE_VERIFY_CA; break;
    case MYSQL_SSL_VERIFY_IDENTITY: mode = SSL_MODE_VERIFY_IDENTITY; break;
    default: break;
  }
  mysql_options(m, MYSQL_OPT_SSL_MODE, &mode);
  if (c->ssl_key != NULL)
    mysql_options(m, MYSQL_OPT_SSL_KEY, c->ssl_key);
  if (c->ssl_cert != NULL)
    mysql_options(m, MYSQL_OPT_SSL_CERT, c->ssl_cert);
  if (c->ssl_ca != NULL)
    mysql_options(m, MYSQL_OPT_SSL_CA, c->ssl_ca);
  if (c->ssl_cipher != NULL)
    mysql_options(m, MYSQL_OPT_SSL_CIPHER, c->ssl_cipher);
#else
  mysql_ssl_set(m, c->ssl_key, c->ssl_cert, c->ssl_ca, NULL, c->ssl_cipher);
  my_bool enforce = 1;
  mysql_options(m, MYSQL_OPT_SSL_ENFORCE, &enforce);
  my_bool verify_host = c->ssl_mode == MYSQL_SSL_VERIFY_IDENTITY;
  mysql_options(m, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &verify_host);
#endif
}

/* The modes stronger than "preferred" fail on a connection that did not get TLS. */
static bool tls_missing(MYSQL *m)
{
  mysqldrv_ssl_mode mode = mysqldrv_config.ssl_mode;
  return mode != MYSQL_SSL_DISABLED && mode != MYSQL_SSL_PREFERRED &&
         mysql_get_ssl_cipher(m) == NULL;
}

static void set_compression_options(MYSQL *m)
{
  const mysqldrv_settings *c = &mysqldrv_config;

  if (!c->compression)
    return;
  MYSQLDRV_TRACE("mysql_options(%p, MYSQL_OPT_COMPRESS, NULL)", (void *) m);
  mysql_options(m, MYSQL_OPT_COMPRESS, NULL);
#ifdef HAVE_MYSQL_OPT_COMPRESSION_ALGORITHMS
  if (c->compression_algorithms != NULL) {
    MYSQLDRV_TRACE("mysql_options(%p, MYSQL_OPT_COMPRESSION_ALGORITHMS, \"%s\")", (void *) m,
                   c->compression_algorithms);
    mysql_options(m, MYSQL_OPT_COMPRESSION_ALGORITHMS, c->compression_algorithms);
  }
#endif
}

/* The session statements and the layered driver's hook; on failure the handle's error (or
   the hook's own message) stays for the caller. */
static int start_session(MYSQL *m, const mysqldrv_endpoint *ep)
{
  for (size_t i = 0; i < session_statement_count; i++) {
    const char *sql = session_statements[i];
    MYSQLDRV_TRACE("mysql_real_query(%p, \"%s\")", (void *) m, sql);
    if (mysql_real_query(m, sql, strlen(sql)) != 0)
      return -1;
    /* a session statement may return rows (SELECT @@...): drop them */
    do {
      MYSQL_RES *res = mysql_store_result(m);
      if (res != NULL)
        mysql_free_result(res);
    } while (mysql_next_result(m) == 0);
    if (mysql_errno(m) != 0)
      return -1;
  }
  if (mysqldrv_active_hooks.after_connect != NULL &&
      mysqldrv_active_hooks.after_connect(m, ep) != 0)
    return -1;
  return 0;
}

/* A new handle connected to `ep`, or NULL with the reason in `why`. */
static MYSQL *open_handle(const mysqldrv_endpoint *ep, char *why, size_t why_len)
{
  const mysqldrv_settings *c = &mysqldrv_config;
  MYSQL *m = mysql_init(NULL);

  if (m == NULL) {
    snprintf(why, why_len, "out of memory (mysql_init)");
    return NULL;
  }
  MYSQLDRV_TRACE("mysql_init(NULL) = %p", (void *) m);
  set_tls_options(m);
  set_compression_options(m);
  mysqldrv_stream_prepare_options(m);

  /* The password is never printed, here or anywhere. */
  MYSQLDRV_TRACE("mysql_real_connect(%p, \"%s\", \"%s\", %s, \"%s\", %u, \"%s\", "
                 "CLIENT_MULTI_STATEMENTS)", (void *) m, or_null(ep->host), or_null(c->user),
                 c->password != NULL && *c->password ? "\"***\"" : "\"\"", or_null(c->db),
                 ep->port, or_null(ep->socket));
  if (mysql_real_connect(m, ep->host, c->user, c->password, c->db, ep->port, ep->socket,
                         CLIENT_MULTI_STATEMENTS) == NULL) {
    snprintf(why, why_len, "error %u: %s%s", mysql_errno(m), mysql_error(m),
             c->ssl_mode == MYSQL_SSL_LEGACY_ON && mysql_errno(m) == CR_SSL_CONNECTION_ERROR
                 ? " (--mysql-ssl=on reads client-key.pem, client-cert.pem and cacert.pem "
                   "from the current directory unless --mysql-ssl-key/-cert/-ca are given)"
                 : "");
    mysql_close(m);
    return NULL;
  }
  db_note_server_version(mysql_get_server_info(m));    /* for the result file */
  if (c->ssl_mode != MYSQL_SSL_DISABLED)
    MYSQLDRV_TRACE("mysql_get_ssl_cipher(%p) = \"%s\"", (void *) m,
                   or_null(mysql_get_ssl_cipher(m)));
  if (tls_missing(m)) {
    snprintf(why, why_len, "the server does not offer TLS, which --mysql-ssl requires");
    mysql_close(m);
    return NULL;
  }
  if (start_session(m, ep) != 0) {
    if (mysql_errno(m) != 0)
      snprintf(why, why_len, "session set-up failed: error %u: %s", mysql_errno(m),
               mysql_error(m));
    else
      snprintf(why, why_len, "session set-up failed");
    mysql_close(m);
    return NULL;
  }
  return m;
}

static void close_handle(mysqldrv_conn *c)
{
  mysqldrv_wire_detach(c);
  if (c->mysql != NULL) {
    MYSQLDRV_TRACE("mysql_close(%p)", (void *) c->mysql);
    mysql_close(c->mysql);
    c->mysql = NULL;
  }
}

int mysqldrv_connect(db_conn *con)
{
  mysqldrv_conn *c = calloc(1, sizeof(*c) + mysqldrv_active_hooks.connection_state_size);
  char why[600], where[300];

  if (c == NULL)
    return -1;
  con->ptr = c;
  c->wire.fd = -1;
  if (mysqldrv_active_hooks.choose_endpoint != NULL)
    mysqldrv_active_hooks.choose_endpoint(&c->endpoint);
  else
    mysqldrv_next_endpoint(&c->endpoint);
  if (mysqldrv_config.dry_run)
    return 0;

  c->mysql = open_handle(&c->endpoint, why, sizeof(why));
  if (c->mysql == NULL) {
    mysqldrv_describe_endpoint(&c->endpoint, where, sizeof(where));
    /* 1.0.20's two lines; the script's error is then its plain "connection creation failed" */
    if (db_connect_failure_first()) {
      log_text(LOG_FATAL, "unable to connect to MySQL server on %s, aborting...", where);
      log_text(LOG_FATAL, "%s", why);
    }
    db_connect_error_logged(con);
    if (mysqldrv_active_hooks.connect_failed != NULL)
      mysqldrv_active_hooks.connect_failed(&c->endpoint, why);
    free(c);
    con->ptr = NULL;
    return -1;
  }
  mysqldrv_wire_attach(c);
  mysqldrv_stream_attach(c);
  return 0;
}

int mysqldrv_disconnect(db_conn *con)
{
  mysqldrv_conn *c = con->ptr;

  if (c == NULL)
    return 0;
  close_handle(c);
  free(c);
  con->ptr = NULL;
  return 0;
}

/* Close the handle (statements prepared on it become invalid and are re-prepared by db.c
   through the connection's generation) and connect again: to the connection's server, or
   after the server dropped it, where the layered driver says. The connection's error fields
   are left alone: they describe the error that caused this. */
int mysqldrv_reconnect(db_conn *con)
{
  mysqldrv_conn *c = con->ptr;
  char why[600];

  if (c == NULL)
    return mysqldrv_connect(con);
  if (mysqldrv_config.dry_run)
    return 0;
  if (c->lost && mysqldrv_active_hooks.reconnect_endpoint != NULL)
    mysqldrv_active_hooks.reconnect_endpoint(&c->endpoint, c->reconnect_attempt++);
  close_handle(c);
  c->mysql = open_handle(&c->endpoint, why, sizeof(why));
  if (c->mysql == NULL) {
    char where[300];
    mysqldrv_describe_endpoint(&c->endpoint, where, sizeof(where));
    log_text(LOG_DEBUG, "Reconnect failed: %s", why);
    /* for the report of an outage: which server, and why */
    db_set_connect_error(con, "unable to connect to MySQL server on %s: %s", where, why);
    return -1;
  }
  c->lost = false;
  mysqldrv_wire_attach(c);
  mysqldrv_stream_attach(c);
  return 0;
}
