/*
 * settings.h: the --mysql-* options and the settings parsed from them once, when the driver
 * starts (settings.c). Every other file of the driver reads its settings here, never the
 * command line.
 *
 * Every exported name of the driver starts with "mysqldrv_": the binary exports its symbols
 * to LuaJIT, and the client library already owns the "mysql_" prefix.
 */
#ifndef SB_MYSQL_SETTINGS_H
#define SB_MYSQL_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "drivers/error_codes.h"
#include "logger.h"
#include "options.h"

/* --mysql-ssl, as master's ssl-mode; 1.0.20's "on" is MYSQL_SSL_LEGACY_ON. */
typedef enum {
  MYSQL_SSL_DISABLED,
  MYSQL_SSL_PREFERRED,
  MYSQL_SSL_REQUIRED,
  MYSQL_SSL_VERIFY_CA,
  MYSQL_SSL_VERIFY_IDENTITY,
  MYSQL_SSL_LEGACY_ON          /* required, with ./client-key.pem, ./client-cert.pem, ./cacert.pem */
} mysqldrv_ssl_mode;

typedef struct {
  const char *const *hosts;    /* --mysql-host (at least one) */
  size_t host_count;
  unsigned *ports;             /* --mysql-port (at least one) */
  size_t port_count;
  const char *const *sockets;  /* --mysql-socket: when given, used instead of host/port */
  size_t socket_count;
  const char *user;
  const char *password;        /* never printed */
  const char *db;
  mysqldrv_ssl_mode ssl_mode;
  const char *ssl_key;         /* NULL when not given */
  const char *ssl_cert;
  const char *ssl_ca;
  const char *ssl_cipher;      /* NULL when empty */
  bool compression;
  const char *compression_algorithms;
  bool debug;                  /* --mysql-debug: log client library calls */
  error_code_list ignored;     /* --mysql-ignore-errors (numbers, or "all") */
  bool dry_run;
  bool use_ps;                 /* server-side prepared statements (not --db-ps-mode=disable) */
} mysqldrv_settings;

/* Defaults a layered driver substitutes for options the user did not give. */
typedef struct {
  unsigned port;               /* 0: keep --mysql-port's default (3306) */
  const char *user;            /* NULL: keep --mysql-user's default (sbtest) */
} mysqldrv_defaults;

extern mysqldrv_settings mysqldrv_config;
extern const option_decl mysqldrv_args[];

/* Parse the --mysql-* options into mysqldrv_config; logs what is wrong and returns -1. */
int mysqldrv_settings_load(const mysqldrv_defaults *defaults);
void mysqldrv_settings_free(void);

/* --mysql-debug: log a client library call. */
#define MYSQLDRV_TRACE(...)                        \
  do {                                             \
    if (__builtin_expect(mysqldrv_config.debug, 0)) \
      log_text(LOG_DEBUG, __VA_ARGS__);            \
  } while (0)

#endif
