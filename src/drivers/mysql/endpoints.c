/*
 * endpoints.c: which server each new connection goes to. Connections take the host x port
 * pairs in turn, ports varying fastest (1.0.20's order), or the sockets in turn when
 * --mysql-socket is given (the host is then "localhost", as in 1.0.20).
 */
#include <stdio.h>

#include "drivers/mysql/endpoints.h"
#include "drivers/mysql/settings.h"

static unsigned next_position;

unsigned mysqldrv_endpoint_count(void)
{
  const mysqldrv_settings *c = &mysqldrv_config;
  if (c->socket_count > 0)
    return (unsigned) c->socket_count;
  return (unsigned) (c->host_count * c->port_count);
}

void mysqldrv_next_endpoint(mysqldrv_endpoint *out)
{
  const mysqldrv_settings *c = &mysqldrv_config;
  unsigned count = mysqldrv_endpoint_count();
  unsigned position = __atomic_fetch_add(&next_position, 1, __ATOMIC_RELAXED) % count;

  out->index = position;
  if (c->socket_count > 0) {
    out->host = "localhost";
    out->port = 0;
    out->socket = c->sockets[position];
  } else {
    out->host = c->hosts[position / c->port_count];
    out->port = c->ports[position % c->port_count];
    out->socket = NULL;
  }
}

void mysqldrv_describe_endpoint(const mysqldrv_endpoint *ep, char *buf, size_t len)
{
  if (ep->socket != NULL)
    snprintf(buf, len, "socket '%s'", ep->socket);
  else
    snprintf(buf, len, "host '%s', port %u", ep->host, ep->port);
}
