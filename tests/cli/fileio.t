#!/usr/bin/env bash
# fileio.t: the compiled-in fileio test on its own: every test mode in every I/O mode on small
# files, with the counts of reads, writes and fsyncs its rules give; --validate catching a
# corrupted block; the per-operation latency block; cleanup touching only its own files; and
# the bad situations (options, missing files, a full disk, read-only media, no O_DIRECT), each
# one clear line and exit code 1. tests/compat/fileio.t compares the same with 1.0.20.
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/mounts.sh"

S="--file-num=4 --file-total-size=1M"
work="$TEST_TMP/files"
mkdir -p "$work"

run() {   # run ARGS...: our fileio in $work
  sb_in "$work" fileio "$@"
}
op_count() {   # op_count OP: the count of OP (read, write, fsync) in our latency block
  printf '%s\n' "$out" | awk -v op="$1:" '$1 == op { print $2; found = 1 } END { if (!found) print "none" }'
}
counts() {   # "reads/writes/fsyncs events" of the last run
  echo "$(op_count read)/$(op_count write)/$(op_count fsync) $(field "$out" "total number of events:")"
}

# ---- prepare ---------------------------------------------------------------------------------

run $S prepare
is "$rc" 0 "prepare of 4 x 256K files succeeds"
like "$out" "^4 files, 256Kb each, 1Mb total$" "prepare states the file count and sizes"
like "$out" "^1048576 bytes written in [0-9.]+ seconds \([0-9.]+ MiB/sec\)\.$" \
  "prepare reports the bytes written and the rate"
is "$(cd "$work" && stat -c '%n %s' test_file.* | sort | tr '\n' ' ')" \
   "test_file.0 262144 test_file.1 262144 test_file.2 262144 test_file.3 262144 " \
   "prepare leaves exactly test_file.0-3, 256K each"
run $S prepare
like "$out" "Reusing existing file test_file.3" "a second prepare reuses the files"
like "$out" "^No bytes written\.$" "... and writes nothing"

# ---- every test mode in every I/O mode: the counts the request rules give --------------------

# 300 events, --file-fsync-freq=100 (the default): after every 100 writes an fsync round of the
# 4 files (4 events), so 292 writes and 8 periodic fsyncs, plus 4 at the end (--file-fsync-end).
# rndrw reads while reads/writes < 1.5: 175 reads and 117 writes. Reads never fsync.
# In async mode rndrw's ratio counts, as 1.0.20's does, only the requests reaped from a full
# backlog (128): 128 reads, then 128 writes (an fsync round after the first 72), then 40
# reads, so one round is due, not two: 168/128/8, 1.0.20's counts.
declare -A want=(
  [seqwr]="0/292/12 300" [seqrewr]="0/292/12 300" [seqrd]="300/0/0 300"
  [rndrd]="300/0/0 300" [rndwr]="0/292/12 300" [rndrw]="175/117/12 300"
)
for io in sync async mmap; do
  for mode in seqwr seqrewr seqrd rndrd rndwr rndrw; do
    run $S --file-test-mode=$mode --file-io-mode=$io --events=300 run
    expected=${want[$mode]}
    [ "$io/$mode" = async/rndrw ] && expected="168/128/8 300"
    is "$rc $(counts)" "0 $expected" "$mode, $io: reads/writes/fsyncs and events"
  done
done

run $S --file-test-mode=rndwr --file-fsync-freq=0 --file-fsync-end=off --events=300 run
is "$(counts)" "0/300/0 300" "no fsync at all with --file-fsync-freq=0 --file-fsync-end=off"
run $S --file-test-mode=rndwr --file-fsync-all --events=100 run
is "$(counts)" "0/100/100 100" "--file-fsync-all: one fsync per write, inside the same event"
like "$out" "^Calling fsync\(\) after each write operation\.$" "... and says so"
unlike "$out" "Periodic FSYNC" "... which replaces the periodic fsync"
run $S --file-test-mode=rndwr --file-fsync-all --file-io-mode=async --file-async-backlog=8 \
  --events=100 run
is "$(counts)" "0/100/100 100" "--file-fsync-all in async mode: every write fsynced too"
run $S --file-test-mode=rndrw --file-rw-ratio=0 --file-fsync-freq=0 --events=50 run
is "$(counts)" "0/50/4 50" "--file-rw-ratio=0 makes rndrw write only (4 fsyncs at the end)"
run $S --file-test-mode=rndwr --file-fsync-mode=fdatasync --events=300 run
is "$(counts)" "0/292/12 300" "fdatasync counts as an fsync"
run $S --file-test-mode=seqrd --file-merged-requests=4 --events=10 run
is "$(counts)" "10/0/0 10" "merged sequential reads: one request per event"
like "$out" "^Merging requests up to 64KiB for sequential IO\.$" "... of up to 4 x 16K"
like "$out" "read, MiB/s: +[1-9]" "... which read data"
run $S --file-test-mode=rndrd --threads=3 --events=300 run
is "$(counts)" "300/0/0 300" "3 threads share the 300 events"
run $S --file-test-mode=seqrewr --threads=2 --events=300 run
is "$(counts)" "0/292/16 300" "2 threads share the sequence; each fsyncs the 4 files at the end"

# O_DIRECT and O_SYNC/O_DSYNC, also combined (1.0.20 refuses direct with another flag).
for flags in direct sync dsync direct,dsync direct,sync; do
  run $S --file-test-mode=rndrw --file-extra-flags=$flags --events=40 run
  is "$rc $(counts)" "0 24/16/4 40" "--file-extra-flags=$flags runs"
done
run $S --file-test-mode=rndrd --file-extra-flags=direct,sync --events=1 run
like "$out" "^Extra file open flags: sync directio$" "the mode block lists combined flags"
run $S --file-test-mode=rndrd --file-io-mode=async --file-extra-flags=direct --events=500 run
is "$rc $(counts)" "0 500/0/0 500" "async reads with O_DIRECT, 128 in flight"

# ---- the report -------------------------------------------------------------------------------

run $S --file-test-mode=rndrw --events=300 run
like "$out" "File operations:
    reads/s: +[0-9.]+
    writes/s: +[0-9.]+
    fsyncs/s: +[0-9.]+

Throughput:
    read, MiB/s: +[0-9.]+
    written, MiB/s: +[0-9.]+

General statistics:" "1.0.20's File operations and Throughput blocks, then General statistics"
like "$(printf '%s\n' "$out" | tail -n 7)" "^    execution time \(avg/stddev\): +[0-9./]+

Latency by operation \(ms\):
                   count +min +avg +max +95th
    read: +175( +[0-9]+\.[0-9]{2}){4}
    write: +117( +[0-9]+\.[0-9]{2}){4}
    fsync: +12( +[0-9]+\.[0-9]{2}){4}\$" \
  "the report ends with the per-operation latency block, after 1.0.20's last line"
run $S --file-test-mode=rndrd --percentile=0 --events=10 run
like "$out" "                   count +min +avg +max$" "--percentile=0: no percentile column"
run $S --file-test-mode=rndrd --percentile=99 --events=10 run
like "$out" " +count +min +avg +max +99th$" "--percentile=99 names its column"
run $S --file-test-mode=rndrd --time=3 --report-interval=1 --report-checkpoints=1 run
is "$(count "$out" '^Latency by operation')" 2 \
   "a checkpoint report and the final one each have a latency block"
like "$out" "^\[ 1s \] reads: [0-9.]+ MiB/s writes: 0\.00 MiB/s fsyncs: 0\.00/s latency \(ms,95%\): [0-9.]+$" \
  "the intermediate line: MiB/s read and written, fsyncs/s, the percentile"
run $S --file-test-mode=rndwr --file-fsync-all --events=200 run
w=$(printf '%s\n' "$out" | awk '$1 == "write:" { print $4 }')
f=$(printf '%s\n' "$out" | awk '$1 == "fsync:" { print $4 }')
e=$(printf '%s\n' "$out" | awk '/^ +avg:/ { print $2; exit }')
# Each event is a write and its fsync, so the two averages add up to at most the event's (give
# or take the rounding to 0.01 ms); were each timed as the whole event, they would add up to two.
awk -v w="$w" -v f="$f" -v e="$e" 'BEGIN { exit !((w > 0 || f > 0) && w + f <= e + 0.02) }'
ok $? "--file-fsync-all: write ($w ms) and fsync ($f ms) timed apart add up to the event ($e ms)"

# ---- --validate -------------------------------------------------------------------------------

run $S --validate prepare
for io in sync async mmap; do
  for mode in seqrewr seqrd rndrw rndrd rndwr; do
    run $S --file-test-mode=$mode --file-io-mode=$io --validate --threads=2 \
      --file-async-backlog=8 --events=400 run
    is "$rc" 0 "--validate, $mode, $io, 2 threads: every block read back checks out"
  done
done
run $S --file-test-mode=seqrd --validate --file-merged-requests=3 --events=40 run
is "$rc" 0 "--validate with merged requests checks each block (1.0.20 fails here)"
run $S --file-test-mode=rndrw --validate --file-io-mode=async --file-async-backlog=64 \
  --threads=2 --events=2000 --file-num=1 --file-total-size=256K run
sum=$(( $(op_count read) + $(op_count write) + $(op_count fsync) - 2 ))
is "$rc $sum" "0 2000" \
   "--validate, async, 2 x 64 in flight over 16 blocks: no block is read while written"

printf 'X' | dd of="$work/test_file.2" bs=1 seek=20000 conv=notrunc status=none
for io in sync async mmap; do
  run $S --file-test-mode=seqrd --file-io-mode=$io --validate --events=400 run
  is "$rc" 1 "a corrupted byte fails --validate, $io"
  like "$out" "^FATAL: Checksum mismatch in block with offset: 16384
FATAL:     Calculated value: 0x[0-9a-f]+    Stored value: 0x[0-9a-f]+
FATAL: Validation failed on file 2, block offset 16384, exiting\.\.\.$" \
    "... naming the file and the block ($io)"
done

# ---- cleanup ----------------------------------------------------------------------------------

: > "$work/keep.txt"
: > "$work/test_file.4"
run $S cleanup
is "$rc|$out" "0|$(printf 'sysbench 1.0.20 (using system LuaJIT %s)\n\nRemoving test files...' \
   "$(pkg-config --modversion luajit 2>/dev/null)")" "cleanup says what it does"
is "$(ls "$work" | tr '\n' ' ')" "keep.txt test_file.4 " \
   "cleanup removes test_file.0-3 only, not test_file.4 or other files"
rm -f "$work"/*

# ---- bad options and situations: one line (and a hint), exit code 1 ----------------------------

bad() {   # bad ARGS -- REGEX NAME
  local args=() re name
  while [ "$1" != -- ]; do args+=("$1"); shift; done
  re=$2 name=$3
  run "${args[@]}"
  is "$rc" 1 "$name: exit code 1"
  like "$out" "$re" "$name: the error line"
}
bad $S --file-test-mode=rndrd run -- "^FATAL: Cannot open file 'test_file\.0' errno = 2 \(No such file or directory\)
WARNING: Did you forget to run the prepare step\?$" "run before prepare"
run --file-num=2 --file-total-size=64K prepare
bad --file-num=2 --file-total-size=1M --file-test-mode=rndrd run -- \
  "^FATAL: Size of file 'test_file\.0' is 32KiB, but at least 512KiB is expected\.$" \
  "files smaller than the run expects"
rm -f "$work"/*
bad --file-num=-1 prepare -- "^FATAL: Invalid value for file-num: -1
HINT: --file-num expects" "--file-num=-1 (1.0.20 would create files without end)"
is "$(ls "$work" | wc -l)" 0 "... and no file is created"
bad --file-num=4 --file-total-size=3 --file-test-mode=seqrd run -- \
  "^FATAL: Invalid value for file-total-size: 3
HINT: --file-total-size must give each of the 4 files at least one byte$" \
  "0 bytes per file (1.0.20 divides by zero)"
bad $S --file-test-mode=rndrd --file-io-mode=async --file-async-backlog=-4 run -- \
  "^FATAL: Invalid value of file-async-backlog: -4
HINT: " "a negative --file-async-backlog"
bad $S --file-total-size=1.5G prepare -- "^FATAL: Invalid value for file-total-size: 0
HINT: --file-total-size expects a size such as 2G, 512M or 1048576 \(given: '1\.5G'\)$" \
  "a fractional --file-total-size"
bad $S --file-block-size=8 --validate prepare -- "^FATAL: Invalid value for file-block-size: 8\.
HINT: --validate keeps a checksum" "--validate with blocks too small for the checksum"
bad $S --file-block-size=1G --file-merged-requests=4 prepare -- \
  "^FATAL: Invalid value for file-merged-requests: 4\.
HINT: " "a merged request over 1G"
bad $S --file-extra-flags=sync,bogus prepare -- "^FATAL: Invalid value for file-extra-flags: sync
HINT: --file-extra-flags is a list of sync, dsync, direct; 'bogus' is none of them$" \
  "a bad --file-extra-flags item is named in the hint"
bad $S --file-test-mode=rndrw2 run -- "^FATAL: Invalid IO operations mode: rndrw2\.
HINT: --file-test-mode is one of seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw$" \
  "an unknown --file-test-mode"
run $S prepare
bad $S --file-block-size=1000 --file-extra-flags=direct --file-test-mode=rndrd run -- \
  "^FATAL: Failed to read file! file: [0-9]+ pos: [0-9]+ errno = 22 \(Invalid argument\)
HINT: with --file-extra-flags=direct every transfer must be aligned" \
  "O_DIRECT with a block size off the device's alignment"
rm -f "$work"/*

# ---- small file systems -----------------------------------------------------------------------

if scratch_mount full full tmpfs size=1m; then
  sb_in "$full" fileio --file-num=2 --file-total-size=2M prepare
  is "$rc" 1 "prepare on a full 1M tmpfs exits 1"
  like "$out" "^FATAL: Failed to write file! errno = 28 \(No space left on device\)
HINT: the file system of '$full' has no room left for test_file\.[01]: --file-total-size asks for 2MiB there" \
    "... with 1.0.20's line and a hint naming the directory and the size"
  sb_in "$full" fileio --file-num=2 --file-total-size=2M --file-block-size=4K \
    --file-test-mode=seqwr --events=1000 run
  is "$rc" 1 "seqwr running out of space exits 1"
  like "$out" "^FATAL: Failed to write file! file: [0-9]+ pos: [0-9]+ errno = 28 \(No space left on device\)
HINT: the file system of '$full' has no room left" "... with the write error and a hint"
else
  mounts_or_skip 4 "full-disk tests need a 1M tmpfs"
fi

if scratch_mount ro ro tmpfs size=4m; then
  sb_in "$ro" fileio $S prepare
  scratch_remount_ro "$ro"
  sb_in "$ro" fileio $S --file-num=5 prepare
  is "$rc" 1 "prepare on a read-only file system exits 1"
  like "$out" "^FATAL: Can't open file errno = 30 \(Read-only file system\)
HINT: '$ro' is on a read-only file system" "... with 1.0.20's line and a hint"
  for io in sync async mmap; do
    sb_in "$ro" fileio $S --file-test-mode=rndrd --file-io-mode=$io --events=100 run
    is "$rc $(counts)" "0 100/0/0 100" "rndrd, $io, runs on read-only media (files opened read-only)"
  done
  sb_in "$ro" fileio $S --file-test-mode=rndwr --events=10 run
  is "$rc" 1 "rndwr on read-only media exits 1"
  like "$out" "errno = 30 \(Read-only file system\)
WARNING: Did you forget to run the prepare step\?
HINT: '$ro' is on a read-only file system" "... and the hint says why, not a missing prepare"
  sb_in "$ro" fileio $S cleanup
  is "$rc" 1 "cleanup that cannot remove the files exits 1 (1.0.20: 0, silently)"
  like "$out" "^FATAL: Cannot remove file 'test_file\.0' errno = 30 \(Read-only file system\)$" \
    "... naming the first file left"
  like "$out" "HINT: 4 of the 4 test files could not be removed" "... and how many stay"
else
  mounts_or_skip 9 "read-only tests need a tmpfs"
fi

if scratch_mount nodirect nodirect ramfs; then
  sb_in "$nodirect" fileio $S --file-extra-flags=direct prepare
  is "$rc" 1 "prepare with direct where O_DIRECT is refused exits 1"
  like "$out" "^FATAL: Can't open file errno = 22 \(Invalid argument\)
HINT: the file system of '$nodirect' does not support O_DIRECT" "... and the hint says so"
  sb_in "$nodirect" fileio $S prepare
  sb_in "$nodirect" fileio $S --file-extra-flags=direct --file-test-mode=rndrd run
  is "$rc" 1 "rndrd with direct there exits 1"
  like "$out" "does not support O_DIRECT" "... with the same hint"
else
  mounts_or_skip 4 "no-O_DIRECT tests need a ramfs"
fi

# ---- listed and documented ----------------------------------------------------------------------

sb --help
like "$out" "^  fileio - File I/O test$" "sysbench --help lists fileio"
sb fileio help
like "$out" "^  --file-block-size=N +block size to use in all IO operations \[16384\]$" \
  "help shows --file-block-size as N, as 1.0.20 does"
like "$out" "^  --file-total-size=SIZE +total size of files to create \[2G\]$" \
  "... and --file-total-size as SIZE"

done_testing
