#!/usr/bin/env bash
# fuzz_parser.t: the command-line and config-file parser survives arbitrary input. Builds the
# libFuzzer target tests/fuzz/fuzz_parser (`make fuzz`: clang, AddressSanitizer, UBSan),
# replays the seed and regression corpus tests/fuzz/corpus/parser, then fuzzes for a bounded
# time: 60 s in CI (CI=true), 10 s otherwise, or FUZZ_SECONDS. Any crash, leak, sanitizer
# report or hang fails the test. The target reads config files from memory and its messages
# never reach the terminal; new inputs and crash files go to this test's scratch directory
# (a crash file is what to add to the corpus as a regression case).
. "$(dirname "$0")/../lib/tap.sh"

if [ "${CI:-}" = true ]; then seconds=${FUZZ_SECONDS:-60}; else seconds=${FUZZ_SECONDS:-10}; fi
corpus="$SRCDIR/tests/fuzz/corpus/parser"
fuzzer="$SRCDIR/tests/fuzz/fuzz_parser"

case $SB in
  *-asan)   # the target does not run $SB; scripts/test.sh ran it with the plain binary
    skip "the fuzz target does not depend on the binary under test (ran with src/sysbench)"
    done_testing
    exit ;;
esac

if ! command -v clang >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then
    _tap_result 0 "clang is installed" "scripts/setup.sh --test installs clang and libclang-rt-dev"
  else
    skip "clang not installed (scripts/setup.sh --test installs clang and libclang-rt-dev)"
  fi
  done_testing
  exit
fi

build_log=$(make -C "$SRCDIR" -s fuzz 2>&1)
is "$?" 0 "make fuzz builds the parser's fuzz target"
[ -x "$fuzzer" ] || { printf '%s\n' "$build_log" | sed 's/^/# /' | tail -20; done_testing; exit; }

# no_error_report LOG NAME: the fuzzer's log shows no crash, leak, UB or hang
no_error_report() {
  unlike "$(cat "$1")" "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY: |==[0-9]+==ABORTING" \
         "$2: no sanitizer or libFuzzer error"
}

# Every seed and regression input once (-runs=0 runs the corpus and stops).
(cd "$TEST_TMP" && "$fuzzer" -runs=0 -max_len=16384 -timeout=10 "$corpus") \
  >"$TEST_TMP/replay.log" 2>&1
is "$?" 0 "the corpus replays without a failure ($(ls "$corpus" | wc -l) inputs)"
no_error_report "$TEST_TMP/replay.log" "corpus replay"

mkdir -p "$TEST_TMP/new" "$TEST_TMP/artifacts"
(cd "$TEST_TMP" && "$fuzzer" -max_total_time="$seconds" -max_len=16384 -timeout=10 \
   -rss_limit_mb=2048 -artifact_prefix="$TEST_TMP/artifacts/" "$TEST_TMP/new" "$corpus") \
  >"$TEST_TMP/fuzz.log" 2>&1
status=$?
is "$status" 0 "$seconds s of fuzzing end cleanly"
no_error_report "$TEST_TMP/fuzz.log" "fuzzing"
is "$(ls "$TEST_TMP/artifacts" | wc -l)" 0 "no crash, leak or timeout input was written"
if [ "$status" != 0 ]; then
  grep -E "ERROR|SUMMARY|runtime error|#[0-9]+ " "$TEST_TMP/fuzz.log" | head -30 | sed 's/^/# /'
  for f in "$TEST_TMP/artifacts"/*; do
    [ -f "$f" ] && echo "# input $(basename "$f"): $(od -c "$f" | head -5 | tr '\n' ' ')"
  done
fi
runs=$(sed -nE 's/^Done ([0-9]+) runs.*/\1/p' "$TEST_TMP/fuzz.log")
# How many inputs fit in the time depends on the load; that it ran and ended cleanly does not.
num_cmp "${runs:-0}" ">" 0 "the fuzzer ran (${runs:-0} inputs)"
# our messages start their lines; the sanitizer's own notes ("==N==WARNING: invalid path to
# external symbolizer!" where llvm-symbolizer is missing) are not the parser's
unlike "$(cat "$TEST_TMP/fuzz.log")" "(^|[[:space:]])(FATAL: |WARNING: |HINT: |Invalid value|invalid option)" \
       "the parser's messages stay off the terminal (-close_fd_mask=3)"

done_testing
