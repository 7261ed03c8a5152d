/*
 * tidb_driver.h: what the files of the TiDB driver share: its settings (--tidb-* options),
 * the per-server bookkeeping (which servers are up, connections and queries per server) and
 * the per-error-code counters behind the report it adds after a run.
 */
#ifndef SB_TIDB_DRIVER_H
#define SB_TIDB_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "db.h"
#include "drivers/error_codes.h"
#include "drivers/mysql/mysql_driver.h"
#include "tidb_rules.h"

typedef struct {
  tidb_error_rules rules;        /* --tidb-retry-errors, --tidb-transient-errors */
  error_code_list restart_codes;
  error_code_list transient_codes;
  unsigned backoff_max_ms;       /* --tidb-backoff-max */
  char **session;                /* SET SESSION statements of every (re)connect */
  int session_count;
} tidb_settings;

extern tidb_settings tidb_config;
extern const option_decl tidb_args[];

int tidb_settings_load(void);
void tidb_settings_free(void);

/* ---- servers (tidb_servers.c) ---- */

/* Allocate the bookkeeping for `servers` endpoints and `threads` + 1 thread slots. */
int tidb_servers_init(unsigned servers, unsigned threads);
void tidb_servers_free(void);

/* A server that refused or dropped a connection is skipped for a while (back-off doubling
   from 100 ms to 10 s per consecutive failure); a success clears that. */
void tidb_server_failed(unsigned index);
/* The same back-off for a server that dropped a connection (KILL, restart, network), without
   counting a failed connect: the report's "failed connects" are connection attempts only. */
void tidb_server_dropped(unsigned index);
void tidb_server_ok(unsigned index);
bool tidb_server_usable(unsigned index);

/* The next endpoint in the rotation that is not being skipped (every one when all are). */
void tidb_choose_endpoint(mysqldrv_endpoint *ep);

/* Counters: connections per server (any thread), queries per server (owning thread only). */
void tidb_count_connection(unsigned index);
static inline void tidb_count_query(int thread_id, unsigned index);
void tidb_count_error(unsigned sql_errno);

void tidb_report(const sb_stat_t *stat);

/* Per-thread query counters: row `thread_id`, column `server`; only the owner writes. */
extern uint64_t *tidb_query_counts;
extern unsigned tidb_server_count;
extern unsigned tidb_thread_slots;

static inline void tidb_count_query(int thread_id, unsigned index)
{
  unsigned row = (unsigned) thread_id < tidb_thread_slots ? (unsigned) thread_id
                                                          : tidb_thread_slots - 1;
  uint64_t *slot = &tidb_query_counts[(size_t) row * tidb_server_count + index];
  __atomic_store_n(slot, *slot + 1, __ATOMIC_RELAXED);
}

#endif
