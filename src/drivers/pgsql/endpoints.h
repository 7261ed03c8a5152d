/*
 * endpoints.h: which server each new connection goes to (endpoints.c): the host x port
 * pairs in turn.
 */
#ifndef SB_PGSQL_ENDPOINTS_H
#define SB_PGSQL_ENDPOINTS_H

typedef struct {
  const char *host;            /* a host name, an address, or a Unix socket directory */
  const char *port;
  unsigned index;              /* position in the host x port rotation */
} pgsqldrv_endpoint;

/* The next server in the rotation: ports vary fastest, then hosts (the mysql driver's
   order). Thread-safe. */
void pgsqldrv_next_endpoint(pgsqldrv_endpoint *out);
unsigned pgsqldrv_endpoint_count(void);

#endif
