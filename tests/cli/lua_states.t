#!/usr/bin/env bash
# lua_states.t: what a worker's Lua state carries, since every thread has one (a thread's
# memory is mostly its Lua heap): the modules only some scripts or commands use are loaded on
# first use (oltp_common's commands, the legacy sysbench.db API, the report formatters), and
# chunks are parsed once per process, the other states loading their bytecode -- with the
# same positions and messages in errors, whichever state raises them.
. "$(dirname "$0")/../lib/tap.sh"

# ---- modules loaded on first use ---------------------------------------------------------

write lazy_oltp.lua <<'LUA'
require("oltp_point_select")
local function loaded(field)
  return tostring(rawget(sysbench, field) ~= nil)
end
local oltp_thread_done = thread_done
function thread_done(...)
  oltp_thread_done(...)
  if sysbench.tid == 0 then
    print("worker: oltp_commands " .. loaded("oltp_commands") .. ", oltp_load " ..
          loaded("oltp_load") .. ", db " .. loaded("db") .. ", report_csv " ..
          loaded("report_csv"))
  end
end
function done()
  print("main: oltp_commands " .. loaded("oltp_commands"))
end
LUA
sb lazy_oltp.lua --mysql-dry-run --threads=2 --events=20 run
is "$rc" 0 "oltp_point_select runs from a wrapping script"
like "$out" "worker: oltp_commands false, oltp_load false, db false, report_csv false" \
     "a worker of run loads none of the modules only commands and some scripts use"
like "$out" "main: oltp_commands true" \
     "the main state has oltp_common's commands part (init() checks the options with it)"

sb lazy_oltp.lua --mysql-dry-run --threads=2 --events=20 --tables=0 run
like "$out" "FATAL: \`init' function failed: invalid value for --tables: 0 \(expected a whole number >= 1\)" \
     "check_oltp_options() still rejects a bad value, through the module"

write lazy_api.lua <<'LUA'
function event() end
sysbench.cmdline.commands = { show = { function()
  print("db before " .. tostring(rawget(sysbench, "db") ~= nil) .. ", db_connect is a " ..
        type(db_connect) .. ", DB_ERROR_FAILED " .. DB_ERROR_FAILED)
  print("reporters before " .. tostring(rawget(sysbench, "report_json") ~= nil))
  print("report_csv is a " .. type(sysbench.report_csv) .. ", report_json " ..
        tostring(rawget(sysbench, "report_json") ~= nil) .. ", report_default " ..
        tostring(rawget(sysbench, "report_default") ~= nil))
  print("sysbench.db.DB_ERROR_RESTART_TRANSACTION " ..
        sysbench.db.DB_ERROR_RESTART_TRANSACTION)
end } }
LUA
sb lazy_api.lua show
is "$rc" 0 "a script reads the lazy fields"
like "$out" "db before false, db_connect is a function, DB_ERROR_FAILED 2" \
     "the db_* globals exist before sysbench.db is loaded"
like "$out" "reporters before false" "the report formatters are not loaded before use"
like "$out" "report_csv is a function, report_json true, report_default true" \
     "reading one formatter loads the three"
like "$out" "sysbench.db.DB_ERROR_RESTART_TRANSACTION 1" "reading sysbench.db loads it"

# a db_* global raises its error at the script's line (1.0.20's message)
write legacy_pos.lua <<'LUA'
function event() end
sysbench.cmdline.commands = { go = { function()
  db_bulk_insert_next("(1)")
end } }
LUA
sb legacy_pos.lua go
like "$out" "legacy_pos.lua:3: Uninitialized database connection" \
     "an error of a db_* function names the script's line"

# ---- chunks parsed once per process --------------------------------------------------------

# The main state parses; the workers load bytecode. Their messages name the same positions.
write pos.lua <<'LUA'
function event() end
function thread_init()
  if sysbench.tid == 1 then
    error("boom in thread " .. sysbench.tid)
  end
end
LUA
sb pos.lua --threads=2 --events=1 run
like "$out" "FATAL: \`thread_init' function failed: pos.lua:4: boom in thread 1" \
     "an error in the script, raised by a worker, names its line"

mkdir -p "$TEST_TMP/lib"
write lib/m.lua <<'LUA'
local x = nil
function lib_f()
  return x.y
end
LUA
write req_pos.lua <<'LUA'
require("lib.m")
function event() end
function thread_init()
  if sysbench.tid == 1 then
    lib_f()
  end
end
LUA
sb req_pos.lua --threads=2 --events=1 run
like "$out" "FATAL: \`thread_init' function failed: ./lib/m.lua:3: attempt to index upvalue 'x' \(a nil value\)" \
     "an error in a required module file, raised by a worker, names its line and variable"

write internal_pos.lua <<'LUA'
function event() end
local function fail()
  local ok, err = pcall(sysbench.rand.string, nil)
  return err
end
sysbench.cmdline.commands = { go = { function() print("main: " .. fail()) end } }
function thread_init()
  if sysbench.tid == 1 then print("worker: " .. fail()) end
end
LUA
sb internal_pos.lua go
main=$(printf '%s\n' "$out" | sed -n 's/^main: //p')
sb internal_pos.lua --threads=2 --events=1 run
worker=$(printf '%s\n' "$out" | sed -n 's/^worker: //p')
like "$main" '^\[string "sysbench.rand.lua"\]:[0-9]+: ' \
     "an error inside an internal module names its position"
is "$worker" "$main" "... the same in a worker, which loaded the module as bytecode"

write bad.lua <<'LUA'
x = = 1
LUA
write req_bad.lua <<'LUA'
function event() end
function thread_init()
  if sysbench.tid == 1 then require("bad") end
end
LUA
sb req_bad.lua --threads=2 --events=1 run
like "$out" "error loading module 'bad' from file './bad.lua':" \
     "a module that does not compile: LuaJIT's message"
like "$out" "./bad.lua:1: unexpected symbol near '='" "... with the parser's error"

write req_missing.lua <<'LUA'
function event() end
sysbench.cmdline.commands = { go = { function()
  local ok, err = pcall(require, "no_such.module")
  local _, searched = package.searchpath("no_such.module", package.path)
  print(err:find(searched, 1, true) ~= nil and "lists the path" or err)
  print(err:find("no field package.preload['no_such.module']", 1, true) ~= nil and
        "and the other loaders" or err)
end } }
LUA
sb req_missing.lua go
like "$out" "lists the path" \
     "a module not found: every file tried on package.path, as package.searchpath says"
like "$out" "and the other loaders" "... after the preload loader's line"

# the text is the key, not the file's name: a module file that changed since another state
# loaded it is loaded as it is now
write changing.lua <<'LUA'
local function load_version(v)
  local f = io.open("changing_mod.lua", "w")
  f:write("return " .. v .. "\n")
  f:close()
  return require("changing_mod")
end
function init()
  print("main state got " .. load_version(100))
end
function event() end
function thread_init()
  print("worker got " .. load_version(7))
end
LUA
sb changing.lua --threads=1 --events=1 run
like "$out" "main state got 100" "a module written by the main state is loaded there"
like "$out" "worker got 7" "... and a worker that rewrote it gets its own text"

done_testing
