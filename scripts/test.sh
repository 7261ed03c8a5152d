#!/usr/bin/env bash
# test.sh: sets everything up and runs the whole test suite: the unit tests, the black-box
# tests of the binary, the live tests against a private MariaDB and RocksDB, and the unit
# and command-line tests again on an AddressSanitizer/UBSan build. Ends with one line
# "N passed, N failed[, N skipped]" and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)

bash scripts/setup.sh --test || { echo "0 passed, 1 failed"; exit 1; }
make -j"$(nproc)" check TESTS= >/dev/null || { echo "0 passed, 1 failed"; exit 1; }

# The sanitizer build lives beside the normal one (a VPATH build in build-asan/).
asan=build-asan
if [ ! -f $asan/Makefile ] || [ configure -nt $asan/Makefile ]; then
  mkdir -p $asan
  (cd $asan && ../configure --enable-sanitizers --enable-werror >/dev/null) || {
    echo "0 passed, 1 failed"; exit 1; }
fi
make -C $asan -j"$(nproc)" all check TESTS= >/dev/null || { echo "0 passed, 1 failed"; exit 1; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

total_p=0 total_f=0 total_s=0
summarize() {   # adds the counts of a run.sh summary line
  local line
  line=$(tail -1 "$1")
  local p f s
  p=$(echo "$line" | sed -nE 's/^([0-9]+) passed.*/\1/p')
  f=$(echo "$line" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')
  s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
  [ -n "$p" ] || { p=0; f=1; }
  total_p=$((total_p + p)); total_f=$((total_f + ${f:-0})); total_s=$((total_s + ${s:-0}))
}

log=$(mktemp)
echo "== main build"
tests/run.sh "$@" | tee "$log"
summarize "$log"
if [ $# -eq 0 ]; then
  echo "== sanitizer build (address, undefined)"
  tests/run.sh --sb $asan/src/sysbench --unit-dir $asan/tests/unit --only unit | tee "$log"
  summarize "$log"
  tests/run.sh --sb $asan/src/sysbench --only cli | tee "$log"
  summarize "$log"
fi
rm -f "$log"

if [ "$total_s" -gt 0 ]; then
  echo "$total_p passed, $total_f failed, $total_s skipped"
else
  echo "$total_p passed, $total_f failed"
fi
[ "$total_f" = 0 ]
