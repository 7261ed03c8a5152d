#!/usr/bin/env bash
# test.sh [PATTERN]: sets everything up and runs the whole test suite: the unit tests (also
# built with AddressSanitizer and UBSan), the black-box tests of the binary, the same
# command-line and fault tests on the sanitizer binary, and the live tests against private
# MariaDB and PostgreSQL servers and RocksDB. Ends with one line "N passed, N failed[, N
# skipped][, N todo]" and exits non-zero on any failure (a todo, a known failure, is none).
set -uo pipefail
cd "$(dirname "$0")/.."

fail_setup() { echo "setup failed: $1"; echo "0 passed, 1 failed"; exit 1; }

bash scripts/setup.sh --test || fail_setup "scripts/setup.sh"
make -j"$(nproc)" check TESTS= >/dev/null || fail_setup "make check (build of tests)"

# LuaJIT's own allocator and the client libraries keep memory until exit; leaks are not what
# the sanitizer run is for.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

total_p=0 total_f=0 total_s=0 total_t=0
add_counts() {   # add_counts LOGFILE: adds the counts of its last line
  local line p f s t
  line=$(tail -1 "$1")
  p=$(echo "$line" | sed -nE 's/^([0-9]+) passed.*/\1/p')
  f=$(echo "$line" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')
  s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
  t=$(echo "$line" | sed -nE 's/.* ([0-9]+) todo.*/\1/p')
  if [ -z "$p" ]; then p=0; f=1; fi
  total_p=$((total_p + p)); total_f=$((total_f + ${f:-0})); total_s=$((total_s + ${s:-0}))
  total_t=$((total_t + ${t:-0}))
}

# One pool for everything: the plain binary on every test, the sanitizer binary (AddressSanitizer
# + UBSan) again on the command-line and fault tests.
log=$(mktemp)
tests/run.sh --also src/sysbench-asan:cli,faults "$@" | tee "$log"
add_counts "$log"
rm -f "$log"

summary="$total_p passed, $total_f failed"
[ "$total_s" -gt 0 ] && summary+=", $total_s skipped"
[ "$total_t" -gt 0 ] && summary+=", $total_t todo"
echo "$summary"
[ "$total_f" = 0 ]
