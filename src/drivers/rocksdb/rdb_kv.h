/*
 * rdb_kv.h: the RocksDB driver's generic key-value operations (see rdb_kv.c).
 */
#ifndef SB_RDB_KV_H
#define SB_RDB_KV_H

#include "db.h"

driver_error_class rdb_kv_get(db_conn *con, const char *key, size_t klen, int for_update,
                              db_result *rs);
driver_error_class rdb_kv_multi_get(db_conn *con, size_t n, const char *const *keys,
                                    const size_t *klens, db_result *rs);
driver_error_class rdb_kv_scan(db_conn *con, const char *start, size_t start_len, const char *upper,
                               size_t upper_len, uint32_t limit, db_result *rs);
driver_error_class rdb_kv_put(db_conn *con, const char *key, size_t klen, const char *value,
                              size_t vlen, db_result *rs);
driver_error_class rdb_kv_delete(db_conn *con, const char *key, size_t klen, db_result *rs);
int rdb_kv_batch_put(db_conn *con, const char *key, size_t klen, const char *value, size_t vlen);
int rdb_kv_batch_delete(db_conn *con, const char *key, size_t klen);
driver_error_class rdb_kv_batch_write(db_conn *con, db_result *rs);
void rdb_kv_batch_clear(db_conn *con);

#endif
