/*
 * endpoints.c: which server each new connection goes to. Connections take the host x port
 * pairs in turn, ports varying fastest (the mysql driver's order): --pgsql-host=a,b
 * --pgsql-port=5432,5433 gives a:5432, a:5433, b:5432, b:5433, a:5432 ...
 */
#include "drivers/pgsql/endpoints.h"
#include "drivers/pgsql/settings.h"

static unsigned next_position;

unsigned pgsqldrv_endpoint_count(void)
{
  const pgsqldrv_settings *c = &pgsqldrv_config;
  return (unsigned) (c->host_count * c->port_count);
}

void pgsqldrv_next_endpoint(pgsqldrv_endpoint *out)
{
  const pgsqldrv_settings *c = &pgsqldrv_config;
  unsigned position = __atomic_fetch_add(&next_position, 1, __ATOMIC_RELAXED) %
                      pgsqldrv_endpoint_count();

  out->index = position;
  out->host = c->hosts[position / c->port_count];
  out->port = c->ports[position % c->port_count];
}
