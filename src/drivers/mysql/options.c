/*
 * options.c: the --mysql-* options (1.0.20's, plus master's TLS and compression options) and
 * their parsing into mysqldrv_config, once, when the driver starts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "logger.h"
#include "mysql_driver.h"

mysqldrv_settings mysqldrv_config;

const sb_arg_t mysqldrv_args[] = {
  {"mysql-host", "MySQL server host", "localhost", SB_ARG_TYPE_LIST, NULL},
  {"mysql-port", "MySQL server port", "3306", SB_ARG_TYPE_LIST, NULL},
  {"mysql-socket", "MySQL socket", NULL, SB_ARG_TYPE_LIST, NULL},
  {"mysql-user", "MySQL user", "sbtest", SB_ARG_TYPE_STRING, NULL},
  {"mysql-password", "MySQL password", "", SB_ARG_TYPE_STRING, NULL},
  {"mysql-db", "MySQL database name", "sbtest", SB_ARG_TYPE_STRING, NULL},
  {"mysql-ssl", "SSL mode {disabled, preferred, required, verify_ca, verify_identity}, or "
   "1.0's on|off", "disabled", SB_ARG_TYPE_STRING, NULL},
  {"mysql-ssl-key", "path name of the client private key file", NULL, SB_ARG_TYPE_STRING, NULL},
  {"mysql-ssl-ca", "path name of the CA file", NULL, SB_ARG_TYPE_STRING, NULL},
  {"mysql-ssl-cert", "path name of the client public key certificate file", NULL,
   SB_ARG_TYPE_STRING, NULL},
  {"mysql-ssl-cipher", "use specific cipher for SSL connections", "", SB_ARG_TYPE_STRING, NULL},
  {"mysql-compression", "use compression, if available in the client library", "off",
   SB_ARG_TYPE_BOOL, NULL},
  {"mysql-compression-algorithms", "compression algorithms to use", "zlib", SB_ARG_TYPE_STRING,
   NULL},
  {"mysql-debug", "trace all client library calls", "off", SB_ARG_TYPE_BOOL, NULL},
  {"mysql-ignore-errors", "list of errors to ignore, or \"all\"", "1213,1020,1205",
   SB_ARG_TYPE_LIST, NULL},
  {"mysql-dry-run", "Dry run, pretend that all MySQL client API calls are successful without "
   "executing them", "off", SB_ARG_TYPE_BOOL, NULL},
  {NULL, NULL, NULL, SB_ARG_TYPE_NULL, NULL}
};

static const struct {
  const char *name;
  mysqldrv_ssl_mode mode;
} ssl_mode_names[] = {
  {"disabled", MYSQL_SSL_DISABLED},
  {"preferred", MYSQL_SSL_PREFERRED},
  {"required", MYSQL_SSL_REQUIRED},
  {"verify_ca", MYSQL_SSL_VERIFY_CA},
  {"verify_identity", MYSQL_SSL_VERIFY_IDENTITY},
  /* 1.0.20's boolean spellings (a bare --mysql-ssl is "on") */
  {"off", MYSQL_SSL_DISABLED},
  {"false", MYSQL_SSL_DISABLED},
  {"0", MYSQL_SSL_DISABLED},
  {"on", MYSQL_SSL_LEGACY_ON},
  {"true", MYSQL_SSL_LEGACY_ON},
  {"1", MYSQL_SSL_LEGACY_ON},
  {"", MYSQL_SSL_LEGACY_ON},
};

/* A non-negative decimal number that fits `max`, or -1. */
static long parse_number(const char *text, long max)
{
  char *end;
  errno = 0;
  long n = strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || n < 0 || n > max)
    return -1;
  return n;
}

static const char *optional_string(const char *name)
{
  const char *value = opt_string(name);
  return value != NULL && *value != '\0' ? value : NULL;
}

static int load_ports(const mysqldrv_defaults *defaults)
{
  mysqldrv_settings *c = &mysqldrv_config;
  size_t n;
  const char *const *items = opt_list("mysql-port", &n);

  if (defaults != NULL && defaults->port != 0 && !opt_is_set("mysql-port")) {
    c->ports = malloc(sizeof(unsigned));
    if (c->ports == NULL)
      return -1;
    c->ports[0] = defaults->port;
    c->port_count = 1;
    return 0;
  }
  if (n == 0) {
    log_text(LOG_FATAL, "No MySQL ports specified, aborting");
    return -1;
  }
  c->ports = calloc(n, sizeof(unsigned));
  if (c->ports == NULL)
    return -1;
  for (size_t i = 0; i < n; i++) {
    long port = parse_number(items[i], 65535);
    if (port <= 0) {
      log_text(LOG_FATAL, "Invalid value for --mysql-port: '%s' (expected port numbers "
               "1-65535, separated by commas)", items[i]);
      return -1;
    }
    c->ports[i] = (unsigned) port;
  }
  c->port_count = n;
  return 0;
}

static int load_ignored_errors(void)
{
  mysqldrv_settings *c = &mysqldrv_config;
  size_t n;
  const char *const *items = opt_list("mysql-ignore-errors", &n);

  c->ignored_errors = calloc(n ? n : 1, sizeof(unsigned));
  if (c->ignored_errors == NULL)
    return -1;
  for (size_t i = 0; i < n; i++) {
    if (strcasecmp(items[i], "all") == 0) {
      c->ignore_all = true;
      continue;
    }
    long code = parse_number(items[i], 65535);
    if (code < 0) {
      log_text(LOG_FATAL, "Invalid value for --mysql-ignore-errors: '%s' (expected error "
               "numbers separated by commas, or \"all\")", items[i]);
      return -1;
    }
    c->ignored_errors[c->ignored_count++] = (unsigned) code;
  }
  return 0;
}

static int load_ssl(void)
{
  mysqldrv_settings *c = &mysqldrv_config;
  const char *mode = opt_string("mysql-ssl");
  bool found = false;

  for (size_t i = 0; i < sizeof(ssl_mode_names) / sizeof(ssl_mode_names[0]); i++) {
    if (strcasecmp(mode != NULL ? mode : "", ssl_mode_names[i].name) == 0) {
      c->ssl_mode = ssl_mode_names[i].mode;
      found = true;
      break;
    }
  }
  if (!found) {
    log_text(LOG_FATAL, "Invalid value for --mysql-ssl: '%s' (expected disabled, preferred, "
             "required, verify_ca, verify_identity, or on|off)", mode);
    return -1;
  }
  c->ssl_key = optional_string("mysql-ssl-key");
  c->ssl_cert = optional_string("mysql-ssl-cert");
  c->ssl_ca = optional_string("mysql-ssl-ca");
  c->ssl_cipher = optional_string("mysql-ssl-cipher");
  if (c->ssl_mode == MYSQL_SSL_LEGACY_ON) {
    /* 1.0.20's --mysql-ssl=on: fixed file names in the current directory */
    if (c->ssl_key == NULL)
      c->ssl_key = "client-key.pem";
    if (c->ssl_cert == NULL)
      c->ssl_cert = "client-cert.pem";
    if (c->ssl_ca == NULL)
      c->ssl_ca = "cacert.pem";
  }
  if ((c->ssl_mode == MYSQL_SSL_VERIFY_CA || c->ssl_mode == MYSQL_SSL_VERIFY_IDENTITY) &&
      c->ssl_ca == NULL) {
    log_text(LOG_FATAL, "--mysql-ssl=%s needs the CA that signed the server's certificate: "
             "give it with --mysql-ssl-ca=FILE", mode);
    return -1;
  }
  return 0;
}

static int load_compression(void)
{
  mysqldrv_settings *c = &mysqldrv_config;

  c->compression = opt_bool("mysql-compression");
  c->compression_algorithms = optional_string("mysql-compression-algorithms");
#ifndef HAVE_MYSQL_OPT_COMPRESSION_ALGORITHMS
  /* MariaDB Connector/C speaks only the protocol's original zlib compression. */
  if (c->compression && c->compression_algorithms != NULL &&
      strcmp(c->compression_algorithms, "zlib") != 0) {
    log_text(LOG_FATAL, "--mysql-compression-algorithms=%s: this client library supports "
             "only zlib", c->compression_algorithms);
    return -1;
  }
#endif
  return 0;
}

int mysqldrv_settings_load(const mysqldrv_defaults *defaults)
{
  mysqldrv_settings *c = &mysqldrv_config;

  mysqldrv_settings_free();
  c->hosts = opt_list("mysql-host", &c->host_count);
  if (c->host_count == 0) {
    log_text(LOG_FATAL, "No MySQL hosts specified, aborting");
    return -1;
  }
  if (load_ports(defaults) != 0)
    return -1;
  c->sockets = opt_list("mysql-socket", &c->socket_count);
  c->user = opt_string("mysql-user");
  if (defaults != NULL && defaults->user != NULL && !opt_is_set("mysql-user"))
    c->user = defaults->user;
  c->password = opt_string("mysql-password");
  c->db = opt_string("mysql-db");
  c->debug = opt_bool("mysql-debug");
  c->dry_run = opt_bool("mysql-dry-run");
  c->use_ps = !db_ps_disabled();
  if (load_ssl() != 0 || load_compression() != 0 || load_ignored_errors() != 0)
    return -1;
  if (c->debug && log_verbosity() < LOG_DEBUG)
    log_set_verbosity(LOG_DEBUG);
  return 0;
}

void mysqldrv_settings_free(void)
{
  free(mysqldrv_config.ports);
  free(mysqldrv_config.ignored_errors);
  memset(&mysqldrv_config, 0, sizeof(mysqldrv_config));
}
