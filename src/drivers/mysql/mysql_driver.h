/*
 * mysql_driver.h: the MySQL driver as a driver layered on it (TiDB) sees it: its operations
 * table and start-up, and the parts it may use or change -- the parsed --mysql-* settings,
 * the servers, the error rules, the hooks, the connection state, queries and statements.
 * The driver's own files include only the headers of the parts they use.
 */
#ifndef SB_MYSQL_DRIVER_H
#define SB_MYSQL_DRIVER_H

#include "db.h"
#include "drivers/mysql/classify.h"
#include "drivers/mysql/connection.h"
#include "drivers/mysql/endpoints.h"
#include "drivers/mysql/hooks.h"
#include "drivers/mysql/settings.h"
#include "drivers/mysql/query.h"
#include "drivers/mysql/state.h"
#include "drivers/mysql/statement.h"

/* The MySQL driver's operations, for a layered driver to wrap. */
extern const db_driver_ops mysqldrv_ops;

/* Driver start-up with a layered driver's defaults (mysql itself passes NULL). */
int mysqldrv_init_with(const mysqldrv_defaults *defaults);

#endif
