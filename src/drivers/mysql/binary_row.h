/*
 * binary_row.h: the rows the wire path read, in the binary protocol, as the text a script
 * gets from fetch_row (binary_row.c).
 */
#ifndef SB_MYSQL_BINARY_ROW_H
#define SB_MYSQL_BINARY_ROW_H

#include "db.h"

/* The next row of the wire path's open result: 0, 1 when there is none, -1 when it is
   malformed. */
int mysqldrv_binary_row_fetch(db_result *rs, db_row_t *row);

#endif
