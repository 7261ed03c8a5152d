/*
 * hooks.h: what a driver layered on this one (TiDB) may change without copying it: how
 * errors are classified, what happens when one occurs, which server a connection goes to
 * and what runs after it is made. Set once, in the layered driver's init, before any
 * connection (hooks.c).
 */
#ifndef SB_MYSQL_HOOKS_H
#define SB_MYSQL_HOOKS_H

#include <stddef.h>

#include <mysql.h>

#include "db.h"
#include "drivers/driver_error.h"
#include "drivers/mysql/endpoints.h"

typedef struct {
  /* Reclassify an error; `chosen` is what --mysql-ignore-errors decided. No side effects:
     the rules are asked more than once about some errors. */
  driver_error_class (*classify)(unsigned sql_errno, const char *sql_state,
                                 driver_error_class chosen);
  /* A call on `con` failed with `sql_errno`, classified `cls` (once per failure, before the
     connection's error is set and any message is logged). May sleep to back off. */
  void (*failed)(db_conn *con, unsigned sql_errno, driver_error_class cls);
  /* Bytes of the layered driver's own state in each connection (mysqldrv_layer_state),
     zeroed when the connection is made. */
  size_t connection_state_size;
  /* Where reconnect attempt `attempt` (0, 1, ...) of a lost connection goes; NULL keeps the
     connection's server. May sleep to back off. (Not called when the script reconnects.) */
  void (*reconnect_endpoint)(mysqldrv_endpoint *ep, unsigned attempt);
  /* Called after every successful (re)connect, after the session statements. Non-zero
     fails the connection (the hook sets nothing; the message is the hook's to log). */
  int (*after_connect)(MYSQL *mysql, const mysqldrv_endpoint *ep);
  /* The server a new connection goes to; NULL: the next in the rotation. */
  void (*choose_endpoint)(mysqldrv_endpoint *ep);
  /* A new connection to `ep` could not be made (why: the reason, without the password). */
  void (*connect_failed)(const mysqldrv_endpoint *ep, const char *why);
} mysqldrv_hooks;

void mysqldrv_set_hooks(const mysqldrv_hooks *hooks);
extern mysqldrv_hooks mysqldrv_active_hooks;

#endif
