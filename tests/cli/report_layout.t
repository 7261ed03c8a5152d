#!/usr/bin/env bash
# report_layout.t: the whole default output of `run`, line by line, with numbers masked: a Lua
# test without a database, cpu, and a --rate run with intermediate reports. The expected texts
# are Debian's sysbench 1.0.20 output put through the same mask (same lines, same spacing, same
# blank lines); tools that parse sysbench's output must be able to parse ours.
. "$(dirname "$0")/../lib/tap.sh"

printf 'function event() end\n' | write empty.lua

sb empty.lua run --events=100 --time=0
is "$(mask "$out")" "sysbench N.N (using system LuaJIT N.N-betaN)

Running the test with following options:
Number of threads: N
Initializing random number generator from current time


Initializing worker threads...

Threads started!


General statistics:
    total time:                          Ns
    total number of events:              N

Latency (ms):
         min: N
         avg: N
         max: N
         Nth percentile: N
         sum: N

Threads fairness:
    events (avg/stddev):           N/N
    execution time (avg/stddev):   N/N" "the report of a Lua test without a database is 1.0.20's"
is "$(tail -n 2 "$TEST_TMP/.out" | sed -E 's/[0-9.]+/N/g' | tr '\n' '|')" \
   "    execution time (avg/stddev):   N/N||" "... ending with the fairness line and one blank line"
widths=$(printf '%s\n' "$out" | grep -E '^ +(min|avg|max|sum|[0-9]+th percentile):' | awk '{print length($0)}' | sort -u)
is "$widths" 53 "latency lines are right-aligned to 53 columns (%39.2f / %27.2f)"

sb cpu run --events=100 --time=0 --threads=2 --cpu-max-prime=2000
is "$(mask "$out")" "sysbench N.N (using system LuaJIT N.N-betaN)

Running the test with following options:
Number of threads: N
Initializing random number generator from current time


Prime numbers limit: N

Initializing worker threads...

Threads started!

CPU speed:
    events per second: N

General statistics:
    total time:                          Ns
    total number of events:              N

Latency (ms):
         min: N
         avg: N
         max: N
         Nth percentile: N
         sum: N

Threads fairness:
    events (avg/stddev):           N/N
    execution time (avg/stddev):   N/N" "the cpu report is 1.0.20's"
like "$out" "^    events per second: +[0-9]+\.[0-9]{2}$" "'events per second: %8.2f'"
like "$out" "^    total time: {26}[0-9]+\.[0-9]{4}s$" "'total time: %.4fs' at column 42"
like "$out" "^    total number of events: {14}100$" "'total number of events:' at column 42"
like "$out" "^    events \(avg/stddev\): {11}50\.0000/[0-9]+\.[0-9]{2}$" "fairness '%.4f/%3.2f'"

sb empty.lua run --time=1 --report-interval=1 --rate=100 --threads=2 --percentile=99
run_mask=$(mask "$out" | sed '/^\[ Ns \]/d')
is "$run_mask" "sysbench N.N (using system LuaJIT N.N-betaN)

Running the test with following options:
Number of threads: N
Target transaction rate: N/sec
Report intermediate results every N second(s)
Initializing random number generator from current time


Initializing worker threads...

Threads started!


General statistics:
    total time:                          Ns
    total number of events:              N

Latency (ms):
         min: N
         avg: N
         max: N
         Nth percentile: N
         sum: N

Threads fairness:
    events (avg/stddev):           N/N
    execution time (avg/stddev):   N/N" "a --rate run with intermediate reports has 1.0.20's layout"
is "$(mask "$out" | grep '^\[ Ns \]' | head -2)" "[ Ns ] thds: N eps: N lat (ms,N%): N
[ Ns ] queue length: N concurrency: N" "... its intermediate lines included"

sb empty.lua run --events=10 --time=0 --percentile=0 --rand-seed=5 --debug
# (at --verbosity=5 our name follows 1.0.20's header: tests/cli/version.t)
debug_mask=$(mask "$out" | grep -v '^DEBUG: Worker thread' | grep -v '^sysbench-rebuilt ')
is "$debug_mask" "sysbench N.N (using system LuaJIT N.N-betaN)

Running the test with following options:
Number of threads: N
Debug mode enabled.

Initializing random number generator from seed (N).


Initializing worker threads...

Threads started!

Event limit exceeded, exiting...
Done.


General statistics:
    total time:                          Ns
    total number of events:              N

Latency (ms):
         min: N
         avg: N
         max: N
         percentile stats:               disabled
         sum: N

Threads fairness:
    events (avg/stddev):           N/N
    execution time (avg/stddev):   N/N

DEBUG: Verbose per-thread statistics:

DEBUG:     thread #  N: min: Ns  avg: Ns  max: Ns  events: N
DEBUG:                  total time taken by event execution: Ns" \
   "--debug with --rand-seed and --percentile=0 prints 1.0.20's lines"

sb empty.lua run --events=10 --time=0 --validate
is "$(mask "$out" | sed -n '3,7p')" "Running the test with following options:
Number of threads: N
Validation checks: on.

Initializing random number generator from current time" "--validate adds 1.0.20's 'Validation checks: on.'"

if have_ref; then
  for args in "empty.lua run --events=100 --time=0" "cpu run --events=50 --time=0 --threads=2" \
              "empty.lua run --events=10 --time=0 --histogram --percentile=50"; do
    sb $args
    ours=$(mask "$out" | grep -vE '^ +[0-9N.]+ \|')
    ref $args
    theirs=$(mask "$out" | grep -vE '^ +[0-9N.]+ \|')
    is "$ours" "$theirs" "side by side with the reference: sysbench $args"
  done
else
  skip "reference sysbench not installed"
fi

done_testing
