/*
 * stream.h: LOAD DATA LOCAL INFILE fed from memory (stream.c).
 */
#ifndef SB_MYSQL_STREAM_H
#define SB_MYSQL_STREAM_H

#include <stddef.h>

#include <mysql.h>

#include "db.h"
#include "drivers/driver_error.h"
#include "drivers/mysql/state.h"

/* Before connecting: ask for the LOCAL INFILE capability when the loader wants streams. */
void mysqldrv_stream_prepare_options(MYSQL *mysql);
/* After connecting: serve LOCAL INFILE requests from db_stream_in() only. */
void mysqldrv_stream_attach(mysqldrv_conn *c);
driver_error_class mysqldrv_stream_in(db_conn *con, const char *statement, size_t len,
                                      db_stream_fill fill, void *arg, db_result *rs);

#endif
