#!/usr/bin/env bash
# errors.t: a Lua error anywhere (script body, init, thread_init, event, thread_done, done, a
# report hook, a custom command, prepare/cleanup) prints one FATAL line with the script name,
# line and message, and the run exits 1. Lines are 1.0.20's; where 1.0.20 exits 0 after an
# error (thread_done, done, report hooks, parallel commands) we exit 1 on purpose.
. "$(dirname "$0")/../lib/tap.sh"

# fails NAME COMMAND WANT_LINE DESCRIPTION: runs err_NAME.lua COMMAND; WANT_LINE must be in
# the output and the exit code 1.
fails() {
  sb "err_$1.lua" $2 --threads=2 --time=2 --report-interval=1
  like "$out" "^$(printf '%s' "$3" | sed 's/[][\.*^$()+?{}|]/\\&/g')$" "$4: '$3'"
  is "$rc" 1 "$4: exit 1"
}

printf 'function event() end\nerror("boom in body")\n' | write err_body.lua
fails body run "FATAL: err_body.lua:2: boom in body" "an error in the script body"

printf 'function event(\n' | write err_syntax.lua
fails syntax run "FATAL: err_syntax.lua:2: <name> or '...' expected near '<eof>'" "a syntax error"

printf 'function event() end\nfunction init()\n  error("boom in init")\nend\n' | write err_init.lua
fails init run "FATAL: \`init' function failed: err_init.lua:3: boom in init" "an error in init()"

printf 'function event() end\nfunction thread_init()\n  error("boom in thread_init")\nend\n' |
  write err_thread_init.lua
fails thread_init run "FATAL: \`thread_init' function failed: err_thread_init.lua:3: boom in thread_init" \
  "an error in thread_init()"
like "$out" "^FATAL: Thread initialization failed!$" "... followed by 'Thread initialization failed!'"
is "$(count "$out" "thread_init' function failed")" 1 \
   "the second thread's failure is not printed again (the first one stops the run)"

printf 'function event()\n  error("boom in event")\nend\n' | write err_event.lua
fails event run "FATAL: \`thread_run' function failed: err_event.lua:2: boom in event" \
  "an error in event()"
num_cmp "$(line_of "$out" "boom in event")" "<" "$(line_of "$out" "^General statistics:")" \
        "... then the report of what ran until the error (1.0.20 prints none)"

# Threads stopping on one cause at the same time (a full disk fails every writer's commit):
# each waits 1 s in its first event, so all four are inside it when the first one fails.
printf 'function event()\n  os.execute("sleep 1")\n  error("boom in every thread")\nend\n' |
  write err_all_threads.lua
sb err_all_threads.lua run --threads=4 --time=5
is "$rc" 1 "every thread failing alike: exit 1"
is "$(count "$out" "boom in every thread")" 1 "... the FATAL line printed once, not once per thread"
unlike "$out" "last message repeated" "... and no '(last message repeated N times)' line"

printf 'function event()\n  local x = nil\n  return x.field\nend\n' | write err_index.lua
fails index run "FATAL: \`thread_run' function failed: err_index.lua:3: attempt to index local 'x' (a nil value)" \
  "a runtime error in event()"

printf 'function event() error({errcode = sysbench.error.RESTART_EVENT}) end\nsysbench.hooks.before_restart_event = function()\n  error("boom in before_restart_event")\nend\n' |
  write err_restart.lua
fails restart run "FATAL: \`thread_run' function failed: err_restart.lua:3: boom in before_restart_event" \
  "an error in before_restart_event()"

printf 'function event() end\nfunction thread_done()\n  error("boom in thread_done")\nend\n' |
  write err_thread_done.lua
fails thread_done run "FATAL: \`thread_done' function failed: err_thread_done.lua:3: boom in thread_done" \
  "an error in thread_done() (1.0.20 exits 0)"
like "$out" "General statistics:" "... after a complete run the report is still printed"

printf 'function event() end\nfunction done()\n  error("boom in done")\nend\n' | write err_done.lua
fails done run "FATAL: \`done' function failed: err_done.lua:3: boom in done" "an error in done() (1.0.20 exits 0)"

printf 'function event() end\nsysbench.hooks.report_intermediate = function()\n  error("boom in report_intermediate")\nend\n' |
  write err_hook_i.lua
fails hook_i run "FATAL: \`report_intermediate' function failed: err_hook_i.lua:3: boom in report_intermediate" \
  "an error in the report_intermediate hook stops the run (1.0.20 exits 0)"

printf 'function event() end\nsysbench.hooks.report_cumulative = function()\n  error("boom in report_cumulative")\nend\n' |
  write err_hook_c.lua
fails hook_c run "FATAL: \`report_cumulative' function failed: err_hook_c.lua:3: boom in report_cumulative" \
  "an error in the report_cumulative hook (1.0.20 exits 0)"

printf 'function event() end\nsysbench.cmdline.commands = { boom = { function()\n  error("boom in command")\nend } }\n' |
  write err_command.lua
fails command boom "FATAL: \`sysbench.cmdline.call_command' function failed: err_command.lua:3: boom in command" \
  "an error in a custom command (named as 1.0.20 names it)"

printf 'function event() end\nsysbench.cmdline.commands = { boom = { function()\n  error("boom in parallel command")\nend, sysbench.cmdline.PARALLEL_COMMAND } }\n' |
  write err_pcommand.lua
fails pcommand boom "FATAL: \`sysbench.cmdline.call_command' function failed: err_pcommand.lua:3: boom in parallel command" \
  "an error in a parallel custom command (1.0.20 exits 0)"

printf 'function event() end\nfunction prepare()\n  error("boom in prepare")\nend\n' | write err_prepare.lua
fails prepare prepare "FATAL: \`prepare' function failed: err_prepare.lua:3: boom in prepare" "an error in prepare()"

printf 'function event() end\nfunction cleanup()\n  error("boom in cleanup")\nend\n' | write err_cleanup.lua
fails cleanup cleanup "FATAL: \`cleanup' function failed: err_cleanup.lua:3: boom in cleanup" "an error in cleanup()"

printf 'x = 1\n' | write err_noevent.lua
fails noevent run "FATAL: cannot find the event() function in err_noevent.lua" "a script without event()"

mkdir -p "$TEST_TMP/lib"
printf 'local M = {}\nfunction M.f()\n  error("boom in module")\nend\nreturn M\n' > "$TEST_TMP/lib/mymodule.lua"
printf 'package.path = "./lib/?.lua;" .. package.path\nlocal m = require("mymodule")\nfunction event() m.f() end\n' |
  write err_module.lua
fails module run "FATAL: \`thread_run' function failed: ./lib/mymodule.lua:3: boom in module" \
  "an error raised in a required module names the module's file and line"

# ---- the scripts compiled into the binary ---------------------------------------------------
# An error citing a line of one names a file the user does not have: a HINT says where it
# comes from and how to print that line (--show-script prints the compiled-in copy).
sb --show-script=oltp_common
cmp -s "$TEST_TMP/.out" "$SRCDIR/src/lua/oltp_common.lua"
ok $? "--show-script=oltp_common prints the bundled oltp_common.lua byte for byte (exit $rc)"
sb --show-script=sysbench.sql.lua
cmp -s "$TEST_TMP/.out" "$SRCDIR/src/lua/internal/sysbench.sql.lua"
ok $? "--show-script=sysbench.sql.lua prints the internal module (exit $rc)"
sb --show-script=nosuch
is "$rc/$out" "1/" "--show-script=nosuch: exit 1, nothing on stdout"
like "$err" "^No script 'nosuch' is compiled into sysbench; these are: .*sysbench\.oltp_load, .*, oltp_common, " \
  "... and a line listing the names there are"

printf 'function thread_init()
  con = sysbench.sql.driver():connect()
  con:query(42)
end
function event() end
' |
  write err_internal.lua
sb err_internal.lua --mysql-dry-run --threads=2 --events=1 --time=0 run
line=$(printf '%s\n' "$out" | sed -nE 's/^FATAL: `thread_init'"'"' function failed: \[string "sysbench\.sql\.lua"\]:([0-9]+): .*/\1/p')
like "$out" "^HINT: sysbench\.sql\.lua is compiled into sysbench \(src/lua/internal/sysbench\.sql\.lua in its source\): \`sysbench --show-script=sysbench\.sql \| sed -n ${line}p\` prints line $line$" \
  "an error in an internal module: a hint names its source and the command printing line $line"
is "$(count "$out" "^HINT: ")" 1 "... once for the 2 threads"
sb --show-script=sysbench.sql
like "$(printf '%s\n' "$out" | sed -n "${line}p")" "#query" "... and that line is the one that failed"

# A file of that name in the current directory is the one that ran: no hint.
printf 'error("boom in a file of my own")
' | write oltp_common.lua
sb oltp_common.lua run
like "$out" "^FATAL: oltp_common\.lua:1: boom in a file of my own$" "an error in ./oltp_common.lua of the user's"
unlike "$out" "HINT" "... has no hint about the compiled-in one"
rm -f "$TEST_TMP/oltp_common.lua"

done_testing
