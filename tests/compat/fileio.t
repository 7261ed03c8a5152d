#!/usr/bin/env bash
# fileio.t: the fileio test against sysbench 1.0.20: help, the prepare output and the files it
# leaves, every test mode and I/O mode run for a fixed number of events (same counts, same
# report layout), the order of operations under --debug, cleanup, the errors (files missing or
# too small, a full disk, read-only media, no O_DIRECT) and the bad options.
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/compat.sh"
. "$SRCDIR/tests/lib/mounts.sh"

S="--file-num=4 --file-total-size=1M"
prep() {   # prep [OPTIONS]: the --before command preparing $S files with 1.0.20
  echo "\"\$REF_SB\" fileio $S $* prepare"
}

# ---- help, commands, options ----------------------------------------------------------------

same "help" -- fileio help
same "fileio without a command" -- fileio
same "an unknown option" -- fileio --bogus=1 run
same "run without --file-test-mode prints the options" -- fileio run
same "an unknown command" -- fileio $S frobnicate

# ---- prepare ---------------------------------------------------------------------------------

same "prepare: 4 files of 256K" --files -- fileio $S prepare
same "prepare: files grow in whole blocks past the size" --files -- \
  fileio --file-num=3 --file-total-size=100K --file-block-size=7K prepare
same "prepare: one block larger than the files" --files -- \
  fileio --file-num=2 --file-total-size=64K --file-block-size=1M prepare
same "prepare: sizes like 1.0.20 reads them (16k, 1m)" --files -- \
  fileio --file-num=2 --file-total-size=1m --file-block-size=16k prepare
same "prepare: existing files are reused or extended" --files \
  --before 'truncate -s 5000 test_file.0; truncate -s 300K test_file.1' -- \
  fileio --file-num=3 --file-total-size=768K prepare
same "prepare: --validate" --files -- fileio $S --validate prepare
same "prepare ignores --file-test-mode" --files -- fileio $S --file-test-mode=seqwr prepare
same "prepare: --file-extra-flags=dsync" --files -- fileio $S --file-extra-flags=dsync prepare
same "prepare: --file-extra-flags=sync,dsync" --files -- \
  fileio $S --file-extra-flags=sync,dsync prepare
same "prepare: --file-extra-flags=direct" --files -- fileio $S --file-extra-flags=direct prepare
same "prepare: 0 bytes per file" --files -- fileio --file-num=4 --file-total-size=3 prepare

# ---- cleanup ---------------------------------------------------------------------------------

same "cleanup removes only the files of --file-num" --files \
  --before 'for i in 0 1 2 3 4 5; do : > test_file.$i; done; : > keep.txt' -- \
  fileio --file-num=4 cleanup
same "cleanup with nothing to remove" --files -- fileio $S cleanup

# ---- runs: counts and layout ------------------------------------------------------------------

for mode in seqwr seqrewr seqrd rndrd rndwr rndrw; do
  same "run $mode, sync, 300 events" --before "$(prep)" -- \
    fileio $S --file-test-mode=$mode --events=300 run
  same "run $mode, mmap, 300 events" --before "$(prep)" -- \
    fileio $S --file-test-mode=$mode --file-io-mode=mmap --events=300 run
done
for mode in seqwr seqrewr seqrd rndrd rndwr rndrw; do
  same "run $mode, async, 300 events" --before "$(prep)" -- \
    fileio $S --file-test-mode=$mode --file-io-mode=async --file-async-backlog=16 --events=300 run
done
same "seqwr creates the files itself (20 events)" --files -- \
  fileio $S --file-test-mode=seqwr --events=20 run
same "seqwr with mmap sizes the files first" --files -- \
  fileio $S --file-test-mode=seqwr --file-io-mode=mmap --events=20 run
same "rndwr, --file-fsync-freq=7" --before "$(prep)" -- \
  fileio $S --file-test-mode=rndwr --file-fsync-freq=7 --events=300 run
same "rndrw, --file-fsync-all" --before "$(prep)" -- \
  fileio $S --file-test-mode=rndrw --file-fsync-all --events=300 run
same "rndrw, --file-fsync-freq=0 --file-fsync-end=off" --before "$(prep)" -- \
  fileio $S --file-test-mode=rndrw --file-fsync-freq=0 --file-fsync-end=off --events=300 run
same "seqrewr, fdatasync, merged requests" --before "$(prep)" -- \
  fileio $S --file-test-mode=seqrewr --file-fsync-mode=fdatasync --file-merged-requests=3 \
  --events=300 run
same "rndrw, --file-rw-ratio=0.5, 4K blocks" --before "$(prep)" -- \
  fileio $S --file-test-mode=rndrw --file-rw-ratio=0.5 --file-block-size=4K --events=300 run
same "rndrd with O_DIRECT" --before "$(prep)" -- \
  fileio $S --file-test-mode=rndrd --file-extra-flags=direct --events=300 run
same "rndwr with O_DSYNC" --before "$(prep)" -- \
  fileio $S --file-test-mode=rndwr --file-extra-flags=dsync --events=100 run
same "rndrw with O_SYNC and O_DSYNC" --before "$(prep)" -- \
  fileio $S --file-test-mode=rndrw --file-extra-flags=sync,dsync --events=100 run
same "two threads, seqrewr" --before "$(prep)" -- \
  fileio $S --file-test-mode=seqrewr --threads=2 --events=300 run
same "--percentile=99 and --histogram" --before "$(prep)" -- \
  fileio $S --file-test-mode=rndrd --percentile=99 --histogram --events=300 run
same "--percentile=0" --before "$(prep)" -- \
  fileio $S --file-test-mode=rndwr --percentile=0 --events=300 run
same "--validate on files 1.0.20 prepared: rndrw" --before "$(prep --validate)" -- \
  fileio $S --file-test-mode=rndrw --validate --events=300 run
same "--validate on files 1.0.20 prepared: seqrd, mmap" --before "$(prep --validate)" -- \
  fileio $S --file-test-mode=seqrd --file-io-mode=mmap --validate --events=100 run
same "--validate on files we prepared (1.0.20 reads them too): rndrd" \
  --before "\"\$SB\" fileio $S --validate prepare" -- \
  fileio $S --file-test-mode=rndrd --validate --events=300 run

# The order of operations (1 thread): each request under --debug, with 1.0.20's repeated-line
# folding undone. Sequential modes must match line for line (file, offset, size); random
# modes in the sequence of reads, writes and fsyncs, which gives the same counts of each.
expand_repeats() {
  awk '/^\(last message repeated [0-9]+ times\)$/ { for (i = 0; i < $4; i++) print prev; next }
       { print; prev = $0 }'
}
requests() {   # requests BINARY OPTIONS...: the "Executing request" lines, in $TEST_TMP/dbg
  local bin=$1
  shift
  (cd "$TEST_TMP/dbg" && "$bin" fileio $S "$@" --debug run 2>&1) | expand_repeats |
    grep '^DEBUG: Executing request'
}
mkdir -p "$TEST_TMP/dbg"
(cd "$TEST_TMP/dbg" && "$REF_SB" fileio $S prepare >/dev/null)
for args in "--file-test-mode=seqwr --file-fsync-freq=7" \
            "--file-test-mode=seqrewr --file-fsync-freq=5 --file-merged-requests=3" \
            "--file-test-mode=seqrd --file-merged-requests=5" \
            "--file-test-mode=seqrewr --file-block-size=5000"; do
  (cd "$TEST_TMP/dbg" && "$REF_SB" fileio $S prepare >/dev/null)
  theirs=$(requests "$REF_SB" $args --events=300)
  ours=$(requests "$SB" $args --events=300)
  is "$ours" "${theirs:-${TAP_NOT_FOUND}requests of 1.0.20>}" "the same 300 requests, in order: $args"
done
for args in "--file-test-mode=rndrd" "--file-test-mode=rndwr --file-fsync-freq=13" \
            "--file-test-mode=rndrw --file-fsync-freq=13 --file-rw-ratio=0.7" \
            "--file-test-mode=rndrw --file-fsync-all" \
            "--file-test-mode=rndrw --file-io-mode=mmap" \
            "--file-test-mode=rndrw --file-io-mode=async --file-async-backlog=16" \
            "--file-test-mode=rndrw --file-io-mode=async --file-fsync-freq=13"; do
  theirs=$(requests "$REF_SB" $args --events=300 | grep -o 'operation: [0-9]')
  ours=$(requests "$SB" $args --events=300 | grep -o 'operation: [0-9]')
  n=$(printf '%s\n' "$theirs" | grep -c .)
  is "$ours" "${theirs:-${TAP_NOT_FOUND}operations of 1.0.20>}" \
     "the same sequence of $n reads, writes and fsyncs: $args"
done

# Async mode, counted by the kernel: the same number of fsync()/fdatasync() and io_submit()
# calls as 1.0.20 for the same options (one thread, buffered files, where 1.0.20's order of
# operations does not depend on timing). In rndrw this needs 1.0.20's read/write choice,
# which only counts requests reaped from a full backlog: reads and writes come in bursts,
# and a --file-fsync-freq window of reads alone skips its fsync round (with 128 files, 1.47
# fsyncs per read where a smooth choice does 2.14).
syscalls() {   # syscalls BINARY OPTIONS...: "fsync=N io_submit=M" of one run, on fresh files
  local bin=$1
  shift
  (cd "$TEST_TMP/sys" && rm -f test_file.* && "$REF_SB" fileio "$@" prepare >/dev/null &&
   strace -f -c -e trace=fsync,fdatasync,io_submit -o "$TEST_TMP/strace.out" \
     "$bin" fileio "$@" run >/dev/null 2>&1)
  awk '$NF ~ /^(fsync|fdatasync|io_submit)$/ { print $NF "=" $4 }' "$TEST_TMP/strace.out" |
    sort | paste -sd' '
}
mkdir -p "$TEST_TMP/sys"
async="--file-num=4 --file-total-size=1M --file-io-mode=async --events=1000"
async_cases=(
  "$async --file-test-mode=rndrw"
  "$async --file-test-mode=rndrw --file-async-backlog=16 --file-fsync-freq=13
   --file-fsync-mode=fdatasync"
  "$async --file-test-mode=rndrw --file-fsync-all"
  "$async --file-test-mode=rndrw --file-fsync-freq=0"
  "$async --file-test-mode=rndrw --file-fsync-end=off --file-rw-ratio=0.7 --file-async-backlog=32"
  "$async --file-test-mode=rndwr --file-fsync-freq=7"
  "$async --file-test-mode=seqwr"
  "$async --file-test-mode=seqrewr --file-fsync-freq=5 --file-merged-requests=3"
  "--file-num=128 --file-total-size=8M --file-io-mode=async --events=2000 --file-test-mode=rndrw"
)
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
  for args in "${async_cases[@]}"; do
    # shellcheck disable=SC2086
    theirs=$(syscalls "$REF_SB" $args)
    # shellcheck disable=SC2086
    ours=$(syscalls "$SB" $args)
    is "$ours" "${theirs:-${TAP_NOT_FOUND}system calls of 1.0.20>}" \
       "async, the system calls of 1.0.20 ($theirs): ${args#"$async "}"
  done
else
  for args in "${async_cases[@]}"; do skip "strace cannot trace here: $args"; done
fi

# The intermediate line has 1.0.20's layout (how many lines a timed run prints may differ).
first_interval() {
  printf '%s\n' "$1" | grep -m1 '^\[ 1s \]' | sed -E 's/[0-9]+\.[0-9]+/N/g'
}
(cd "$TEST_TMP/dbg" && "$REF_SB" fileio $S prepare >/dev/null)
for mode in rndrw seqrd; do
  theirs=$(cd "$TEST_TMP/dbg" && "$REF_SB" fileio $S --file-test-mode=$mode --time=2 \
           --report-interval=1 run 2>&1)
  ours=$(cd "$TEST_TMP/dbg" && "$SB" fileio $S --file-test-mode=$mode --time=2 \
         --report-interval=1 run 2>&1)
  is "$(first_interval "$ours")" "$(first_interval "$theirs")" \
     "the intermediate line of $mode: $(first_interval "$theirs")"
done

# ---- errors -----------------------------------------------------------------------------------

same "run before prepare" -- fileio $S --file-test-mode=rndrd run
same "mmap run before prepare" -- fileio $S --file-test-mode=seqrd --file-io-mode=mmap run
same "files smaller than --file-total-size / --file-num" --before "$(prep)" -- \
  fileio --file-num=4 --file-total-size=2M --file-test-mode=rndrd run
same "fewer files than --file-num" --before "$(prep)" -- \
  fileio --file-num=5 --file-total-size=1M --file-test-mode=rndwr run

# A block that fails its checksum: 1.0.20's three FATAL lines and exit code 1. (After them
# 1.0.20 prints nothing; our runner reports what ran until the failure, see runner.c.)
for io in sync mmap; do
  mkdir -p "$TEST_TMP/bad.$io"
  (cd "$TEST_TMP/bad.$io" && "$REF_SB" fileio $S prepare >/dev/null)
  ref_out=$(cd "$TEST_TMP/bad.$io" && "$REF_SB" fileio $S --file-test-mode=seqrd \
            --file-io-mode=$io --validate --events=10 run 2>&1)
  ref_rc=$? ref_fatal=$(printf '%s\n' "$ref_out" | grep '^FATAL')
  sb_in "$TEST_TMP/bad.$io" fileio $S --file-test-mode=seqrd --file-io-mode=$io --validate \
    --events=10 run
  is "$rc|$(printf '%s\n' "$out" | grep '^FATAL')" "$ref_rc|$ref_fatal" \
     "--validate on unchecksummed files, $io: 1.0.20's FATAL lines and exit code"
done

# Bad values: 1.0.20's line (our HINT after it is allowed by [hint-after-error]).
for bad in --file-num=0 --file-total-size=0 --file-total-size=abc --file-total-size=1.5G \
           --file-total-size=12abc --file-block-size=0 --file-block-size=abc \
           --file-block-size=-5 --file-io-mode=foo --file-extra-flags=foo \
           --file-extra-flags=sync,foo --file-fsync-freq=-1 --file-fsync-mode=foo \
           --file-rw-ratio=-1 --file-merged-requests=-1; do
  same "bad option, prepare: $bad" --files -- fileio $S "$bad" prepare
  same "bad option, cleanup: $bad" -- fileio $S "$bad" cleanup
done
for bad in --file-test-mode=foo --file-test-mode=RNDRD "--file-io-mode=async --file-async-backlog=0"; do
  same "bad option, run: $bad" -- fileio $S --file-test-mode=rndrd $bad run
done

# Integers the option registry reads: 1.0.20's "Invalid value for the 'x' option" line.
for bad in --file-num=abc --file-num=4K --file-fsync-freq=abc --file-merged-requests=1x; do
  same "bad integer: $bad" -- fileio $S "$bad" prepare
done

# ---- small file systems: full, read-only, no O_DIRECT ------------------------------------------

if scratch_mount full full tmpfs size=1m; then
  same "prepare on a full file system" --dir "$full" --before 'rm -f test_file.*' --files -- \
    fileio --file-num=2 --file-total-size=2M prepare
  same "prepare again on the full file system" --dir "$full" --files -- \
    fileio --file-num=2 --file-total-size=2M prepare
  same "run on the files prepare could not fill" --dir "$full" -- \
    fileio --file-num=2 --file-total-size=2M --file-test-mode=rndrd run

  # seqwr fills the disk during the run: 1.0.20's FATAL line and exit code 1.
  seqwr=(fileio --file-num=2 --file-total-size=2M --file-block-size=4K --file-test-mode=seqwr
         --events=600 run)
  rm -f "$full"/test_file.*
  (cd "$full" && "$REF_SB" "${seqwr[@]}" >"$TEST_TMP/full.ref" 2>&1); ref_rc=$?
  rm -f "$full"/test_file.*
  sb_in "$full" "${seqwr[@]}"
  is "$rc|$(grep '^FATAL' <<<"$out")" "$ref_rc|$(grep '^FATAL' "$TEST_TMP/full.ref")" \
     "seqwr filling the disk: 1.0.20's FATAL line and exit code"
else
  mounts_or_skip 4 "full-disk cases need a 1M tmpfs"
fi

if scratch_mount ro ro tmpfs size=4m; then
  (cd "$ro" && "$REF_SB" fileio $S prepare >/dev/null)
  scratch_remount_ro "$ro"
  same "prepare on a read-only file system" --dir "$ro" --files -- fileio $S prepare
  same "rndwr on a read-only file system" --dir "$ro" -- \
    fileio $S --file-test-mode=rndwr run
  same "seqwr on a read-only file system" --dir "$ro" --allow fileio-true-errno -- \
    fileio $S --file-test-mode=seqwr run
  same "cleanup on a read-only file system" --dir "$ro" --files \
    --allow fileio-cleanup-reports-failures -- fileio $S cleanup
else
  mounts_or_skip 4 "read-only cases need a tmpfs"
fi

# ramfs has no O_DIRECT (tmpfs has it since Linux 6.6).
if scratch_mount nodirect nodirect ramfs; then
  same "prepare with direct where O_DIRECT is refused" --dir "$nodirect" \
    --before 'rm -f test_file.*' --files -- fileio $S --file-extra-flags=direct prepare
  (cd "$nodirect" && rm -f test_file.* && "$REF_SB" fileio $S prepare >/dev/null)
  same "rndrd with direct where O_DIRECT is refused" --dir "$nodirect" -- \
    fileio $S --file-extra-flags=direct --file-test-mode=rndrd run
  same "seqwr with direct where O_DIRECT is refused" --dir "$nodirect" --files -- \
    fileio $S --file-extra-flags=direct --file-test-mode=seqwr run
else
  mounts_or_skip 3 "no-O_DIRECT cases need a ramfs"
fi

# ---- the normalisation these cases rely on -----------------------------------------------------

got=$(printf '    reads/s:                      0.00\n    writes/s:                     5353.46\n' |
      compat_normalise 0)
is "$got" "$(printf '    reads/s: 0\n    writes/s: N')" \
   "fileio rates are masked, but a zero rate stays zero"

done_testing
