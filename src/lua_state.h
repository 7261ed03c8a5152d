/*
 * lua_state.h: creation of the LuaJIT states scripts run in.
 */
#ifndef SB_LUA_STATE_H
#define SB_LUA_STATE_H

#include <stddef.h>

#include <lua.h>

struct worker;

typedef struct lua_state_params {
  int thread_id;                   /* sysbench.tid */
  /* The worker the state acts for: its per-event calls, counters and random numbers go
     through this pointer (sysbench.worker), never through the thread. NULL for a state that
     runs no script code (a lookup on package.path). */
  struct worker *worker;
  const char *command;             /* sysbench.cmdline.command */
  const char *script_path;         /* sysbench.cmdline.script_path */
  const char *source;              /* the script to run after the internal modules, or NULL */
  size_t source_len;
  const char *chunkname;           /* "@path" so errors read "path:line: message" */
} lua_state_params;

void lua_state_set_argv(int argc, char *argv[]);

/* A ready state, or NULL after logging why (a script error is printed as "FATAL: msg"). */
lua_State *lua_state_new(const lua_state_params *params);

/* Text of the error value at `index`, for "FATAL: ..." lines. */
const char *lua_state_error_text(lua_State *L, int index);

#endif
