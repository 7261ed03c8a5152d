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

done_testing
