/*
 * meminfo.h: one field of the kernel's /proc/meminfo, for the few places that size
 * something by the machine's memory (huge page size, how much to pre-read into the cache).
 */
#ifndef SB_MEMINFO_H
#define SB_MEMINFO_H

#include <stdint.h>

/* The value of `field` (e.g. "MemAvailable") in bytes, or `fallback` when /proc/meminfo is
   missing or has no such field. */
uint64_t meminfo_bytes(const char *field, uint64_t fallback);

#endif
