/*
 * endpoints.h: which server each new connection goes to (endpoints.c): the host x port
 * pairs, or the sockets, in turn.
 */
#ifndef SB_MYSQL_ENDPOINTS_H
#define SB_MYSQL_ENDPOINTS_H

#include <stddef.h>

typedef struct {
  const char *host;            /* "localhost" for sockets, as 1.0.20 */
  unsigned port;               /* 0 for sockets */
  const char *socket;          /* NULL for TCP */
  unsigned index;              /* position in the host x port (or socket) rotation */
} mysqldrv_endpoint;

/* The next server in the rotation: ports vary fastest, then hosts (1.0.20's order), or the
   next socket when --mysql-socket is given. Thread-safe. */
void mysqldrv_next_endpoint(mysqldrv_endpoint *out);
/* Number of distinct endpoints in the rotation. */
unsigned mysqldrv_endpoint_count(void);
/* "host 'h', port p" or "socket 's'", for messages. */
void mysqldrv_describe_endpoint(const mysqldrv_endpoint *ep, char *buf, size_t len);

#endif
