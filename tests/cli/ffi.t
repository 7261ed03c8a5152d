#!/usr/bin/env bash
# ffi.t: what scripts in the wild do through LuaJIT FFI: the global `ffi`, libc functions,
# sysbench's exported C functions, and sysbench-tpcc's counter call
#   ffi.cdef("void sb_counter_inc(int, sb_counter_type);")
#   ffi.C.sb_counter_inc(sysbench.tid, ffi.C.SB_CNT_ERROR)
# which must count an error (the sb_counter_type enum order is OTHER, READ, WRITE, TRX, ERROR,
# RECONNECT). Repeating a declaration sysbench or the script already made is not an error.
. "$(dirname "$0")/../lib/tap.sh"

# The report_cumulative hook prints the counters the default non-SQL report does not show.
counters_hook='sysbench.hooks.report_cumulative = function(s)
  print(string.format("events=%d reads=%d writes=%d other=%d errors=%d reconnects=%d",
                      s.events, s.reads, s.writes, s.other, s.errors, s.reconnects))
end'

# sysbench-tpcc's tpcc_common.lua: the function only, against sysbench's own enum.
write tpcc.lua <<LUA
ffi.cdef[[
void sb_counter_inc(int, sb_counter_type);
typedef uint32_t useconds_t;
int usleep(useconds_t useconds);
]]
function event() ffi.C.sb_counter_inc(sysbench.tid, ffi.C.SB_CNT_ERROR) end
$counters_hook
LUA
sb tpcc.lua run --threads=2 --events=10 --time=0
is "$rc" 0 "sysbench-tpcc's 'void sb_counter_inc(int, sb_counter_type);' declaration loads"
like "$out" "events=10 reads=0 writes=0 other=0 errors=10 reconnects=0" \
     "ffi.C.sb_counter_inc(sysbench.tid, ffi.C.SB_CNT_ERROR) counts an error"

# The enum declared by the script too, as 1.0.20's sysbench.sql.lua spells it, twice.
write enum.lua <<LUA
ffi.cdef[[
typedef enum
{
  SB_CNT_OTHER,
  SB_CNT_READ,
  SB_CNT_WRITE,
  SB_CNT_TRX,
  SB_CNT_ERROR,
  SB_CNT_RECONNECT,
  SB_CNT_MAX
} sb_counter_type;
void sb_counter_inc(int, sb_counter_type);
]]
ffi.cdef("typedef enum { SB_CNT_OTHER, SB_CNT_READ, SB_CNT_WRITE, SB_CNT_TRX, SB_CNT_ERROR, SB_CNT_RECONNECT, SB_CNT_MAX } sb_counter_type;")
ffi.cdef("void sb_counter_inc(int, sb_counter_type);")
local C = ffi.C
function event()
  C.sb_counter_inc(sysbench.tid, C.SB_CNT_READ)
  C.sb_counter_inc(sysbench.tid, C.SB_CNT_READ)
  C.sb_counter_inc(sysbench.tid, C.SB_CNT_WRITE)
  C.sb_counter_inc(sysbench.tid, C.SB_CNT_OTHER)
  C.sb_counter_inc(sysbench.tid, C.SB_CNT_RECONNECT)
end
function thread_done() print("enum values " .. C.SB_CNT_OTHER .. C.SB_CNT_READ .. C.SB_CNT_WRITE ..
  C.SB_CNT_TRX .. C.SB_CNT_ERROR .. C.SB_CNT_RECONNECT) end
$counters_hook
LUA
sb enum.lua run --events=5 --time=0
is "$rc|$(count "$out" "attempt to redefine")" "0|0" \
   "declaring the sb_counter_type enum again (after sysbench's own, and twice) is not an error"
like "$out" "enum values 012345" "SB_CNT_OTHER..SB_CNT_RECONNECT are 0..5"
like "$out" "events=5 reads=10 writes=5 other=5 errors=0 reconnects=5" \
     "SB_CNT_READ / WRITE / OTHER / RECONNECT increments reach the report's stat table"

write clash.lua <<'LUA'
ffi.cdef[[ typedef enum { SB_CNT_OTHER = 7 } sb_counter_type; ]]
function event() end
LUA
sb clash.lua run --events=1
like "$out" "FATAL: clash.lua:1: attempt to redefine 'SB_CNT_OTHER'" \
     "a different definition of the same name is still an error"
is "$rc" 1 "... that exits 1"

write structs.lua <<'LUA'
ffi.cdef[[
struct my_point { int x; int y; };
struct my_point { int x; int y; };
]]
ffi.cdef[[
#pragma pack(push, 1)
struct my_packed { char c; int i; };
#pragma pack(pop)
]]
print("sizes " .. ffi.sizeof("struct my_point") .. " " .. ffi.sizeof("struct my_packed"))
LUA
sb structs.lua
like "$out" "sizes 8 5" "repeated identical structs are accepted and #pragma pack still applies"

write comments.lua <<'LUA'
ffi.cdef[[
/* a comment; with { a brace */
int abs(int);   // a trailing comment; with {
struct my_pair { int a; /* inner; */ int b; };
]]
ffi.cdef("struct my_pair { int a; int b; };")
print("abs " .. ffi.C.abs(-3) .. " size " .. ffi.sizeof("struct my_pair"))
LUA
sb comments.lua
like "$out" "abs 3 size 8" "comments in cdef text (with ';' and '{') are handled; a repeat without them too"

write calls.lua <<'LUA'
local ffi2 = require("ffi")
print("global ffi is require('ffi'): " .. tostring(ffi == ffi2))
ffi.cdef("int usleep(unsigned int); unsigned int sleep(unsigned int);")
ffi.cdef[[
uint32_t sb_rand_uniform(uint32_t, uint32_t);
uint64_t sb_counter_val(int, sb_counter_type);
bool sb_more_events(int);
void sb_event_start(int);
void sb_event_stop(int);
]]
local v = ffi.C.sb_rand_uniform(5, 9)
print("sb_rand_uniform " .. tostring(v >= 5 and v <= 9))
function event()
  ffi.C.usleep(100)
  ffi.C.sb_counter_inc(sysbench.tid, ffi.C.SB_CNT_ERROR)
end
function thread_done(tid)
  print("sb_counter_val errors=" .. tostring(tonumber(ffi.C.sb_counter_val(tid, ffi.C.SB_CNT_ERROR))))
end
LUA
sb calls.lua run --events=3 --time=0
is "$rc" 0 "libc and sysbench functions declared by the script are callable"
like "$out" "global ffi is require\('ffi'\): true" "the global ffi is the ffi module"
like "$out" "sb_rand_uniform true" "ffi.C.sb_rand_uniform is exported"
like "$out" "sb_counter_val errors=3" "ffi.C.sb_counter_val reads the thread's counter"

done_testing
