/*
 * rdb_row.c: the value of an sbtest row in the primary index, and the hash of a row that a
 * load records and `check` compares (see rdb_row.h).
 */
#include <string.h>

#include "rdb_row.h"

size_t rdb_row_encode(char *out, int64_t k, const char *c, size_t c_len, const char *pad,
                      size_t pad_len)
{
  size_t n = 0;
  memcpy(out, &k, 8);
  n += 8;
  out[n++] = (char) (c_len & 0xff);
  out[n++] = (char) (c_len >> 8);
  memcpy(out + n, c, c_len);
  n += c_len;
  out[n++] = (char) (pad_len & 0xff);
  out[n++] = (char) (pad_len >> 8);
  memcpy(out + n, pad, pad_len);
  return n + pad_len;
}

bool rdb_row_decode(const char *v, size_t len, rdb_row *row)
{
  if (len < 12)
    return false;
  memcpy(&row->k, v, 8);
  row->c_len = (uint16_t) ((unsigned char) v[8] | (unsigned char) v[9] << 8);
  if (10 + (size_t) row->c_len + 2 > len)
    return false;
  row->c = v + 10;
  size_t at = 10 + row->c_len;
  row->pad_len = (uint16_t) ((unsigned char) v[at] | (unsigned char) v[at + 1] << 8);
  if (at + 2 + row->pad_len > len)
    return false;
  row->pad = v + at + 2;
  return true;
}

/* A 64-bit hash of a row, 8 bytes per step (multiply-xorshift); only for comparing a load
   with what is read back, so speed matters more than quality beyond "any change shows". */
static inline uint64_t hash_step(uint64_t h, uint64_t word)
{
  h = (h ^ word) * 0x9E3779B97F4A7C15ULL;
  return h ^ (h >> 29);
}

static uint64_t hash_bytes(uint64_t h, const char *p, size_t n)
{
  uint64_t word;
  for (; n >= 8; p += 8, n -= 8) {
    memcpy(&word, p, 8);
    h = hash_step(h, word);
  }
  word = 0;
  memcpy(&word, p, n);
  return hash_step(h, word ^ ((uint64_t) n << 56));
}

uint64_t rdb_row_hash(const char *key, size_t klen, const char *value, size_t vlen)
{
  return hash_bytes(hash_bytes(0x243F6A8885A308D3ULL, key, klen), value, vlen);
}
