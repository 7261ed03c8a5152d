/*
 * packet.h: reading the MySQL protocol's numbers: little-endian integers of 2, 3, 4 and 8
 * bytes, and length-encoded integers (wire.c reads responses with them, binary_row.c row
 * values).
 */
#ifndef SB_MYSQL_PACKET_H
#define SB_MYSQL_PACKET_H

#include <stdbool.h>
#include <stdint.h>

static inline uint16_t mysqldrv_get2(const unsigned char *p)
{
  return (uint16_t) (p[0] | p[1] << 8);
}

static inline uint32_t mysqldrv_get3(const unsigned char *p)
{
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16;
}

static inline uint32_t mysqldrv_get4(const unsigned char *p)
{
  return mysqldrv_get3(p) | (uint32_t) p[3] << 24;
}

static inline uint64_t mysqldrv_get8(const unsigned char *p)
{
  return (uint64_t) mysqldrv_get4(p) | (uint64_t) mysqldrv_get4(p + 4) << 32;
}

/* A length-encoded integer at *p (advanced), bounded by end; false when malformed. */
static inline bool mysqldrv_get_lenenc(const unsigned char **p, const unsigned char *end,
                                       uint64_t *out)
{
  const unsigned char *q = *p;
  if (q >= end)
    return false;
  unsigned size = *q < 0xfb ? 0 : *q == 0xfc ? 2 : *q == 0xfd ? 3 : *q == 0xfe ? 8 : 99;
  if (size == 99 || q + 1 + size > end)
    return false;
  *out = size == 0 ? *q : size == 2 ? mysqldrv_get2(q + 1) : size == 3 ? mysqldrv_get3(q + 1)
                                                                       : mysqldrv_get8(q + 1);
  *p = q + 1 + size;
  return true;
}

#endif
