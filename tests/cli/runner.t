#!/usr/bin/env bash
# runner.t: how `run` runs: exact --events counts with several threads, --time limits,
# intermediate report lines (also every 0.5 s), --histogram, --percentile, percentiles within
# [min, max], --rand-seed reproducing every thread's random numbers, the total time as the
# time the events ran (not --time, not the threads' teardown), and no retry of a failed event
# once the time is up. Timing bounds are generous: the suite runs on small, busy machines.
# The timing rules themselves (deadline, report ticks, the --events batches) are unit-tested
# with a fake clock (tests/unit/test_run_timeline.c, test_worker_events.c); here they run
# end to end, briefly.
. "$(dirname "$0")/../lib/tap.sh"

write count.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
local n = 0
local sleep_us = tonumber(os.getenv("SLEEP_US") or 0)
function event() n = n + 1; if sleep_us > 0 then ffi.C.usleep(sleep_us) end end
function thread_done(tid) print("thread " .. tid .. " ran " .. n) end
LUA
lua_total() { printf '%s\n' "$out" | awk '/^thread [0-9]+ ran/ {s += $4} END {print s + 0}'; }

for spec in "1000 4" "7 4" "1 3" "100000 2"; do
  set -- $spec
  sb count.lua run --events=$1 --threads=$2 --time=0
  like "$out" "total number of events: +$1$" "--events=$1 with $2 threads reports exactly $1 events"
  is "$(lua_total)" "$1" "... and event() ran exactly $1 times in all"
done
sb cpu run --events=50 --threads=3 --time=0 --cpu-max-prime=1000
like "$out" "total number of events: +50$" "--events is exact for compiled-in tests too"
like "$out" "events \(avg/stddev\): +16\.6667/" "fairness: 50 events over 3 threads average 16.6667"

SLEEP_US=1000 sb count.lua run --time=1 --threads=2 --events=100000000
secs=$(field "$out" "total time:")
num_cmp "$secs" ">=" 0.9 "--time=1 runs at least ~1 s (total time $secs s)"
num_cmp "$secs" "<=" 2.5 "--time=1 stops soon after 1 s, --events=100000000 or not (total time $secs s)"
num_cmp "$(field "$out" "total number of events:")" ">" 100 "--time=1 ran events all along"
sb count.lua run --time=0 --events=20
num_cmp "$(field "$out" "total number of events:")" "==" 20 "--time=0 means no time limit"

# The report's total time is how long the events ran: from the start to the end of the last
# event, whatever --time said and however long the threads take to finish after it. Checked
# against the time this test measures, and against sleeps that cannot be shorter than asked:
# nothing here depends on the machine's speed.
wall_sb() {   # wall_sb ARGS...: sb, and $wall = the seconds the process took
  local start end
  start=$(date +%s.%N)
  sb "$@"
  end=$(date +%s.%N)
  wall=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
}
write long_events.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
function event() ffi.C.usleep(1200000) end
LUA
wall_sb long_events.lua run --time=1 --threads=2
secs=$(field "$out" "total time:")
is "$(field "$out" "total number of events:")" 2 \
   "events of 1.2 s with --time=1: each thread finishes the one it started, none starts after"
num_cmp "$secs" ">=" 1.2 "... and the total time is the 1.2 s they ran, not --time ($secs s)"
num_cmp "$secs" "<=" "$wall" "... and no more than the process lived ($wall s)"

write slow_done.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
function event() ffi.C.usleep(10000) end
function thread_done() ffi.C.usleep(1000000) end
LUA
wall_sb slow_done.lua run --time=0.5 --threads=2
secs=$(field "$out" "total time:")
num_cmp "$secs" ">=" 0.5 "a thread_done of 1 s: the total time still covers --time=0.5 ($secs s)"
num_cmp "$secs" "<=" "$(awk -v w="$wall" 'BEGIN { print w - 1 }')" \
        "... but not the 1 s thread_done took after the last event (process: $wall s)"

# An event that fails with an ignorable error is run again, but not once the time is up: it
# ends uncounted (1.0.20 retries it forever; --forced-shutdown bounds this case if it did).
write retry_late.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
local tries = 0
function event()
  tries = tries + 1
  ffi.C.usleep(1200000)
  error({errcode = sysbench.error.RESTART_EVENT})
end
function thread_done() print("tries " .. tries) end
LUA
sb retry_late.lua run --time=1 --forced-shutdown=5
is "$rc/$(printf '%s\n' "$out" | grep -c '^tries 1$')/$(field "$out" "total number of events:")" "0/1/0" \
   "an event failing ignorably past --time is not run again: exit 0, one try, no event counted"

write ends.lua <<'LUA'
function event() return true end
LUA
sb ends.lua run --time=0 --events=0
like "$out" "^WARNING: Both event and time limits are disabled, running an endless test$" \
     "--time=0 --events=0 warns about an endless test"

# ---- intermediate reports -----------------------------------------------------------------

SLEEP_US=2000 sb count.lua run --time=2 --threads=2 --report-interval=1
like "$out" "^Report intermediate results every 1 second\(s\)$" "--report-interval is announced"
is "$(count "$out" '^\[ [0-9]+s \] thds: ')" 2 \
   "--time=2 --report-interval=1 prints 2 intermediate lines, the one at 2 s included"
like "$out" '^\[ 1s \] thds: 2 eps: [0-9]+\.[0-9]{2} lat \(ms,95%\): [0-9]+\.[0-9]{2}$' \
     "intermediate line: '[ 1s ] thds: 2 eps: X.XX lat (ms,95%): Y.YY'"
eps=$(field "$out" '^\[ 1s \] thds: 2 eps:')
num_cmp "$eps" ">" 200 "the interval rate is per second of the interval (eps $eps, ~1000 expected)"
num_cmp "$eps" "<" 1100 "... and not cumulative (eps $eps)"
num_cmp "$(line_of "$out" '^\[ 1s \]')" "<" "$(line_of "$out" '^\[ 2s \]')" "lines come in time order"

SLEEP_US=2000 sb count.lua run --time=1 --report-interval=0.5 --percentile=99
like "$out" "^Report intermediate results every 0.5 second\(s\)$" "a fractional --report-interval is announced"
is "$(printf '%s\n' "$out" | grep -oE '^\[ [0-9.]+s \]' | tr '\n' ' ')" \
   "[ 0.5s ] [ 1.0s ] " "--report-interval=0.5 stamps lines [ 0.5s ], [ 1.0s ]"
like "$out" '^\[ 0\.5s \] thds: 1 eps: [0-9.]+ lat \(ms,99%\): [0-9.]+$' "the line shows --percentile=99"
like "$out" "^ +99th percentile: +[0-9.]+$" "the final report shows the 99th percentile"

# ---- percentiles and histogram ------------------------------------------------------------

SLEEP_US=3000 sb count.lua run --events=1 --time=0
min=$(field "$out" "min:"); max=$(field "$out" "max:"); pct=$(field "$out" "95th percentile:")
is "$pct" "$max" "with one event the 95th percentile is that event's latency ($max ms)"
is "$min" "$max" "... as are min and max"

write mixed.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
local n = 0
function event() n = n + 1; ffi.C.usleep(n % 10 == 0 and 20000 or 1000) end
LUA
sb mixed.lua run --events=100 --time=0 --percentile=99
min=$(field "$out" "min:"); max=$(field "$out" "max:"); pct=$(field "$out" "99th percentile:")
num_cmp "$pct" ">=" "$min" "the percentile is never below the minimum ($pct >= $min)"
num_cmp "$pct" "<=" "$max" "the percentile is never above the maximum ($pct <= $max)"
num_cmp "$pct" ">" 15 "the 99th percentile of 10% slow events is a slow one ($pct ms)"

sb mixed.lua run --events=20 --time=0 --percentile=0
like "$out" "^         percentile stats:               disabled$" \
     "--percentile=0 prints 'percentile stats: disabled'"

sb mixed.lua run --events=30 --time=0 --histogram
like "$out" "^Latency histogram \(values are in milliseconds\)$" "--histogram prints its title"
like "$out" "^       value  ------------- distribution ------------- count$" "... 1.0's column header"
rows=$(printf '%s\n' "$out" | sed -n '/^       value/,/^ $/p' | sed '1d;$d')
is "$(printf '%s\n' "$rows" | grep -cvE '^ +[0-9]+\.[0-9]{3} \|\**( )* [0-9]+$')" 0 \
   "every histogram row reads '%12.3f |stars count'"
is "$(printf '%s\n' "$rows" | awk '{s += $NF} END {print s}')" 30 "the rows count all 30 events"
like "$rows" '^ +[0-9]+\.[0-9]{3} \|\*{40} [0-9]+$' "the fullest row has 40 stars"
num_cmp "$(line_of "$out" '^ $')" "<" "$(line_of "$out" '^General statistics:')" \
        "the histogram ends with a line holding one space, before the report"

# ---- --rand-seed --------------------------------------------------------------------------

write seed.lua <<'LUA'
local seq = {}
function thread_init()
  for i = 1, 5 do seq[i] = sysbench.rand.uniform(1, 1000000000) end
  seq[6] = sysbench.rand.string("@@@@@@@@")
  seq[7] = sysbench.rand.uniform_double()
end
function event() sysbench.rand.default(1, 100) end
function thread_done(tid) print("seq " .. tid .. ": " .. table.concat(seq, " ")) end
LUA
sb seed.lua run --threads=4 --events=1000 --time=0 --rand-seed=42
first=$(printf '%s\n' "$out" | grep '^seq' | sort)
like "$out" "^Initializing random number generator from seed \(42\)\.$" \
     "--rand-seed=42 prints 'Initializing random number generator from seed (42).'"
sb seed.lua run --threads=4 --events=1000 --time=0 --rand-seed=42
second=$(printf '%s\n' "$out" | grep '^seq' | sort)
is "$(count "$first" '^seq')" 4 "each of 4 threads printed its sequence"
is "$second" "$first" "--rand-seed=42 gives every thread the same numbers in two runs"
is "$(printf '%s\n' "$first" | cut -d: -f2 | sort -u | wc -l | tr -d ' ')" 4 \
   "... and the threads' sequences differ from each other"
sb seed.lua run --threads=4 --events=1000 --time=0
third=$(printf '%s\n' "$out" | grep '^seq' | sort)
like "$out" "^Initializing random number generator from current time$" \
     "without --rand-seed: 'Initializing random number generator from current time'"
sb seed.lua run --threads=4 --events=1000 --time=0
[ "$third" != "$(printf '%s\n' "$out" | grep '^seq' | sort)" ]
status_ok $? "without --rand-seed two runs draw different numbers"
sb seed.lua run --threads=2 --events=10 --time=0 --rand-seed=42
is "$(printf '%s\n' "$out" | grep '^seq' | sort)" "$(printf '%s\n' "$first" | head -2)" \
   "a thread's numbers depend on the seed and its id, not on the number of threads"

done_testing
