#!/usr/bin/env bash
# checkpoints_warmup.t: --report-checkpoints prints "[ Ns ] Checkpoint report:" with a full
# cumulative report and resets the statistics (as 1.0.20); --warmup-time (master's) runs
# events first without counting them and starts the reports after the warm-up. When reports
# and checkpoints are due and how the warm-up moves the deadline is the timeline's rule,
# tested with a fake clock in tests/unit/test_run_timeline.c; here, a few runs end to end.
. "$(dirname "$0")/../lib/tap.sh"

write count.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
local n = 0
function event() n = n + 1; ffi.C.usleep(2000) end
function thread_done(tid) print("thread " .. tid .. " ran " .. n) end
LUA
lua_total() { printf '%s\n' "$out" | awk '/^thread [0-9]+ ran/ {s += $4} END {print s + 0}'; }

# ---- checkpoints --------------------------------------------------------------------------

# One run of 1.5 s with checkpoints at 0.5 and 1 s (given out of order), intermediate
# reports every 0.5 s and --histogram: three periods of about 0.5 s each.
sb count.lua run --time=1.5 --report-checkpoints=1,0.5 --report-interval=0.5 --histogram
is "$rc" 0 "a run with checkpoints succeeds"
like "$out" "^Report checkpoint\(s\) at 0.5, 1 seconds$" \
     "the checkpoints are announced in order: 'Report checkpoint(s) at 0.5, 1 seconds'"
like "$out" "^\[ 0\.5s \] Checkpoint report:$" \
     "a fractional checkpoint is stamped '[ 0.5s ]' (1.0.20 takes whole seconds only)"
like "$out" "^\[ 1\.0s \] Checkpoint report:$" "'[ 1.0s ] Checkpoint report:' at 1 s"
is "$(count "$out" '^General statistics:')" 3 "each checkpoint prints a full report, then the final one"
is "$(count "$out" '^Threads fairness:')" 3 "... down to the fairness block"
cp1=$(printf '%s\n' "$out" | sed -n '/\[ 0\.5s \] Checkpoint report:/,/Threads fairness/p')
like "$cp1" "^Latency \(ms\):$" "a checkpoint report has the latency block"
events=$(printf '%s\n' "$out" | awk '/total number of events:/ {print $NF}' | tr '\n' ' ')
set -- $events
total=$(lua_total)
# Counts, not rates: how many events fit in half a second depends on the machine's load, but
# without the reset the final report would count every event, and the three reports would add
# up to more than ran.
num_cmp "$1" ">" 0 "checkpoint 1 counts the first half second's events ($1)"
num_cmp "$3" "<" "$total" "the final report counts only events since the last checkpoint ($3 of $total)"
is "$(( $1 + $2 + $3 ))" "$total" "the three periods add up to every event that ran: each counts only its own"
num_cmp "$(printf '%s\n' "$out" | awk '/total time:/ {print $NF}' | sed -n 2p | tr -d s)" ">" 0.75 \
        "a checkpoint's 'total time' is the time since the start (1 s, not its 0.5 s), as in 1.0.20"
fair=$(printf '%s\n' "$out" | sed -nE 's/.*execution time \(avg\/stddev\): +([0-9.]+)\/.*/\1/p' | sed -n 2p)
num_cmp "$fair" "<" 0.75 "a checkpoint's execution time covers its own period only ($fair s)"
is "$(count "$out" '^\[ [0-9.]+s \] thds:')" 3 "intermediate reports go on around checkpoints"
is "$(count "$out" '^Latency histogram')" 1 "--histogram is printed with the final report only, as in 1.0.20"
num_cmp "$(line_of "$out" '^Latency histogram')" ">" "$(line_of "$out" '1\.0s \] Checkpoint report:')" \
        "... after the checkpoints"

# ---- warm-up ------------------------------------------------------------------------------

sb count.lua run --warmup-time=1 --time=1 --threads=2 --report-interval=1
is "$rc" 0 "a run with --warmup-time succeeds"
like "$out" "^Warming up for 1 seconds\.\.\.$" "the warm-up is announced"
reported=$(field "$out" "total number of events:")
ran=$(lua_total)
num_cmp "$reported" "<" "$ran" \
        "warm-up events are not in the statistics ($reported reported of $ran run)"
num_cmp "$reported" ">" 0 "... the measured second is ($reported of $ran)"
secs=$(field "$out" "total time:")
# With the warm-up in it, 'total time' would be at least its 1 s plus the measured 1 s.
num_cmp "$secs" "<" 2 "'total time' excludes the warm-up ($secs s)"
is "$(printf '%s\n' "$out" | grep -oE '^\[ [0-9]+s \] thds' | tr '\n' ' ')" "[ 1s ] thds " \
   "intermediate reports start after the warm-up: one line for one measured second"
num_cmp "$(line_of "$out" '^Warming up')" "<" "$(line_of "$out" '^\[ 1s \]')" \
        "the first report comes after the warm-up message"

sb count.lua run --warmup-time=1 --events=100 --threads=2 --time=0
like "$out" "total number of events: +100$" "--events counts measured events only: exactly 100"
num_cmp "$(lua_total)" ">" 100 "... on top of the warm-up's ($(lua_total) ran)"

# The queries of an event begun during the warm-up are not measured either, even those it runs
# after the warm-up ended: every measured event ran exactly its 20 queries (a dry run counts
# each as "other").
write twenty.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
function thread_init() con = sysbench.sql.driver():connect() end
function event()
  for i = 1, 20 do con:query("SELECT 1"); ffi.C.usleep(200) end
end
LUA
sb twenty.lua run --mysql-dry-run --warmup-time=0.5 --time=1 --threads=2
events=$(field "$out" "total number of events:")
queries=$(field "$out" "    queries:")
is "$rc/$queries" "0/$(( events * 20 ))" \
   "with --warmup-time, queries are exactly 20 per measured event ($events events)"

# ---- the Lua reporters' times ------------------------------------------------------------

# The line reporters in one intermediate hook (report_json's output does not end its lines,
# so it runs alone): each stamps the same ticks.
write reporters.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
function event() ffi.C.usleep(2000) end
function sysbench.hooks.report_intermediate(stat)
  sysbench.report_csv(stat)
  sysbench.report_default(stat)
end
LUA
sb reporters.lua run --time=1.1 --report-interval=0.5
is "$(printf '%s\n' "$out" | grep -oE '^[0-9.]+,' | tr -d '\n')" "0.5,1.0," \
   "report_csv prints the text reporter's times for --report-interval=0.5"
is "$(printf '%s\n' "$out" | grep -oE '^\[ [0-9.]+s \]' | tr '\n' ' ')" "[ 0.5s ] [ 1.0s ] " \
   "... and so does report_default"
write json.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
function event() ffi.C.usleep(2000) end
sysbench.hooks.report_intermediate = sysbench.report_json
LUA
sb json.lua run --time=1.1 --report-interval=0.5
is "$(printf '%s\n' "$out" | sed -nE 's/^ *"time": *([0-9.]+),$/\1/p' | tr '\n' ' ')" "0.5 1.0 " \
   "report_json prints the same times"
sb reporters.lua run --time=1 --report-interval=1
is "$(printf '%s\n' "$out" | grep -oE '^[0-9.]+,' | tr -d '\n')" "1," \
   "... and whole seconds for whole-second intervals, as 1.0.20"

done_testing
