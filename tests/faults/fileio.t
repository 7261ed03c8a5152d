#!/usr/bin/env bash
# fileio.t: the disk filling up under fileio, on a private 1.5 MiB tmpfs where 2 files of 1 MiB
# do not fit, compared with sysbench 1.0.20 in the same situation:
#   - prepare: 1.0.20's line, a HINT naming the directory, the file and the sizes, exit 1, and
#     on disk what 1.0.20 leaves (test_file.0 whole, test_file.1 half written); a run on them
#     refuses the short file as 1.0.20; a prepare with room again keeps the whole file and
#     extends the other;
#   - run: seqwr filling the disk in each --file-io-mode: 1.0.20's FATAL lines and exit code,
#     the files left as 1.0.20 leaves them; async says which write failed (1.0.20 adds a line
#     with errno 0), mmap names the file and position where 1.0.20 dies of SIGBUS.
# Mounting needs root: elsewhere the checks are skipped, and in CI (CI=true) that fails.
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/mounts.sh"
. "$SRCDIR/tests/lib/compat.sh"

files_left() {   # files_left DIR: "name size" of each test file, one line
  (cd "$1" && find . -maxdepth 1 -name 'test_file.*' -printf '%P %s\n' | sort | tr '\n' ' ')
}

if ! scratch_mount half half tmpfs size=1536k; then
  mounts_or_skip 24 "full-disk cases need a 1.5M tmpfs"
  done_testing
  exit
fi

P=(fileio --file-num=2 --file-total-size=2M)

# ---- prepare ---------------------------------------------------------------------------------

same "prepare where 1.5 of the 2 files fit" --dir "$half" --before 'rm -f test_file.*' --files -- \
  "${P[@]}" prepare
is "$rc" 1 "prepare on a full disk: exit 1"
like "$out" "^FATAL: Failed to write file! errno = 28 \(No space left on device\)$" "... 1.0.20's line"
like "$out" "^HINT: the file system of '$half' has no room left for test_file\.1: --file-total-size asks for 2MiB there, 0B are still free; use a smaller --file-total-size or run from another directory$" \
  "... then a hint naming the directory, the file, the size asked and the room left"
is "$(files_left "$half")" "test_file.0 1048576 test_file.1 524288 " \
  "left on disk, as by 1.0.20: test_file.0 whole, test_file.1 as far as it got"
same "a run on the half-written files" --dir "$half" -- "${P[@]}" --file-test-mode=rndrd run
like "$out" "^FATAL: Size of file 'test_file\.1' is 512KiB, but at least 1MiB is expected\.$" \
  "... refuses the short file, naming it"
mount -o remount,size=4m "$half"
same "prepare again once there is room" --dir "$half" --files \
  --before 'rm -f test_file.*; head -c 1048576 /dev/zero >test_file.0; head -c 524288 /dev/zero >test_file.1' \
  -- "${P[@]}" prepare
is "$(printf '%s\n' "$out" | grep -E '^(Reusing|Extending|Creating) ' | tr '\n' '|')" \
   "Creating files for the test...|Reusing existing file test_file.0|Extending existing file test_file.1|" \
   "... keeps the whole file and extends the other"
is "$rc/$(files_left "$half")" "0/test_file.0 1048576 test_file.1 1048576 " "... to the full size, exit 0"
rm -f "$half"/test_file.*
mount -o remount,size=1536k "$half"

# ---- run: seqwr fills the disk ----------------------------------------------------------------

# run_both MODE: seqwr in MODE from no files, through 1.0.20 then ours; $ref_rc/$ref_fatal/
# $ref_left and $rc/$out/$left
run_both() {
  local run=("${P[@]}" --file-block-size=4K --file-test-mode=seqwr --file-io-mode="$1"
             --events=1000 --time=0 run)
  rm -f "$half"/test_file.*
  (cd "$half" && "$REF_SB" "${run[@]}" >"$TEST_TMP/ref.out" 2>&1)
  ref_rc=$?
  ref_fatal=$(grep '^FATAL' "$TEST_TMP/ref.out")
  ref_left=$(files_left "$half")
  rm -f "$half"/test_file.*
  sb_in "$half" "${run[@]}"
  left=$(files_left "$half")
}

declared fileio-async-write-error fileio-mmap-bus-error report-after-fatal-error
if have_ref; then
  run_both sync
  is "$rc|$(grep '^FATAL' <<<"$out")" "$ref_rc|$ref_fatal" "seqwr (sync) filling the disk: 1.0.20's FATAL line and exit code"
  like "$out" "^FATAL: Failed to write file! file: [0-9]+ pos: 524288 errno = 28 \(No space left on device\)$" \
    "... where the room ran out"
  like "$out" "^HINT: the file system of '$half' has no room left for test_file\.1: " "... then the hint"
  like "$out" "^    total number of events: +[0-9]+$" "... then the report of what ran (declared)"
  is "$left" "$ref_left" "... leaving the files as 1.0.20 does ($left)"

  run_both async
  is "$rc|$(grep '^FATAL' <<<"$out")" \
     "$ref_rc|$(grep -v '^FATAL: Failed to write file! file: [0-9]* pos: [0-9]* errno = 0 (Success)$' <<<"$ref_fatal")" \
     "seqwr (async): 1.0.20's FATAL line and exit code, not its line with errno 0"
  like "$out" "^HINT: the write of test_file\.1 at offset 524288 failed: errno = 28 \(No space left on device\)$" \
    "... saying which write failed and why"
  is "$left" "$ref_left" "... leaving the files as 1.0.20 does ($left)"

  run_both mmap
  is "$ref_rc" 135 "seqwr (mmap): 1.0.20 dies of SIGBUS (exit 135) without a word"
  is "$rc" 1 "... ours exits 1"
  like "$out" "^FATAL: Bus error \(SIGBUS\) accessing the mapping of test_file\.1 at pos 5[0-9]{5}$" \
    "... naming the file and the position"
  like "$out" "^HINT: the file system could not back a page of the file \(no room left on it" \
    "... and the likely cause"
  is "$left" "$ref_left" "... leaving the files as 1.0.20 does ($left)"
else
  skip "no reference sysbench at $REF_SB"
  for i in $(seq 1 11); do skip "no reference sysbench"; done
fi

done_testing
