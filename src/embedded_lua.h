/*
 * embedded_lua.h: Lua sources compiled into the binary (see build-aux/embed-lua.sh): the
 * internal sysbench.* modules and the bundled workloads.
 */
#ifndef SB_EMBEDDED_LUA_H
#define SB_EMBEDDED_LUA_H

#include <stddef.h>

typedef enum {
  EMBEDDED_INTERNAL,
  EMBEDDED_BUNDLED
} embedded_kind;

typedef struct {
  const char *name;       /* file name without ".lua" */
  embedded_kind kind;
  const char *source;
  size_t length;
} embedded_script;

extern const embedded_script embedded_scripts[];

const embedded_script *embedded_find(const char *name, embedded_kind kind);

#endif
