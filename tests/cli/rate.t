#!/usr/bin/env bash
# rate.t: --rate: events arrive on a Poisson schedule at the target rate, the queue line follows
# each intermediate line, an event's latency counts from its scheduled start (so queueing behind
# slow events shows), and a queue that overflows is 1.0.20's fatal error. Bounds are generous.
# The schedule's arithmetic (arrivals at the rate, the queue's size and order) is unit-tested
# in tests/unit/test_rate.c, an event's start at its scheduled time in test_worker_events.c.
. "$(dirname "$0")/../lib/tap.sh"

write sleep.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
local sleep_us = tonumber(os.getenv("SLEEP_US") or 0)
function event() if sleep_us > 0 then ffi.C.usleep(sleep_us) end end
LUA

sb sleep.lua run --rate=400 --time=1 --threads=2 --report-interval=1
is "$rc" 0 "a --rate run succeeds"
like "$out" "^Target transaction rate: 400/sec$" "--rate is announced: 'Target transaction rate: 400/sec'"
events=$(field "$out" "total number of events:")
# How many of the ~400 arrivals run depends on the machine; more than the schedule makes
# cannot (Poisson(400) above 520 is a 6-sigma event).
num_cmp "$events" ">" 0 "--rate=400 for 1 s runs events ($events)"
num_cmp "$events" "<=" 520 "... not more than the schedule's ~400 ($events)"
like "$out" '^\[ 1s \] thds: 2 eps: [0-9]+\.[0-9]{2} lat \(ms,95%\): [0-9]+\.[0-9]{2}$' \
     "intermediate line under --rate"
like "$out" '^\[ 1s \] queue length: [0-9]+ concurrency: [0-9]+$' \
     "... followed by '[ 1s ] queue length: N concurrency: N' (no comma, as in 1.0.20)"
is "$(count "$out" 'queue length:')" "$(count "$out" 'thds:')" "one queue line per intermediate line"

sb sleep.lua run --rate=100 --events=50 --time=0
like "$out" "total number of events: +50$" "--rate with --events runs exactly that many"
num_cmp "$(field "$out" "total time:")" ">" 0.2 "... at the target pace (~0.5 s for 50 events at 100/s)"

# 100 events/s asked, one thread that manages 50/s: the backlog grows, and so does latency.
SLEEP_US=20000 sb sleep.lua run --rate=100 --time=2 --threads=1 --report-interval=1
lat1=$(field "$out" '^\[ 1s \] thds: 1 eps: [0-9.]+ lat \(ms,95%\):')
lat2=$(field "$out" '^\[ 2s \] thds: 1 eps: [0-9.]+ lat \(ms,95%\):')
q1=$(field "$out" '^\[ 1s \] queue length:')
q2=$(field "$out" '^\[ 2s \] queue length:')
num_cmp "$lat2" ">" "$lat1" "latency grows with the backlog: 95th at 1 s $lat1 ms, at 2 s $lat2 ms"
num_cmp "$lat2" ">" 200 "latency counts from the scheduled start, queueing included ($lat2 ms >> 20 ms)"
num_cmp "$q2" ">" "$q1" "the queue length grows ($q1 -> $q2)"
like "$out" '^\[ 1s \] queue length: [0-9]+ concurrency: 1$' "concurrency is the one busy thread"
num_cmp "$(field "$out" "avg:")" ">" 100 "the final report's average latency includes the waiting"
eps=$(field "$out" '^\[ 2s \] thds: 1 eps:')
num_cmp "$eps" "<" 60 "throughput is what the thread manages (~50/s, got $eps)"

# 200000 events/s on one thread sleeping 20 ms per event: the 131072-entry queue overflows.
SLEEP_US=20000 sb sleep.lua run --rate=200000 --time=10 --threads=1
is "$rc" 1 "an overflowing event queue exits 1"
like "$out" "^FATAL: The event queue is full. This means the worker threads are unable to keep up with the specified event generation rate$" \
     "... with 1.0.20's 'The event queue is full' line"
num_cmp "$(field "$out" "total time:")" "<" 5 "... long before --time ends"

done_testing
