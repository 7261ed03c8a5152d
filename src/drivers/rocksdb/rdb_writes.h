/*
 * rdb_writes.h: the workloads' writes in key-value form (rdb_writes.c).
 */
#ifndef SB_RDB_WRITES_H
#define SB_RDB_WRITES_H

#include "db.h"
#include "rdb.h"
#include "rdb_stmt.h"

/* UPDATE sbtestN SET k=k+1 WHERE id=? */
driver_error_class rdb_index_update(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                    db_result *rs);
/* UPDATE sbtestN SET c=? WHERE id=? */
driver_error_class rdb_non_index_update(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                        db_result *rs);
/* DELETE FROM sbtestN WHERE id=? */
driver_error_class rdb_delete_row(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                  db_result *rs);
/* INSERT INTO sbtestN (id, k, c, pad) VALUES (?, ?, ?, ?) */
driver_error_class rdb_insert_row(rdb_session *s, rdb_stmt *st, const db_stmt *stmt,
                                  db_result *rs);

#endif
