/*
 * tidb_servers.c: the TiDB servers of a run. Connections go to the servers in turn; a server
 * that refused or dropped one is skipped for a back-off period while the others keep working.
 * Counts connections and queries per server (queries in per-thread rows, so counting adds no
 * shared write per query) and errors per code, for the report after the run.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "logger.h"
#include "tidb_driver.h"

#define SKIP_MIN_NS (100 * NS_PER_MS)
#define SKIP_MAX_NS (10 * NS_PER_SEC)

typedef struct {
  uint64_t skip_until_ns;        /* not chosen before this time */
  uint64_t skip_ns;              /* current back-off */
  uint64_t connections;
  uint64_t failures;
  bool warned;
} server_state;

static server_state *servers;
static pthread_mutex_t servers_mutex = PTHREAD_MUTEX_INITIALIZER;

uint64_t *tidb_query_counts;
unsigned tidb_server_count;
unsigned tidb_thread_slots;

#define MAX_CODES 64
static struct {
  unsigned code;
  uint64_t count;
} error_counts[MAX_CODES];
static unsigned error_code_count;
static pthread_mutex_t errors_mutex = PTHREAD_MUTEX_INITIALIZER;

int tidb_servers_init(unsigned count, unsigned threads)
{
  tidb_server_count = count > 0 ? count : 1;
  tidb_thread_slots = threads + 1;
  servers = calloc(tidb_server_count, sizeof(server_state));
  tidb_query_counts = calloc((size_t) tidb_thread_slots * tidb_server_count, sizeof(uint64_t));
  return servers != NULL && tidb_query_counts != NULL ? 0 : -1;
}

void tidb_servers_free(void)
{
  free(servers);
  free(tidb_query_counts);
  servers = NULL;
  tidb_query_counts = NULL;
  error_code_count = 0;
}

/* Skip the server for the next, doubled, back-off period; count a failed connect or not. */
static void back_off_server(unsigned index, bool failed_connect)
{
  if (servers == NULL || index >= tidb_server_count)
    return;
  pthread_mutex_lock(&servers_mutex);
  server_state *s = &servers[index];
  if (failed_connect)
    s->failures++;
  s->skip_ns = s->skip_ns == 0 ? SKIP_MIN_NS : s->skip_ns * 2;
  if (s->skip_ns > SKIP_MAX_NS)
    s->skip_ns = SKIP_MAX_NS;
  s->skip_until_ns = clock_now_ns() + s->skip_ns;
  pthread_mutex_unlock(&servers_mutex);
}

void tidb_server_failed(unsigned index)
{
  back_off_server(index, true);
}

void tidb_server_dropped(unsigned index)
{
  back_off_server(index, false);
}

void tidb_server_ok(unsigned index)
{
  if (servers == NULL || index >= tidb_server_count)
    return;
  pthread_mutex_lock(&servers_mutex);
  servers[index].skip_ns = 0;
  servers[index].skip_until_ns = 0;
  pthread_mutex_unlock(&servers_mutex);
}

bool tidb_server_usable(unsigned index)
{
  if (servers == NULL || index >= tidb_server_count)
    return true;
  return __atomic_load_n(&servers[index].skip_until_ns, __ATOMIC_RELAXED) <= clock_now_ns();
}

void tidb_choose_endpoint(mysqldrv_endpoint *ep)
{
  mysqldrv_endpoint first;
  mysqldrv_next_endpoint(&first);
  *ep = first;
  for (unsigned tried = 1; tried < tidb_server_count && !tidb_server_usable(ep->index); tried++)
    mysqldrv_next_endpoint(ep);
  if (!tidb_server_usable(ep->index))
    *ep = first;               /* all being skipped: try the one whose turn it was */
}

void tidb_count_connection(unsigned index)
{
  if (servers != NULL && index < tidb_server_count)
    __atomic_add_fetch(&servers[index].connections, 1, __ATOMIC_RELAXED);
}

void tidb_count_error(unsigned sql_errno)
{
  pthread_mutex_lock(&errors_mutex);
  unsigned i = 0;
  while (i < error_code_count && error_counts[i].code != sql_errno)
    i++;
  if (i == error_code_count && error_code_count < MAX_CODES)
    error_counts[error_code_count++].code = sql_errno;
  if (i < MAX_CODES)
    error_counts[i].count++;
  pthread_mutex_unlock(&errors_mutex);
}

void tidb_report(const sb_stat_t *stat)
{
  char where[300];

  (void) stat;
  if (servers == NULL)
    return;
  log_text(LOG_NOTICE, "TiDB servers:");
  for (unsigned i = 0; i < tidb_server_count; i++) {
    uint64_t queries = 0;
    for (unsigned t = 0; t < tidb_thread_slots - 1; t++)
      queries += __atomic_load_n(&tidb_query_counts[(size_t) t * tidb_server_count + i],
                                 __ATOMIC_RELAXED);
    mysqldrv_endpoint ep = {0};
    const mysqldrv_settings *c = &mysqldrv_config;
    ep.index = i;
    if (c->socket_count > 0) {
      ep.host = "localhost";
      ep.socket = c->sockets[i % c->socket_count];
    } else if (c->host_count > 0 && c->port_count > 0) {
      ep.host = c->hosts[(i / c->port_count) % c->host_count];
      ep.port = c->ports[i % c->port_count];
    }
    mysqldrv_describe_endpoint(&ep, where, sizeof(where));
    log_text(LOG_NOTICE, "    %-36s connections: %-8" PRIu64 " queries: %-12" PRIu64
             " failed connects: %" PRIu64, where, servers[i].connections, queries,
             servers[i].failures);
  }
  if (error_code_count > 0) {
    log_text(LOG_NOTICE, "TiDB errors by code:");
    for (unsigned i = 0; i < error_code_count; i++) {
      const char *name = tidb_error_name(error_counts[i].code);
      log_text(LOG_NOTICE, "    %-6u %-44s %" PRIu64, error_counts[i].code,
               name != NULL ? name : "", error_counts[i].count);
    }
  }
  log_text(LOG_NOTICE, "%s", "");
}
