/*
 * lua_state.c: creates the LuaJIT states scripts run in. Every state gets the standard
 * libraries, sysbench 1.0's package.path (plus a loader for the workloads compiled into the
 * binary), the `sysbench` table, the internal sysbench.* modules, and then the user's script.
 * Chunks are parsed once per process and loaded as bytecode by the other states.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "embedded_lua.h"
#include "logger.h"
#include "lua_bundled.h"
#include "lua_state.h"
#include "output_mode.h"

/* Internal modules every state loads, in load order: later ones use earlier ones (compat
   aliases rand, sql...); "sysbench" comes first because it makes ffi.cdef tolerate repeated
   declarations. */
static const char *const internal_modules[] = {
  "sysbench",
  "sysbench.rand",
  "sysbench.cmdline",
  "sysbench.sql",
  "sysbench.histogram",
  "sysbench.compat",
  "sysbench.oltp_compat",
  NULL
};

/* Modules a state loads the first time a script reads sysbench.<field>: the key-value API, the
   table loader and the commands of the bundled OLTP workloads are needed by some commands and
   drivers only, the legacy sysbench.db API and the report formatters by few scripts, and
   every worker state would otherwise carry them: a worker's Lua heap is most of what a thread
   costs (1,000 threads, 1,000 heaps). A module may serve several fields. */
static const char *const lazy_modules[][2] = {
  {"db", "sysbench.db"},
  {"report_default", "sysbench.reporters"},
  {"report_csv", "sysbench.reporters"},
  {"report_json", "sysbench.reporters"},
  {"kv", "sysbench.kv"},
  {"load", "sysbench.load"},
  {"oltp_load", "sysbench.oltp_load"},
  {"oltp_commands", "sysbench.oltp_commands"},
  {"tidb", "sysbench.tidb"},
  {NULL, NULL}
};

static int state_argc;
static char **state_argv;

void lua_state_set_argv(int argc, char *argv[])
{
  state_argc = argc;
  state_argv = argv;
}

const embedded_script *embedded_find(const char *name, embedded_kind kind)
{
  for (const embedded_script *s = embedded_scripts; s->name != NULL; s++)
    if (s->kind == kind && strcmp(s->name, name) == 0)
      return s;
  return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Compiled chunks                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* Every state of a run loads the same chunks: the internal modules, the script, the modules it
   requires. Each is parsed once per process; the other states load the bytecode of that first
   parse (lua_dump keeps the debug information, chunk name included, so messages name the same
   positions). This is for memory more than for time: LuaJIT's parser leaves garbage behind
   (token strings, constant tables, grown buffers) that no GC step collects before the
   state's next full GC, and the pages it touched stay resident. A worker costs its peak, and
   the parse of the script was that peak: at 1,000 threads of oltp_point_select, loading
   bytecode instead saves about 45 KB per thread. Entries are never changed or removed once
   published, so lookups read the list without the lock; a chunk is matched by its name and
   its whole text, never by address alone. */
typedef struct compiled_chunk {
  struct compiled_chunk *next;
  char *chunkname;
  const char *source;              /* the text it was compiled from (owned when copied) */
  size_t source_len;
  char *bytecode;
  size_t bytecode_len;
} compiled_chunk;

static compiled_chunk *compiled_chunks;
static pthread_mutex_t compiled_lock = PTHREAD_MUTEX_INITIALIZER;

static const compiled_chunk *find_compiled(const char *source, size_t len,
                                           const char *chunkname)
{
  for (const compiled_chunk *c = __atomic_load_n(&compiled_chunks, __ATOMIC_ACQUIRE);
       c != NULL; c = c->next)
    if (c->source_len == len && strcmp(c->chunkname, chunkname) == 0 &&
        (c->source == source || memcmp(c->source, source, len) == 0))
      return c;
  return NULL;
}

typedef struct {
  char *data;
  size_t len, capacity;
} dump_buffer;

static int dump_writer(lua_State *L, const void *p, size_t size, void *ud)
{
  (void) L;
  dump_buffer *b = ud;
  if (b->len + size > b->capacity) {
    size_t capacity = b->capacity ? b->capacity : 4096;
    while (capacity < b->len + size)
      capacity *= 2;
    char *grown = realloc(b->data, capacity);
    if (grown == NULL)
      return 1;
    b->data = grown;
    b->capacity = capacity;
  }
  memcpy(b->data + b->len, p, size);
  b->len += size;
  return 0;
}

/* Keeps the bytecode of the function on top of the stack, compiled from source. A text that
   does not live as long as the process (a module file's) is copied. Failing that, nothing is
   kept: the next state parses the source again. */
static void remember_compiled(lua_State *L, const char *source, size_t len,
                              const char *chunkname, bool source_is_static)
{
  dump_buffer b = { NULL, 0, 0 };
  compiled_chunk *c = calloc(1, sizeof(*c));
  char *copy = NULL;

  if (c == NULL || lua_dump(L, dump_writer, &b) != 0 || b.len == 0 ||
      (c->chunkname = strdup(chunkname)) == NULL ||
      (!source_is_static && (copy = malloc(len > 0 ? len : 1)) == NULL)) {
    if (c != NULL)
      free(c->chunkname);
    free(c);
    free(b.data);
    return;
  }
  if (copy != NULL)
    memcpy(copy, source, len);
  c->source = copy != NULL ? copy : source;
  c->source_len = len;
  c->bytecode = b.data;
  c->bytecode_len = b.len;

  pthread_mutex_lock(&compiled_lock);
  if (find_compiled(source, len, chunkname) == NULL) {
    c->next = compiled_chunks;
    __atomic_store_n(&compiled_chunks, c, __ATOMIC_RELEASE);
    c = NULL;
  }
  pthread_mutex_unlock(&compiled_lock);
  if (c != NULL) {                 /* another state compiled it meanwhile */
    free(copy);
    free(c->chunkname);
    free(c->bytecode);
    free(c);
  }
}

/* luaL_loadbuffer, from the bytecode of an earlier state's parse of the same text when there
   is one. source_is_static: the text outlives every state (embedded, or the script's). */
static int load_chunk(lua_State *L, const char *source, size_t len, const char *chunkname,
                      bool source_is_static)
{
  const compiled_chunk *c = find_compiled(source, len, chunkname);
  if (c != NULL) {
    if (luaL_loadbuffer(L, c->bytecode, c->bytecode_len, chunkname) == 0)
      return 0;
    lua_pop(L, 1);                 /* not expected (the same library wrote it): parse */
    return luaL_loadbuffer(L, source, len, chunkname);
  }
  int rc = luaL_loadbuffer(L, source, len, chunkname);
  if (rc == 0)
    remember_compiled(L, source, len, chunkname, source_is_static);
  return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Module loaders                                                                             */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
  char *data;
  size_t len;
} file_text;

/* The whole file, or -1 (the caller falls back to luaL_loadfile and its message). */
static int read_text_file(const char *path, file_text *out)
{
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return -1;
  size_t capacity = 16384, len = 0;
  char *buf = malloc(capacity);
  while (buf != NULL) {
    len += fread(buf + len, 1, capacity - len, f);
    if (len < capacity)
      break;
    char *grown = realloc(buf, capacity *= 2);
    if (grown == NULL)
      free(buf);
    buf = grown;
  }
  int failed = buf == NULL || ferror(f);
  fclose(f);
  if (failed) {
    free(buf);
    return -1;
  }
  out->data = buf;
  out->len = len;
  return 0;
}

/* package.loaders[2], in place of LuaJIT's loader of Lua files: the same search of
   package.path and the same messages, and the file's chunk is loaded through load_chunk, so a
   module on the path (an installed oltp_common.lua, a user's copy in the working directory)
   is parsed once per process too. Upvalue 1: the package table. */
static int file_loader(lua_State *L)
{
  const char *name = luaL_checkstring(L, 1);
  lua_getfield(L, lua_upvalueindex(1), "path");
  const char *path = lua_tostring(L, -1);
  if (path == NULL)
    return luaL_error(L, LUA_QL("package.%s") " must be a string", "path");

  /* LuaJIT's searchpath(): "a.b" is looked up as "a/b", templates split at ';' */
  luaL_Buffer msg;
  const char *filename = NULL;
  const char *file_name = luaL_gsub(L, name, ".", LUA_DIRSEP);
  int name_index = lua_gettop(L);
  luaL_buffinit(L, &msg);
  while (*path != '\0') {
    while (*path == *LUA_PATHSEP)
      path++;
    if (*path == '\0')
      break;
    const char *end = strchr(path, *LUA_PATHSEP);
    if (end == NULL)
      end = path + strlen(path);
    lua_pushlstring(L, path, (size_t) (end - path));
    path = end;
    const char *candidate = luaL_gsub(L, lua_tostring(L, -1), LUA_PATH_MARK, file_name);
    lua_remove(L, -2);
    FILE *f = fopen(candidate, "r");
    if (f != NULL) {
      fclose(f);
      filename = candidate;
      break;
    }
    lua_pushfstring(L, "\n\tno file " LUA_QS, candidate);
    lua_remove(L, -2);
    luaL_addvalue(&msg);
  }
  if (filename == NULL) {
    luaL_pushresult(&msg);
    return 1;                      /* not found on this path */
  }
  /* the found name is on top; the message buffer under it is dropped with the rest */
  lua_replace(L, name_index);
  lua_settop(L, name_index);
  filename = lua_tostring(L, name_index);

  file_text text = { NULL, 0 };
  int rc;
  lua_pushfstring(L, "@%s", filename);
  if (read_text_file(filename, &text) == 0) {
    rc = load_chunk(L, text.data, text.len, lua_tostring(L, -1), false);
    free(text.data);
  } else {
    rc = luaL_loadfile(L, filename);  /* unreadable after all: LuaJIT's own message */
  }
  if (rc != 0)
    return luaL_error(L, "error loading module " LUA_QS " from file " LUA_QS ":\n\t%s",
                      lua_tostring(L, 1), filename, lua_tostring(L, -1));
  return 1;
}

/* package.loaders entry: `require "oltp_common"` finds the bundled copy when no file on
   package.path matched, so the binary works uninstalled. */
static int embedded_loader(lua_State *L)
{
  const char *name = luaL_checkstring(L, 1);
  const embedded_script *s = embedded_find(name, EMBEDDED_BUNDLED);
  char chunkname[256];

  if (s == NULL) {
    lua_pushfstring(L, "\n\tno bundled script '%s' in this binary", name);
    return 1;
  }
  snprintf(chunkname, sizeof(chunkname), "@%s.lua", s->name);
  if (load_chunk(L, s->source, s->length, chunkname, true) != 0)
    return lua_error(L);
  return 1;
}

static void install_loaders(lua_State *L)
{
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "loaders");
  lua_pushvalue(L, -2);
  lua_pushcclosure(L, file_loader, 1);
  lua_rawseti(L, -2, 2);
  int n = (int) lua_objlen(L, -1);
  lua_pushcfunction(L, embedded_loader);
  lua_rawseti(L, -2, n + 1);
  lua_pop(L, 2);
}

/* Replace ";;" in an environment path by the default path, as stock Lua does. */
static void set_search_path(lua_State *L, int package, const char *field, const char *env_name)
{
  const char *env = getenv(env_name);
  if (env != NULL) {
    const char *def = lua_tostring(L, -1);
    luaL_gsub(L, env, ";;", ";\1;");
    luaL_gsub(L, lua_tostring(L, -1), "\1", def);
    lua_remove(L, -2);
    lua_remove(L, -2);
  }
  lua_setfield(L, package, field);
}

static void set_paths(lua_State *L)
{
  const char *home = getenv("HOME");

  lua_getglobal(L, "package");
  int package = lua_gettop(L);

  int top = lua_gettop(L);
  lua_pushliteral(L, "./?.lua;./?/init.lua;./src/lua/?.lua;");
  if (home != NULL) {
    lua_pushfstring(L, "%s/.luarocks/share/lua/5.1/?.lua;%s/.luarocks/share/lua/5.1/?/init.lua;"
                    "%s/.luarocks/share/lua/?.lua;%s/.luarocks/share/lua/?/init.lua;",
                    home, home, home, home);
  }
  lua_pushliteral(L, "/usr/local/share/lua/5.1/?.lua;/usr/share/lua/5.1/?.lua;"
                  DATADIR "/?.lua");
  lua_concat(L, lua_gettop(L) - top);
  set_search_path(L, package, "path", "LUA_PATH");

  top = lua_gettop(L);
  lua_pushliteral(L, "./?.so;");
  if (home != NULL)
    lua_pushfstring(L, "%s/.luarocks/lib/lua/5.1/?.so;%s/.luarocks/lib/lua/?.so;", home, home);
  lua_pushliteral(L, "/usr/local/lib/lua/5.1/?.so;" LIBDIR "/lua/5.1/?.so");
  lua_concat(L, lua_gettop(L) - top);
  set_search_path(L, package, "cpath", "LUA_CPATH");

  lua_pop(L, 1);
}

static void set_number(lua_State *L, const char *name, lua_Number n)
{
  lua_pushnumber(L, n);
  lua_setfield(L, -2, name);
}

static void set_string(lua_State *L, const char *name, const char *s)
{
  if (s == NULL)
    return;
  lua_pushstring(L, s);
  lua_setfield(L, -2, name);
}

static void create_sysbench_table(lua_State *L, const lua_state_params *p)
{
  lua_newtable(L);
  set_number(L, "tid", p->thread_id);
  lua_pushlightuserdata(L, p->worker);   /* a cdata pointer once sysbench.lua has run */
  lua_setfield(L, -2, "worker");
  set_string(L, "version", SB_COMPAT_VERSION);
  set_string(L, "version_string", "sysbench " SB_COMPAT_VERSION);

  lua_newtable(L);
  set_number(L, "NONE", 0);
  set_number(L, "RESTART_EVENT", 1);
  lua_setfield(L, -2, "error");

  lua_newtable(L);
  lua_newtable(L);
  for (int i = 0; i < state_argc; i++) {
    lua_pushstring(L, state_argv[i]);
    lua_rawseti(L, -2, i);
  }
  lua_setfield(L, -2, "argv");
  set_string(L, "command", p->command);
  set_string(L, "script_path", p->script_path);
  lua_setfield(L, -2, "cmdline");

  lua_newtable(L);
  set_string(L, "path", p->script_path);
  lua_setfield(L, -2, "test");

  lua_setglobal(L, "sysbench");
}

/* Runs one internal module; on failure leaves the error message on the stack and returns -1. */
static int run_internal_module(lua_State *L, const embedded_script *s)
{
  char chunkname[128];
  /* Named as 1.0.20 names them: positions in its messages read [string "sysbench.sql.lua"]:N */
  snprintf(chunkname, sizeof(chunkname), "%s.lua", s->name);
  if (load_chunk(L, s->source, s->length, chunkname, true) != 0 || lua_pcall(L, 0, 0, 0) != 0)
    return -1;
  return 0;
}

/* __index of the sysbench table: loads a lazy module when its field is first read. The module
   sets sysbench.<field> itself, so later reads never come here again. */
static int load_lazy_module(lua_State *L)
{
  const char *field = lua_tostring(L, 2);
  for (size_t i = 0; field != NULL && lazy_modules[i][0] != NULL; i++) {
    if (strcmp(field, lazy_modules[i][0]) != 0)
      continue;
    const embedded_script *s = embedded_find(lazy_modules[i][1], EMBEDDED_INTERNAL);
    if (s == NULL)
      break;                       /* a module of a layer not built in */
    if (run_internal_module(L, s) != 0)
      return luaL_error(L, "failed to load internal module '%s': %s", lazy_modules[i][1],
                        lua_tostring(L, -1));
    lua_rawget(L, 1);              /* the key is still at index 2 */
    return 1;
  }
  lua_pushnil(L);
  return 1;
}

static int load_internal_modules(lua_State *L)
{
  for (const char *const *m = internal_modules; *m != NULL; m++) {
    const embedded_script *s = embedded_find(*m, EMBEDDED_INTERNAL);
    if (s == NULL)
      continue;                    /* a module of a layer not built in */
    if (run_internal_module(L, s) != 0) {
      log_text(LOG_FATAL, "failed to load internal module '%s': %s", *m, lua_tostring(L, -1));
      lua_pop(L, 1);
      return -1;
    }
    /* The parser's garbage of one module is reused by the next instead of adding up: the
       pages a state touches while it loads stay resident (LuaJIT keeps them), so the peak of
       loading, not the heap after it, is what a worker costs (1,000 workers: 1,000 peaks). */
    lua_gc(L, LUA_GCCOLLECT, 0);
  }
  lua_getglobal(L, "sysbench");
  lua_newtable(L);
  lua_pushcfunction(L, load_lazy_module);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
  return 0;
}

lua_State *lua_state_new(const lua_state_params *p)
{
  lua_State *L = luaL_newstate();
  if (L == NULL) {
    log_text(LOG_FATAL, "Cannot create a Lua state: out of memory");
    return NULL;
  }
  luaL_openlibs(L);
  set_paths(L);
  install_loaders(L);
  create_sysbench_table(L, p);
  if (load_internal_modules(L) != 0) {
    lua_close(L);
    return NULL;
  }
  if (p->source != NULL) {
    if (load_chunk(L, p->source, p->source_len, p->chunkname, false) != 0 ||
        lua_pcall(L, 0, 0, 0) != 0) {
      log_text(LOG_FATAL, "%s", lua_state_error_text(L, -1));
      lua_bundled_hint_once(lua_state_error_text(L, -1));
      lua_pop(L, 1);
      lua_close(L);
      return NULL;
    }
  }
  /* ... and the script's garbage is reused by the run (see load_internal_modules) */
  lua_gc(L, LUA_GCCOLLECT, 0);
  return L;
}

const char *lua_state_error_text(lua_State *L, int index)
{
  static __thread char text[1024];
  int abs = index < 0 ? lua_gettop(L) + index + 1 : index;

  if (lua_type(L, abs) == LUA_TSTRING || lua_type(L, abs) == LUA_TNUMBER) {
    const char *message = lua_tostring(L, abs);
    /* the "\nHINT: ..." lines of our messages are additions: exact mode leaves them out */
    if (!output_exact() || strstr(message, "\nHINT: ") == NULL)
      return message;
    size_t used = 0;
    for (const char *line = message; *line != '\0' && used + 1 < sizeof(text);) {
      const char *end = strchr(line, '\n');
      size_t len = end != NULL ? (size_t) (end - line) : strlen(line);
      if (strncmp(line, "HINT: ", 6) != 0 || line == message)
        used += (size_t) snprintf(text + used, sizeof(text) - used, "%s%.*s",
                                  used > 0 ? "\n" : "", (int) len, line);
      line += len + (end != NULL);
    }
    return text;
  }
  if (lua_istable(L, abs)) {
    /* An error descriptor from sysbench.sql that no handler took (a "restart event"). */
    lua_getfield(L, abs, "sql_errmsg");
    lua_getfield(L, abs, "sql_errno");
    lua_getfield(L, abs, "query");
    if (lua_isstring(L, -3)) {
      snprintf(text, sizeof(text), "SQL error, errno = %d: %s%s%s", (int) lua_tointeger(L, -2),
               lua_tostring(L, -3), lua_isstring(L, -1) ? " (query: " : "",
               lua_isstring(L, -1) ? lua_tostring(L, -1) : "");
      if (lua_isstring(L, -1))
        strncat(text, ")", sizeof(text) - strlen(text) - 1);
      lua_pop(L, 3);
      return text;
    }
    lua_pop(L, 3);
  }
  snprintf(text, sizeof(text), "(error object is a %s value)", luaL_typename(L, abs));
  return text;
}
