/*
 * meminfo.c: read one field of /proc/meminfo (see meminfo.h).
 */
#include <stdio.h>
#include <string.h>

#include "meminfo.h"

uint64_t meminfo_bytes(const char *field, uint64_t fallback)
{
  char line[128];
  size_t len = strlen(field);
  uint64_t bytes = fallback;
  FILE *f = fopen("/proc/meminfo", "r");

  if (f == NULL)
    return fallback;
  /* Lines look like "MemAvailable:   12345678 kB"; every size field is in KiB. */
  while (fgets(line, sizeof(line), f) != NULL) {
    unsigned long long kib;
    if (strncmp(line, field, len) == 0 && line[len] == ':' &&
        sscanf(line + len + 1, "%llu", &kib) == 1) {
      bytes = (uint64_t) kib * 1024;
      break;
    }
  }
  fclose(f);
  return bytes;
}
