/*
 * rdb_params.h: a key-value statement's bound values as numbers or strings (rdb_params.c).
 */
#ifndef SB_RDB_PARAMS_H
#define SB_RDB_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "rdb.h"

/* Parameter i as an integer (0 when missing or NULL). */
int64_t rdb_param_int(const db_stmt *stmt, size_t i);
/* Parameter i as a string ("" when missing, NULL or not a string). */
rdb_slice rdb_param_str(const db_stmt *stmt, size_t i);

#endif
