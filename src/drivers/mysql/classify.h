/*
 * classify.h: what a server or client-library error means for the run (classify.c): the
 * rules of --mysql-ignore-errors, then the layered driver's. No I/O.
 */
#ifndef SB_MYSQL_CLASSIFY_H
#define SB_MYSQL_CLASSIFY_H

#include <stdbool.h>

#include "drivers/driver_error.h"

/* 2006, 2013, 2011, 2055: the connection is gone. */
bool mysqldrv_is_connection_loss(unsigned sql_errno);

/* --mysql-ignore-errors rules (a listed error is ignored, or reconnected when it is a lost
   connection; any other is fatal), then the layered driver's classify hook if any. */
driver_error_class mysqldrv_classify_error(unsigned sql_errno, const char *sql_state);

#endif
