/*
 * rdb_auto_id.h: ids for auto-increment INSERTs (rdb_auto_id.c).
 */
#ifndef SB_RDB_AUTO_ID_H
#define SB_RDB_AUTO_ID_H

#include <stdint.h>

#include "rdb.h"

/* Next id for an auto-increment insert into `table` (id 0 in the INSERT). Thread-safe. */
int64_t rdb_next_auto_id(rdb_session *s, uint32_t table);

#endif
