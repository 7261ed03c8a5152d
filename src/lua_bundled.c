/*
 * lua_bundled.c: the compiled-in Lua scripts as users see them -- printed by --show-script,
 * and named by a hint when an error cites one of their lines (see lua_bundled.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "embedded_lua.h"
#include "logger.h"
#include "lua_bundled.h"

/* "oltp_common.lua" -> "oltp_common" in buf. */
static const char *stem_of(const char *name, char *buf, size_t len)
{
  snprintf(buf, len, "%s", name);
  size_t n = strlen(buf);
  if (n > 4 && strcmp(buf + n - 4, ".lua") == 0)
    buf[n - 4] = '\0';
  return buf;
}

static const embedded_script *find_any(const char *stem)
{
  const embedded_script *s = embedded_find(stem, EMBEDDED_BUNDLED);
  return s != NULL ? s : embedded_find(stem, EMBEDDED_INTERNAL);
}

int lua_bundled_show(const char *name, FILE *out)
{
  char stem[256];
  const embedded_script *s = find_any(stem_of(name, stem, sizeof(stem)));

  if (s != NULL) {
    fwrite(s->source, 1, s->length, out);
    return 0;
  }
  fprintf(stderr, "No script '%s' is compiled into sysbench; these are:", name);
  for (const embedded_script *e = embedded_scripts; e->name != NULL; e++)
    fprintf(stderr, "%s %s", e == embedded_scripts ? "" : ",", e->name);
  fprintf(stderr, "\n");
  return 1;
}

/* Where `s` is in the source tree. */
static void source_path(const embedded_script *s, char *buf, size_t len)
{
  snprintf(buf, len, "src/lua/%s%s.lua", s->kind == EMBEDDED_INTERNAL ? "internal/" : "",
           s->name);
}

/* The line number after "NAME.lua" at `at` (":368:" -> 368), or 0. */
static long line_after(const char *at)
{
  if (*at != ':')
    return 0;
  char *end;
  long line = strtol(at + 1, &end, 10);
  return end > at + 1 && *end == ':' ? line : 0;
}

/* A position in `s` cited by the message, or 0: a bundled workload's chunk is
   "@oltp_common.lua" (so "oltp_common.lua:368:", not after a '/', which is a file's path), an
   internal module's "[string \"sysbench.sql.lua\"]:120:". */
static long cited_line(const char *message, const embedded_script *s)
{
  char cite[300];

  if (s->kind == EMBEDDED_INTERNAL) {
    snprintf(cite, sizeof(cite), "[string \"%s.lua\"]", s->name);
    const char *at = strstr(message, cite);
    return at != NULL ? line_after(at + strlen(cite)) : 0;
  }
  snprintf(cite, sizeof(cite), "%s.lua", s->name);
  for (const char *at = strstr(message, cite); at != NULL; at = strstr(at + 1, cite)) {
    bool starts = at == message || at[-1] == ' ' || at[-1] == '\n' || at[-1] == '\t';
    long line = starts ? line_after(at + strlen(cite)) : 0;
    /* a file of that name in the current directory is the one that ran, not ours */
    if (line > 0 && access(cite, F_OK) != 0)
      return line;
  }
  return 0;
}

bool lua_bundled_hint(const char *message, char *buf, size_t len)
{
  for (const embedded_script *s = embedded_scripts; s->name != NULL; s++) {
    long line = cited_line(message, s);
    if (line == 0)
      continue;
    char path[300];
    source_path(s, path, sizeof(path));
    snprintf(buf, len, "%s.lua is compiled into sysbench (%s in its source): "
             "`sysbench --show-script=%s | sed -n %ldp` prints line %ld", s->name, path, s->name,
             line, line);
    return true;
  }
  return false;
}

void lua_bundled_hint_once(const char *message)
{
  static int given;
  char hint[1024];

  if (lua_bundled_hint(message, hint, sizeof(hint)) &&
      __atomic_exchange_n(&given, 1, __ATOMIC_ACQ_REL) == 0)
    log_hint("%s", hint);
}
