/*
 * rdb_auto_id.c: ids for INSERTs with id 0 into an auto-increment table, as a server's
 * AUTO_INCREMENT gives them: one counter per table, shared by every connection, started
 * from the highest id in the table.
 */
#include <pthread.h>
#include <string.h>

#include "rdb_auto_id.h"

#define AUTO_INC_SLOTS 4096

static struct {
  pthread_mutex_t mutex;
  int64_t next[AUTO_INC_SLOTS];        /* 0 = not read from the database yet */
} auto_inc = { PTHREAD_MUTEX_INITIALIZER, {0} };

/* The highest id in the table + 1 (1 for an empty table). */
static int64_t first_free_id(rdb_session *s, uint32_t table)
{
  char end[6], start[RDB_PRIMARY_KEY_LEN];
  rdb_index_end(end, table, 'p');
  rdb_primary_key(start, table, INT64_MIN);
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_iterator_t *it = rdb.txn_db != NULL ? rocksdb_transactiondb_create_iterator(rdb.txn_db,
                                                                                      ro)
                                              : rocksdb_create_iterator(rdb.db, ro);
  int64_t next = 1;
  (void) s;
  rocksdb_iter_seek_for_prev(it, end, sizeof(end));
  if (rocksdb_iter_valid(it)) {
    size_t kl;
    const char *k = rocksdb_iter_key(it, &kl);
    if (kl == RDB_PRIMARY_KEY_LEN && memcmp(k, start, 6) == 0)
      next = rdb_get_i64(k + 6) + 1;
  }
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_destroy(ro);
  return next > 0 ? next : 1;
}

int64_t rdb_next_auto_id(rdb_session *s, uint32_t table)
{
  uint32_t slot = table % AUTO_INC_SLOTS;
  int64_t *counter = &auto_inc.next[slot];

  if (__atomic_load_n(counter, __ATOMIC_ACQUIRE) == 0) {
    pthread_mutex_lock(&auto_inc.mutex);
    if (*counter == 0)
      __atomic_store_n(counter, first_free_id(s, table), __ATOMIC_RELEASE);
    pthread_mutex_unlock(&auto_inc.mutex);
  }
  return __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}
