/*
 * rdb_row.h: the value of an sbtest row in the primary index (k, c and pad; the id is the
 * key), and the hash of a row that a load records and `check` compares (rdb_row.c).
 */
#ifndef SB_RDB_ROW_H
#define SB_RDB_ROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Row value: k:i64 (native order), c_len:u16, c, pad_len:u16, pad. */
typedef struct {
  int64_t k;
  const char *c;
  uint16_t c_len;
  const char *pad;
  uint16_t pad_len;
} rdb_row;

size_t rdb_row_encode(char *out, int64_t k, const char *c, size_t c_len, const char *pad,
                      size_t pad_len);
bool rdb_row_decode(const char *v, size_t len, rdb_row *row);

/* A 64-bit hash of a stored row (key and value). */
uint64_t rdb_row_hash(const char *key, size_t klen, const char *value, size_t vlen);

#endif
