/*
 * settings.c: the --mysql-* options (1.0.20's, plus master's TLS and compression options) and
 * their parsing into mysqldrv_config, once, when the driver starts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db.h"
#include "drivers/mysql/settings.h"
#include "logger.h"

mysqldrv_settings mysqldrv_config;

static const char *const ssl_modes[] = {
  "disabled", "preferred", "required", "verify_ca", "verify_identity",
  "off", "false", "0", "on", "true", "1", "",   /* 1.0.20's boolean spellings; "": bare */
  NULL
};
static const char *const all_errors[] = {"all", NULL};

/* Checked by the option registry before anything runs (1.0.20 takes any value and fails in
   every thread later: --mysql-port=abc connects to port 0). */
const option_decl mysqldrv_args[] = {
  {.name = "mysql-host", .desc = "MySQL server host", .default_text = "localhost", .type = SB_ARG_TYPE_LIST},
  {.name = "mysql-port", .desc = "MySQL server port", .default_text = "3306",
   .type = SB_ARG_TYPE_LIST, .ranged = true, .min = 1, .max = 65535,
   .expect = "port numbers 1 to 65535, separated by commas"},
  {.name = "mysql-socket", .desc = "MySQL socket", .type = SB_ARG_TYPE_LIST},
  {.name = "mysql-user", .desc = "MySQL user", .default_text = "sbtest", .type = SB_ARG_TYPE_STRING},
  {.name = "mysql-password", .desc = "MySQL password", .default_text = "", .type = SB_ARG_TYPE_STRING},
  {.name = "mysql-db", .desc = "MySQL database name", .default_text = "sbtest", .type = SB_ARG_TYPE_STRING},
  {.name = "mysql-ssl", .desc = "SSL mode {disabled, preferred, required, verify_ca, verify_identity}, or "
   "1.0's on|off", .default_text = "disabled", .type = SB_ARG_TYPE_STRING,
   .choices = ssl_modes, .any_case = true,
   .expect = "disabled, preferred, required, verify_ca, verify_identity, or on|off",
   .compat_help = {SB_ARG_TYPE_BOOL, "use SSL connections, if available in the client library",
                   "off"}},
  {.name = "mysql-ssl-key", .desc = "path name of the client private key file", .type = SB_ARG_TYPE_STRING, .added = true},
  {.name = "mysql-ssl-ca", .desc = "path name of the CA file", .type = SB_ARG_TYPE_STRING, .added = true},
  {.name = "mysql-ssl-cert", .desc = "path name of the client public key certificate file", .type = SB_ARG_TYPE_STRING, .added = true},
  {.name = "mysql-ssl-cipher", .desc = "use specific cipher for SSL connections", .default_text = "", .type = SB_ARG_TYPE_STRING},
  {.name = "mysql-compression", .desc = "use compression, if available in the client library", .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = "mysql-compression-algorithms", .desc = "compression algorithms to use", .default_text = "zlib", .type = SB_ARG_TYPE_STRING, .added = true},
  {.name = "mysql-debug", .desc = "trace all client library calls", .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = "mysql-ignore-errors", .desc = "list of errors to ignore, or \"all\"",
   .default_text = "1213,1020,1205", .type = SB_ARG_TYPE_LIST, .ranged = true, .min = 0,
   .max = 65535, .choices = all_errors, .any_case = true,
   .expect = "error numbers separated by commas, or \"all\""},
  {.name = "mysql-dry-run", .desc = "Dry run, pretend that all MySQL client API calls are successful without "
   "executing them", .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = NULL}
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

static const char *non_empty(const char *value)
{
  return value != NULL && *value != '\0' ? value : NULL;
}
/* The option's text, NULL when empty. A macro, so that opt_string() sees the literal name
   (options.h records it). */
#define optional_string(name) non_empty(opt_string(name))

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
  size_t n;
  const char *const *items = opt_list("mysql-ignore-errors", &n);
  const char *bad = error_codes_parse(&mysqldrv_config.ignored, ERROR_CODES_NUMBERS, true,
                                      items, n);
  if (bad != NULL && *bad != '\0')
    log_text(LOG_FATAL, "Invalid value for --mysql-ignore-errors: '%s' (expected error "
             "numbers separated by commas, or \"all\")", bad);
  return bad == NULL ? 0 : -1;
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
  error_codes_free(&mysqldrv_config.ignored);
  memset(&mysqldrv_config, 0, sizeof(mysqldrv_config));
}
