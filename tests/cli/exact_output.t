#!/usr/bin/env bash
# exact_output.t: the switch of the exact-output mode, --compat=1.0.20 or SYSBENCH_COMPAT=1.0.20
# (which wins, bad values), and that it turns the additions off at their sources: HINT lines
# (from the option parser, a config file, a script's error, fileio), our help lines, the
# script-visible predicate. The differential suite (tests/compat/) holds every case's output in
# this mode to 1.0.20's; this file checks the switch itself on our binary alone.
. "$(dirname "$0")/../lib/tap.sh"

write mode.lua <<'LUA'
print("exact", sysbench.output_exact())
LUA

sb mode.lua
like "$out" "^exact	false$" "by default the additions are on (sysbench.output_exact() is false)"
sb mode.lua --compat=1.0.20
like "$out" "^exact	true$" "--compat=1.0.20 turns them off"
SYSBENCH_COMPAT=1.0.20 sb mode.lua
like "$out" "^exact	true$" "so does SYSBENCH_COMPAT=1.0.20"
SYSBENCH_COMPAT=1.0.20 sb mode.lua --compat=off
like "$out" "^exact	false$" "--compat=off wins over the environment"
printf 'compat=1.0.20\n' > "$TEST_TMP/exact.cfg"
sb mode.lua --config-file=exact.cfg
like "$out" "^exact	true$" "... and --compat in a config file works"
SYSBENCH_COMPAT= sb mode.lua
like "$out" "^exact	false$" "an empty SYSBENCH_COMPAT is off"

SYSBENCH_COMPAT=1.0.19 sb mode.lua
is "$rc:$out" "1:FATAL: Invalid value for SYSBENCH_COMPAT: '1.0.19' (expected 1.0.20 or off)" \
   "a SYSBENCH_COMPAT it cannot honour: one line naming it, exit 1"
sb mode.lua --compat=1.0.19
is "$rc" 1 "--compat=1.0.19: exit 1"
like "$out" "^FATAL: Invalid value for --compat: 1.0.19 \(expected 1.0.20 \(exactly its output\) or off\)$" \
     "... with a line naming the option and what it takes"

# HINT lines: after 1.0.20's line as it is, none in the exact mode, wherever they come from
sb cpu run --threads=x
is "$err" "$(printf "Invalid value for the 'threads' option: 'x'\nHINT: --threads expects an integer")" \
   "a bad value: 1.0.20's line, then our HINT"
SYSBENCH_COMPAT=1.0.20 sb cpu run --threads=x
is "$err" "Invalid value for the 'threads' option: 'x'" "... exact: 1.0.20's line alone"
sb cpu run --threads=x --compat=1.0.20
is "$err" "Invalid value for the 'threads' option: 'x'" \
   "... also when --compat comes after the bad option on the command line"
sb cpu run --validate=maybe --compat=1.0.20
is "$err" "invalid option: --validate=maybe" "a boolean given a word: 1.0.20's line alone"
printf 'threads=x\n' > "$TEST_TMP/bad.cfg"
SYSBENCH_COMPAT=1.0.20 sb cpu run --config-file=bad.cfg
is "$out$err" "Invalid value for the 'threads' option: 'x'" \
   "a bad value in a config file: 1.0.20's line alone (no 'config file ... line' note)"
printf 'junk\n' > "$TEST_TMP/noeq.cfg"
SYSBENCH_COMPAT=1.0.20 sb cpu run --config-file=noeq.cfg --events=1 --cpu-max-prime=10
unlike "$out$err" "WARNING" "a config-file line without '=': skipped silently, as 1.0.20"
printf 'no-such-option=1\n' > "$TEST_TMP/unknown.cfg"
SYSBENCH_COMPAT=1.0.20 sb cpu run --config-file=unknown.cfg --events=1 --cpu-max-prime=10
unlike "$out$err" "WARNING" "a config-file name a compiled-in test does not use: silently, as 1.0.20"
write unknown.lua <<'LUA'
function event() end
LUA
SYSBENCH_COMPAT=1.0.20 sb unknown.lua run --config-file=unknown.cfg --events=1
like "$out" "^WARNING: Global option 'no_such_option' will not be exported, because the type is unknown$" \
     "... a Lua script's: 1.0.20's line"
unlike "$out" "HINT" "... without our HINT naming the file and line"
SYSBENCH_COMPAT=1.0.20 sb cpu run --config-file=missing.cfg
is "$err" "missing.cfg: No such file or directory" "an unreadable config file: 1.0.20's line alone"
write badopts.lua <<'LUA'
sysbench.cmdline.options = { bad = "not a table" }
function event() end
LUA
sb badopts.lua run
like "$out" "HINT: entry 'bad' must be" "a script's malformed options: our HINT ..."
SYSBENCH_COMPAT=1.0.20 sb badopts.lua run
unlike "$out" "HINT" "... none in the exact mode"
like "$out" "wrong table structure in sysbench.cmdline.options$" "... 1.0.20's message kept"
sb fileio run --file-test-mode=x
like "$out" "^FATAL: Invalid IO operations mode: x\.
HINT: --file-test-mode is one of" "fileio's bad --file-test-mode: 1.0.20's line, then our HINT"
SYSBENCH_COMPAT=1.0.20 sb fileio run --file-test-mode=x
unlike "$out" "HINT" "... no HINT in the exact mode"

# A line 1.0.20 prints in every thread (the same thread_init failure) is printed in every thread,
# folded by the logger as 1.0.20's; as it is, once
write same_fail.lua <<'LUA'
function thread_init() error("no table") end
function event() end
LUA
SYSBENCH_COMPAT=1.0.20 sb same_fail.lua run --threads=3 --events=1
is "$(printf '%s\n' "$out" | grep -A2 "function failed")" "FATAL: \`thread_init' function failed: same_fail.lua:1: no table
(last message repeated 2 times)
FATAL: Thread initialization failed!" "exact mode: the same thread_init failure of 3 threads, as 1.0.20 prints it"
sb same_fail.lua run --threads=3 --events=1
is "$(printf '%s\n' "$out" | grep -A1 "function failed")" "FATAL: \`thread_init' function failed: same_fail.lua:1: no table
FATAL: Thread initialization failed!" "... and once as it is"

# Help: our lines and blocks only as they are
sb oltp_read_write help --compat=1.0.20
unlike "$out" "--resume|--prepare_method|commands:" "a workload's help: 1.0.20's options alone"
sb --help --compat=1.0.20
unlike "$out" "--warmup-time|--compat|--show-script|tidb|rocksdb|Report options|Beyond sysbench" \
       "--help: none of ours"

# The predicate is one flag: an addition in Lua asks it the same way in every state
write states.lua <<'LUA'
function thread_init() print("worker", sysbench.tid, sysbench.output_exact()) end
function event() end
LUA
SYSBENCH_COMPAT=1.0.20 sb states.lua run --threads=2 --events=2
is "$(count "$out" "^worker	[01]	true$")" 2 "every worker's state sees the mode"

done_testing
