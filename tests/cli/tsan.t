#!/usr/bin/env bash
# tsan.t: no data race in the runner, the reporter, the rate schedule and the compiled-in
# tests at 1,000 threads. Builds src/sysbench-tsan (ThreadSanitizer; `make src/sysbench-tsan`,
# not part of `make check`) and runs each compiled-in test, and a Lua script through the
# reporter, warm-up, checkpoints and --rate, with 1,000 worker threads. Any ThreadSanitizer
# report fails the case; the report is shown.
. "$(dirname "$0")/../lib/tap.sh"

tsan="$SRCDIR/src/sysbench-tsan"

case $SB in
  *-asan)   # the ThreadSanitizer binary is built from the same sources; one run is enough
    skip "the ThreadSanitizer binary does not depend on the binary under test (ran with src/sysbench)"
    done_testing
    exit ;;
esac

build_log=$(make -C "$SRCDIR" -s src/sysbench-tsan 2>&1)
is "$?" 0 "make src/sysbench-tsan builds the ThreadSanitizer binary"
[ -x "$tsan" ] || { printf '%s\n' "$build_log" | sed 's/^/# /' | tail -20; done_testing; exit; }

# halt_on_error: the first race ends the run with a report, so a failure is quick to read
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$SRCDIR/tests/lib/tsan.supp"

# race_free NAME ARGS...: runs the ThreadSanitizer binary; no race report, exit 0, a report
race_free() {
  local name=$1 o="$TEST_TMP/tsan.out"
  shift
  (cd "$TEST_TMP" && "$tsan" "$@") >"$o" 2>&1
  local status=$?
  if grep -q "WARNING: ThreadSanitizer" "$o"; then
    _tap_result 0 "$name: no data race" "$(grep -A24 -m1 "WARNING: ThreadSanitizer" "$o")"
  else
    _tap_result 1 "$name: no data race"
  fi
  is "$status" 0 "$name: exits 0"
  like "$(cat "$o")" "total number of events: +[1-9]" "$name: the report counts the events"
}

# Event budgets rather than --time where the case allows: "the report counts the events" must
# not depend on how much of a second a loaded machine gives 1,000 sanitized threads.
threads=1000
race_free "cpu" cpu --threads=$threads --time=0 --events=3000 --cpu-max-prime=2000 --report-interval=1 run
race_free "threads" threads --threads=$threads --time=0 --events=3000 --thread-locks=4 run
race_free "mutex" mutex --threads=$threads --mutex-num=64 --mutex-locks=500 --mutex-loops=100 run
race_free "memory, one shared block" memory --threads=$threads --time=0 --memory-total-size=32M run
race_free "memory, blocks of their own, random reads" memory --threads=$threads --time=0 \
  --memory-scope=local --memory-oper=read --memory-access-mode=rnd --memory-total-size=32M run
(cd "$TEST_TMP" && "$SB" fileio --file-num=4 --file-total-size=8M prepare >/dev/null)
race_free "fileio" fileio --threads=$threads --time=0 --events=3000 --file-num=4 --file-total-size=8M \
  --file-test-mode=rndrw run
race_free "fileio async" fileio --threads=100 --time=0 --events=3000 --file-num=4 --file-total-size=8M \
  --file-test-mode=rndrd --file-io-mode=async run

write events.lua <<'LUA'
function event()
  local n = sysbench.rand.uniform(1, 1000) + sysbench.rand.gaussian(1, 1000)
end
LUA
race_free "a Lua script with reports, warm-up and checkpoints" events.lua --threads=$threads \
  --time=2 --warmup-time=0.5 --report-interval=0.5 --report-checkpoints=1 --percentile=99 run
race_free "a Lua script under --rate" events.lua --threads=$threads --time=0 --events=2000 --rate=2000 \
  --report-interval=1 run

done_testing
