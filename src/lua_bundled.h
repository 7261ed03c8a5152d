/*
 * lua_bundled.h: the Lua scripts compiled into the binary (the bundled workloads and the
 * internal sysbench.* modules) as a user meets them: --show-script prints one, and a message
 * citing a line of one ("oltp_common.lua:368: ...") is followed by a hint saying where that
 * file is, since no such file exists on the user's disk.
 */
#ifndef SB_LUA_BUNDLED_H
#define SB_LUA_BUNDLED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* --show-script=NAME: the text of the compiled-in script NAME ("oltp_common",
   "sysbench.oltp_load", with or without ".lua") to `out`; 0, or 1 after a line on stderr
   listing the names there are. */
int lua_bundled_show(const char *name, FILE *out);

/* If `message` cites a line of a compiled-in script, the hint's text (without "HINT: ")
   saying where it comes from and how to print that line, into buf; else false. */
bool lua_bundled_hint(const char *message, char *buf, size_t len);

/* The hint after a FATAL line carrying a Lua error, once per process (an addition: none in
   the exact mode, log_hint()). */
void lua_bundled_hint_once(const char *message);

#endif
