/*
 * fileio_block.c: what a block holds under --validate, and the check of a block read back.
 *
 * The layout is sysbench 1.0.20's, so files prepared by either tool validate with the other:
 * len - 12 random bytes, then their CRC-32 (IEEE 802.3, as zlib computes it) as a 4-byte
 * native-endian integer, then the block's offset in its file as an 8-byte native integer.
 */
#include <inttypes.h>
#include <pthread.h>
#include <string.h>

#include "fileio.h"
#include "logger.h"
#include "rand.h"

static uint32_t crc_table[256];
static pthread_once_t crc_table_once = PTHREAD_ONCE_INIT;

static void crc_table_init(void)
{
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++)
      c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    crc_table[n] = c;
  }
}

static uint32_t crc32_of(const unsigned char *data, size_t len)
{
  uint32_t c = 0xFFFFFFFFu;

  pthread_once(&crc_table_once, crc_table_init);
  for (size_t i = 0; i < len; i++)
    c = crc_table[(c ^ data[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void fileio_block_fill(rand_state *rand, unsigned char *block, size_t len, uint64_t offset)
{
  size_t payload = len - FILEIO_BLOCK_TRAILER;
  size_t i = 0;

  for (; i + sizeof(uint64_t) <= payload; i += sizeof(uint64_t)) {
    uint64_t r = rand_next(rand);
    memcpy(block + i, &r, sizeof(r));
  }
  if (i < payload) {
    uint64_t r = rand_next(rand);
    memcpy(block + i, &r, payload - i);
  }
  uint32_t crc = crc32_of(block, payload);
  memcpy(block + payload, &crc, sizeof(crc));
  memcpy(block + payload + sizeof(crc), &offset, sizeof(offset));
}

int fileio_block_check(const unsigned char *block, size_t len, uint64_t offset)
{
  size_t payload = len - FILEIO_BLOCK_TRAILER;
  uint32_t stored_crc;
  uint64_t stored_offset;

  memcpy(&stored_crc, block + payload, sizeof(stored_crc));
  memcpy(&stored_offset, block + payload + sizeof(stored_crc), sizeof(stored_offset));
  uint32_t crc = crc32_of(block, payload);
  if (crc != stored_crc) {
    log_text(LOG_FATAL, "Checksum mismatch in block with offset: %" PRIu64, offset);
    log_text(LOG_FATAL, "    Calculated value: 0x%x    Stored value: 0x%x", crc, stored_crc);
    return -1;
  }
  if (stored_offset != offset) {
    log_text(LOG_FATAL, "Offset mismatch in block:");
    log_text(LOG_FATAL, "   Actual offset: %" PRIu64 "    Stored offset: %" PRIu64, offset,
             stored_offset);
    return -1;
  }
  return 0;
}
