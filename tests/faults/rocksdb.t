#!/usr/bin/env bash
# rocksdb.t: the embedded RocksDB driver when things go wrong. Ctrl-C and SIGTERM during `run`
# (the report, the exit code of our cpu run and of 1.0.20, the table untouched) and during
# `prepare` (the summary, the exit code, an incomplete table every command recognises, no
# temporary file; two signals close together are one request, with the same summary and exit
# code); a load killed outright (its temporary file removed by the next command); a full disk
# (one FATAL line and exit 1, never an abort inside librocksdb, nothing lost); foreign
# directories (every command leaves them exactly as they were); files named like RocksDB's
# that the user put into the database directory (every command stops before RocksDB could
# delete or replay them); a run killed outright (the next one opens the database); `cleanup`
# next to files of the user's (they stay, and so does the directory) and in a directory that
# existed before prepare (emptied, kept).
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/mounts.sh"
. "$SRCDIR/tests/lib/signals.sh"

need_driver rocksdb librocksdb-dev

db="$TEST_TMP/db"
rk() { sb "$@" --db-driver=rocksdb --rocksdb-path="$db"; }

checksums() {   # the checksums the last verify read back, one per table
  printf '%s\n' "$out" | grep -oE "checksum [0-9a-f]{16}$" | tr '\n' ' '
}

# listing DIR: every entry with its type and size, then the checksum of every plain file: two
# listings are equal when the directory was left exactly as it was
listing() {
  (cd "$1" && find . -mindepth 1 -printf '%P %y %s\n' | sort &&
   find . -type f -exec md5sum {} + | sort)
}

load_files() {   # the loader's temporary SST files in DIR
  find "$1" -maxdepth 1 -name 'load-*.sst' | wc -l
}

# start_bg OUT COMMAND... : COMMAND in the background from $TEST_TMP, its output in OUT, its
# pid in $bg. wait_for REGEX: until it printed REGEX (false if it ended first; a bound of two
# minutes, not a time anything must take). stop_bg SIGNAL: sends it, waits, sets $rc and $out.
start_bg() {
  local o=$1
  shift
  # emptied here, not by the background job's redirection: wait_for must not find the text of
  # an earlier run in the file before the job has started
  : >"$o"
  (cd "$TEST_TMP" && exec "$@") >>"$o" 2>&1 &
  bg=$!
  bg_out=$o
}
wait_for() {
  local i
  for i in $(seq 1 2400); do
    grep -Eq -- "$1" "$bg_out" && return 0
    kill -0 "$bg" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}
stop_bg() {
  kill -"$1" "$bg" 2>/dev/null
  wait "$bg"
  rc=$?
  out=$(cat "$bg_out")
}

# ---- Ctrl-C and SIGTERM during `run` --------------------------------------------------------
# As our cpu run: the report of what ran until then, a WARNING naming the signal, exit code
# 128 + signal. 1.0.20 has no handler: the signal kills it, which the shell sees as the same
# status.

rk oltp_point_select --table-size=10000 --rand-seed=5 prepare
is "$rc" 0 "prepare of a 10000-row table for the interrupted runs"
rk oltp_point_select --table-size=10000 --rand-seed=5 verify
loaded=$(checksums)

for sig in INT TERM; do
  n=$(kill -l "$sig")
  start_bg "$TEST_TMP/run.out" "$SB" oltp_point_select --table-size=10000 --threads=2 --time=600 \
    --report-interval=1 run --db-driver=rocksdb --rocksdb-path="$db"
  wait_for "^\[ 1s \] thds: 2"
  ok $? "SIG$sig during run: the run got to its first interval report before the signal"
  stop_bg "$sig"
  is "$rc" $((128 + n)) "SIG$sig during run exits $((128 + n))"
  like "$out" "SQL statistics:" "... after the report"
  like "$out" "total number of events: +[1-9][0-9]*" "... of the events that ran"
  like "$out" "WARNING: The run was interrupted by signal $n; the report covers what ran until then" \
    "... and a line naming the signal"
  unlike "$out" "FATAL|Assertion|Aborted" "... and no error"
  is "$(load_files "$db")" 0 "... leaving no stray file"
  rk oltp_point_select --table-size=10000 --rand-seed=5 verify
  is "$rc/$(checksums)" "0/$loaded" "... and the table as prepare left it"

  start_bg "$TEST_TMP/cpu.out" "$SB" cpu --time=600 --report-interval=1 run
  wait_for "^\[ 1s \] thds: 1"
  stop_bg "$sig"
  is "$rc" $((128 + n)) "our cpu run stopped by SIG$sig exits the same $((128 + n))"
  like "$out" "WARNING: The run was interrupted by signal $n; the report covers what ran until then" \
    "... with the same line"
  if have_ref; then
    # a background job of a script ignores SIGINT unless told otherwise; 1.0.20 keeps that
    start_bg "$TEST_TMP/ref.out" env --default-signal="$sig" "$REF_SB" cpu --time=600 \
      --report-interval=1 run
    wait_for "^\[ 1s \] thds: 1"
    stop_bg "$sig"
    is "$rc" $((128 + n)) "1.0.20's cpu run killed by SIG$sig: the shell sees the same $((128 + n))"
  else
    skip "no reference sysbench at $REF_SB"
  fi
done
rk oltp_point_select cleanup

# ---- Ctrl-C and SIGTERM during `prepare` -----------------------------------------------------
# SYSBENCH_TEST_LOAD_DELAY makes the loaders wait before each block, so the signal lands in the
# middle of the load whatever the machine's speed.

prepare_bg() {   # prepare_bg ARGS...: a slowed-down prepare of two tables in the background
  start_bg "$TEST_TMP/prepare.out" env SYSBENCH_TEST_LOAD_DELAY=0.3 "$SB" oltp_read_write \
    --tables=2 --table-size=60000 --rand-seed=31 --report-interval=0.2 "$@" prepare \
    --db-driver=rocksdb --rocksdb-path="$db"
  wait_for "\[ .*s \] loaded [1-9]"
}

incomplete_everywhere() {   # incomplete_everywhere WHAT: run, prepare and verify name it
  rk oltp_read_write --tables=2 --table-size=60000 --rand-seed=31 --events=1 run
  is "$rc" 1 "$1: run refuses the incomplete table"
  like "$out" "Table 'sbtest1' in the RocksDB database at '$db' was left incomplete by an interrupted prepare: run \`cleanup\`, or the same \`prepare\` with --resume" \
    "... saying it was left incomplete by an interrupted prepare, and what to run"
  rk oltp_read_write --tables=2 --table-size=60000 --rand-seed=31 prepare
  is "$rc" 1 "$1: prepare refuses it"
  like "$out" "HINT: sbtest1 was left incomplete by an interrupted prepare: \`cleanup\` drops the tables, the same prepare with --resume loads it again" \
    "... saying the same"
  rk oltp_read_write --tables=2 --table-size=60000 --rand-seed=31 verify
  is "$rc" 1 "$1: verify finds it wrong"
  like "$out" "sbtest1: WRONG: left incomplete by an interrupted prepare: \`cleanup\` drops it, the same prepare with --resume loads it again" \
    "... saying the same"
}

# One thread: sbtest1's rows are all in one file, not ingested yet when the signal comes; the
# table is marked incomplete all the same.
prepare_bg --threads=1
ok $? "SIGINT during prepare (1 thread): the load was under way before the signal"
stop_bg INT
is "$rc" 130 "SIGINT during prepare exits 130"
like "$out" "WARNING: prepare was interrupted by signal 2" "... saying so"
like "$out" "Incomplete tables: sbtest1 \([0-9]+ of 60000 rows\)" "... naming the incomplete table"
like "$out" "Tables not created: sbtest2" "... and the one not begun"
like "$out" "Run \`cleanup\` to drop the tables, or the same \`prepare\` with --resume" \
  "... and what to run next"
is "$(load_files "$db")" 0 "... leaving no temporary SST file"
incomplete_everywhere "after SIGINT before anything was ingested"
rk oltp_read_write --tables=2 cleanup
is "$rc/$(ls -A "$TEST_TMP" | grep -c '^db$')" "0/0" "cleanup drops the incomplete table and removes the directory"

# Four threads: each table in ranges of its own files, some ingested when the signal comes.
prepare_bg --threads=4
ok $? "SIGTERM during prepare (4 threads): the load was under way before the signal"
stop_bg TERM
is "$rc" 143 "SIGTERM during prepare exits 143"
like "$out" "WARNING: prepare was interrupted by signal 15" "... saying so"
like "$out" "Incomplete tables: sbtest1 \([0-9]+ of 60000 rows\)" "... naming the incomplete table"
is "$(load_files "$db")" 0 "... leaving no temporary SST file"
incomplete_everywhere "after SIGTERM with ranges ingested"
rk oltp_read_write --tables=2 --table-size=60000 --rand-seed=31 --resume prepare
is "$rc" 0 "prepare --resume loads the incomplete table again"
rk oltp_read_write --tables=2 --table-size=60000 --rand-seed=31 verify
is "$rc" 0 "... and verify finds both tables right"
rk oltp_read_write --tables=2 cleanup

# Two signals close together (the pid, then again as soon as the first was taken, as
# `timeout` or a terminal and a supervisor send them): one request, three tries.
good=0 report=""
for pair in "INT INT" "INT TERM" "INT INT"; do
  set -- $pair
  prepare_bg --threads=4
  signal_twice close "$1" "$bg" "$bg" "$2" "$bg"
  wait "$bg"
  rc=$?
  out=$(cat "$bg_out")
  got="$rc"
  for line in "^WARNING: prepare was interrupted by signal 2$" "^Complete tables: " \
              "^Incomplete tables: sbtest1 \([0-9]+ of 60000 rows\)" "^Run \`cleanup\` to drop"; do
    printf '%s\n' "$out" | grep -Eq -- "$line" || got+=" missing /$line/"
  done
  [ "$(load_files "$db")" = 0 ] || got+=" temporary SST files left"
  [ "$got" = 130 ] && good=$((good + 1)) || report+=" [$pair: $got]"
  rk oltp_read_write --tables=2 cleanup
done
is "$good$report" 3 "two signals close together during prepare, 3 tries: exit 130, the interrupted line and where each table is, no temporary file"

# SIGKILL: nothing in the process can clean up; the next command removes the loader's file.
start_bg "$TEST_TMP/prepare.out" env SYSBENCH_TEST_LOAD_DELAY=0.3 "$SB" oltp_point_select \
  --table-size=60000 --report-interval=0.2 prepare --db-driver=rocksdb --rocksdb-path="$db"
wait_for "\[ .*s \] loaded [1-9]"
stop_bg KILL
num_cmp "$(load_files "$db")" ">" 0 "a load killed by SIGKILL leaves its temporary SST file"
rk oltp_point_select --table-size=60000 --events=1 run
like "$out" "WARNING: Removed [0-9]+ temporary SST files? an interrupted prepare left in '$db'" \
  "the next command removes it, saying so"
is "$(load_files "$db")" 0 "... and it is gone"
like "$out" "was left incomplete by an interrupted prepare" "... and the table is incomplete"
rk oltp_point_select cleanup

# ---- verify of a table that does not exist (it crashed: no plain database handle) -----------

rk oltp_point_select --table-size=100 prepare
rk oltp_point_select --table-size=100 --tables=2 verify
is "$rc" 1 "verify of a table that does not exist exits 1"
like "$out" "sbtest2: WRONG: the table does not exist" "... saying so"
rk oltp_point_select --tables=2 cleanup

# ---- a full disk ---------------------------------------------------------------------------

fill() {   # fill DIR KIB: a filler file that leaves KIB KiB free on DIR's file system (0: none)
  local avail
  if [ "$2" = 0 ]; then
    dd if=/dev/zero of="$1/filler" bs=64k 2>/dev/null
    return 0
  fi
  avail=$(df --output=avail -k "$1" | tail -1 | tr -d ' ')
  dd if=/dev/zero of="$1/filler" bs=1k count=$((avail > $2 ? avail - $2 : 0)) 2>/dev/null
}
no_abort() {   # no_abort WHAT: the last command ended by itself, not inside librocksdb
  unlike "$out$err" "Assertion|Aborted|core dumped" "$1: no assertion, no abort"
  ok $([ "$rc" -lt 128 ]; echo $?) "$1: exit code $rc, not a signal's"
}

if scratch_mount small small tmpfs size=16m; then
  db="$small/db"
  rk oltp_point_select --table-size=1000 --rand-seed=9 prepare
  is "$rc" 0 "a small table on a 16M tmpfs"
  rk oltp_point_select --table-size=1000 --rand-seed=9 verify
  loaded=$(checksums)

  fill "$small" 0
  before=$(listing "$db")
  for cmd in run prepare verify cleanup; do
    rk oltp_point_select --table-size=1000 --events=10 $cmd
    is "$rc" 1 "$cmd on a full disk exits 1"
    like "$out" "^FATAL: No space left on device for the RocksDB database at '$db': its file system has 0 KiB free, opening the database needs [0-9]+ KiB: free some space or choose another --rocksdb-path$" \
      "... with one line naming the directory and what to do"
    is "$(count "$out" "No space left")" 1 "... said once"
    no_abort "$cmd on a full disk"
    is "$(listing "$db")" "$before" "... and the database directory exactly as it was"
  done
  rm -f "$small/filler"
  rk oltp_point_select --table-size=1000 --events=10 run
  is "$rc" 0 "with space again, run works"
  rk oltp_point_select --table-size=1000 --rand-seed=9 verify
  is "$rc/$(checksums)" "0/$loaded" "... on the table as it was loaded"
  rk oltp_point_select cleanup

  # A run whose writes fill the disk: RocksDB's write fails, and its LOG (which it would write
  # the error to, and then abort) stays empty.
  rk oltp_insert --table-size=1000 prepare
  fill "$small" 2048
  rk oltp_insert --table-size=1000 --threads=2 --time=0 --events=1000000 run
  is "$rc" 1 "a run whose writes fill the disk exits 1"
  like "$out" "FATAL: .*No space left on device" "... with RocksDB's error"
  is "$(count "$out" "No space left")" 1 "... in one line"
  like "$out" "SQL statistics:" "... after the report of what ran"
  no_abort "a run filling the disk"
  rm -f "$small/filler"
  rk oltp_point_select --table-size=1000 --events=10 run
  is "$rc" 0 "with space again, the database opens and runs"
  rk oltp_insert cleanup

  # prepare on an almost full file system: refused before anything is created
  fill "$small" 256
  rk oltp_point_select --table-size=1000 prepare
  is "$rc" 1 "prepare with 256K free exits 1"
  like "$out" "^FATAL: No space left on device for the RocksDB database at '$db'" "... naming the directory"
  no_abort "prepare with 256K free"
  [ ! -e "$db" ]
  ok $? "... and creates nothing"
  rm -f "$small/filler"

  # a load larger than the space left
  fill "$small" 2048
  rk oltp_point_select --table-size=40000 --rand-seed=9 prepare
  is "$rc" 1 "a load that fills the disk exits 1"
  like "$out" "FATAL: .*No space left on device: While appending to file: $db/load-[0-9ps-]+\.sst" \
    "... with the file it could not write"
  is "$(count "$out" "No space left")" 1 "... in one line"
  no_abort "a load filling the disk"
  is "$(load_files "$db")" 0 "... leaving no temporary SST file"
  rm -f "$small/filler"
  rk oltp_point_select --table-size=40000 --rand-seed=9 prepare
  like "$out" "HINT: sbtest1 was left incomplete by an interrupted prepare" \
    "the table it was loading is recognised as incomplete"
  rk oltp_point_select --table-size=40000 --rand-seed=9 --resume prepare
  is "$rc" 0 "with space again, prepare --resume loads it"
  rk oltp_point_select --table-size=40000 --rand-seed=9 verify
  is "$rc" 0 "... completely"
  rk oltp_point_select cleanup
  [ ! -e "$db" ]
  ok $? "... and cleanup removes it all"
else
  mounts_or_skip 49 "full-disk tests need a 16M tmpfs"
fi
db="$TEST_TMP/db"

# ---- foreign directories: every command refuses them, and they stay exactly as they were ---

# make_foreign DIR [FAMILY]: a RocksDB database of another program (librocksdb through FFI),
# holding the key "hello" and, given FAMILY, that column family; without its LOCK and LOG
# files, as a copy of it (a checkpoint, a backup) has none
cat > "$TEST_TMP/foreign.lua" <<'EOF'
ffi.cdef[[
typedef struct rocksdb_t rocksdb_t;
typedef struct rocksdb_options_t rocksdb_options_t;
typedef struct rocksdb_writeoptions_t rocksdb_writeoptions_t;
typedef struct rocksdb_column_family_handle_t rocksdb_column_family_handle_t;
rocksdb_options_t *rocksdb_options_create(void);
void rocksdb_options_set_create_if_missing(rocksdb_options_t *, unsigned char);
rocksdb_t *rocksdb_open(const rocksdb_options_t *, const char *, char **);
void rocksdb_close(rocksdb_t *);
rocksdb_writeoptions_t *rocksdb_writeoptions_create(void);
void rocksdb_put(rocksdb_t *, const rocksdb_writeoptions_t *, const char *, size_t,
                 const char *, size_t, char **);
rocksdb_column_family_handle_t *rocksdb_create_column_family(rocksdb_t *,
    const rocksdb_options_t *, const char *, char **);
void rocksdb_column_family_handle_destroy(rocksdb_column_family_handle_t *);
]]
sysbench.cmdline.options = {
  ["foreign-dir"] = {"database directory", ""},
  family = {"column family to add", ""},
}
sysbench.cmdline.commands = { make = { function()
  local C, err = ffi.C, ffi.new("char *[1]")
  local o = C.rocksdb_options_create()
  C.rocksdb_options_set_create_if_missing(o, 1)
  local db = C.rocksdb_open(o, sysbench.opt.foreign_dir, err)
  assert(err[0] == nil, "rocksdb_open failed")
  C.rocksdb_put(db, C.rocksdb_writeoptions_create(), "hello", 5, "world", 5, err)
  if sysbench.opt.family ~= "" then
    C.rocksdb_column_family_handle_destroy(C.rocksdb_create_column_family(db, o,
      sysbench.opt.family, err))
  end
  C.rocksdb_close(db)
end } }
EOF
make_foreign() {
  sb foreign.lua --foreign-dir="$1" ${2:+--family="$2"} make
  rm -f "$1/LOCK" "$1"/LOG*
  [ -f "$1/CURRENT" ] && [ ! -e "$1/LOCK" ]
}

mkdir -p "$TEST_TMP/notdb" "$TEST_TMP/badcurrent"
echo "my notes" > "$TEST_TMP/notdb/notes.txt"
echo "not a manifest name" > "$TEST_TMP/badcurrent/CURRENT"
echo "my data" > "$TEST_TMP/badcurrent/data.bin"
make_foreign "$TEST_TMP/keys"
ok $? "a RocksDB database of another program (the key 'hello'), without LOCK and LOG"
make_foreign "$TEST_TMP/family" other
ok $? "a RocksDB database of another program with a column family 'other'"

refusal() {   # the reason each directory is refused for
  case $1 in
    notdb) echo "is not a RocksDB database \(no CURRENT file\) and not empty \(it holds 'notes.txt'\)" ;;
    badcurrent) echo "has a CURRENT file but RocksDB cannot read it as a database \(Corruption: [^)]*\)" ;;
    keys) echo "is a RocksDB database sysbench did not create \(it holds the key 'hello'\)" ;;
    family) echo "is a RocksDB database sysbench did not create \(it has the column family 'other'\)" ;;
  esac
}
for dir in notdb badcurrent keys family; do
  db="$TEST_TMP/$dir"
  before=$(listing "$db")
  for cmd in prepare run verify cleanup; do
    rk oltp_point_select --table-size=100 --events=1 $cmd
    is "$rc" 1 "$dir: $cmd exits 1"
    like "$out" "^FATAL: '$db' $(refusal $dir): choose another --rocksdb-path$" "$dir: $cmd says why, in one line"
    is "$(listing "$db")" "$before" "$dir: $cmd leaves it exactly as it was (no LOCK, no LOG)"
  done
done
db="$TEST_TMP/db"

# ---- files named like RocksDB's that sysbench did not create --------------------------------
# RocksDB deletes the files it takes for obsolete when it opens a database (table files it does
# not use, old MANIFEST and OPTIONS files), replays every write-ahead log it finds, and cleanup
# removes the database's files: a file of the user's with such a name stops every command
# before the database is opened, and stays exactly as it was.

db="$TEST_TMP/named"
rk oltp_read_write --table-size=500 --rand-seed=4 prepare
rk oltp_read_write --table-size=500 --rand-seed=4 verify
loaded=$(checksums)
for f in 000500.sst 000501.log MANIFEST-000999 OPTIONS-000001 LOG.old.1 LOGBOOK; do
  echo "the user's $f" > "$db/$f"
done
before=$(listing "$db")
for cmd in verify run prepare prewarm cleanup; do
  rk oltp_read_write --table-size=500 --events=10 $cmd
  is "$rc" 1 "a file of the user's named like RocksDB's: $cmd exits 1"
  like "$out" "^FATAL: The RocksDB directory '$db' holds 6 files named like RocksDB's own that sysbench did not create \('000500.sst', '000501.log', 'LOG.old.1', ...\): opening the database would let RocksDB delete or replay them, so it was not opened; move them out of the directory$" \
    "... naming them, and what to do, in one line"
  is "$(listing "$db")" "$before" "... leaving them, and everything else, exactly as they were"
done
mkdir "$TEST_TMP/moved" && mv "$db"/000500.sst "$db"/000501.log "$db"/MANIFEST-000999 \
  "$db"/OPTIONS-000001 "$db"/LOG.old.1 "$db"/LOGBOOK "$TEST_TMP/moved/"
rk oltp_read_write --table-size=500 --rand-seed=4 verify
is "$rc/$(checksums)" "0/$loaded" "moved out of the directory, verify reads the table as it was loaded"

# A symlink with such a name: RocksDB would delete the link.
echo outside > "$TEST_TMP/outside.txt"
ln -s "$TEST_TMP/outside.txt" "$db/000777.sst"
rk oltp_read_write --table-size=500 --events=10 run
is "$rc" 1 "a symlink named like a table file stops run too"
like "$out" "^FATAL: The RocksDB directory '$db' holds 1 file named like RocksDB's own that sysbench did not create \('000777.sst'\): .* move it out of the directory$" \
  "... naming it"
[ -L "$db/000777.sst" ] && [ "$(cat "$TEST_TMP/outside.txt")" = outside ]
ok $? "... and stays, and so does the file it points to"
rm "$db/000777.sst"

# kill -9 in the middle of a run that flushes and compacts (64K memtables): RocksDB leaves
# files of its own the record does not hold, and the next run opens the database all the same.
start_bg "$TEST_TMP/run.out" "$SB" oltp_write_only --table-size=500 --threads=2 --time=600 \
  --report-interval=1 --rocksdb-write-buffer-size=64K run --db-driver=rocksdb --rocksdb-path="$db"
wait_for "^\[ 2s \] thds: 2"
ok $? "a writing run with 64K memtables got under way"
stop_bg KILL
grep -q "^state under-way$" "$db/SYSBENCH-FILES"
ok $? "SIGKILL: the record says a command was under way"
num_cmp "$(find "$db" -name '*.sst' | wc -l)" ">" 2 "... and the database flushed table files of its own meanwhile"
rk oltp_read_write --table-size=500 --events=20 run
is "$rc" 0 "the next run opens the database and runs"
unlike "$out" "FATAL|named like RocksDB" "... without a word about its files"
grep -q "^state closed$" "$db/SYSBENCH-FILES"
ok $? "... and the record says it ended"
# after a killed command, a file numbered below what the record holds is still not RocksDB's
start_bg "$TEST_TMP/run.out" "$SB" oltp_point_select --table-size=500 --time=600 \
  --report-interval=1 run --db-driver=rocksdb --rocksdb-path="$db"
wait_for "^\[ 1s \] thds: 1"
stop_bg KILL
echo "the user's" > "$db/000002.sst"
rk oltp_read_write --table-size=500 --events=10 run
is "$rc" 1 "after a killed run, a table file numbered below the database's files stops the next run"
like "$out" "^FATAL: The RocksDB directory '$db' holds 1 file named like RocksDB's own that sysbench did not create \('000002.sst'\)" \
  "... naming it"
is "$(cat "$db/000002.sst")" "the user's" "... and stays as it was"
rm "$db/000002.sst"
# A database of an earlier version has no record: its first open records the files the
# database references, and a table file it does not reference is refused all the same. (A
# command that ended first: RocksDB's own leftovers of the killed one are gone.)
rk oltp_read_write --table-size=500 --events=10 run
rm "$db/SYSBENCH-FILES"
echo "the user's" > "$db/000900.sst"
rk oltp_read_write --table-size=500 --events=10 run
is "$rc" 1 "without a record: a table file the database does not use stops run"
like "$out" "^FATAL: The RocksDB directory '$db' holds 1 file named like RocksDB's own that the database does not use \('000900.sst'\), and no record of the files sysbench created there \(an earlier version prepared it\): .*; move it out of the directory \(if the last command on the database was killed, it may be RocksDB's leftovers, which it would delete\)$" \
  "... naming it, and saying that it may be RocksDB's after a killed command"
rm "$db/000900.sst"
rk oltp_read_write --table-size=500 --events=10 run
is "$rc" 0 "without it, run opens the database"
[ "$(grep -c "^file [0-9]*\.sst$" "$db/SYSBENCH-FILES")" = "$(find "$db" -name '*.sst' | wc -l)" ]
ok $? "... and records its table files"
rk oltp_read_write cleanup
[ ! -e "$db" ]
ok $? "cleanup removes the database and the directory prepare created"

# ---- cleanup next to the user's files ------------------------------------------------------

db="$TEST_TMP/db"
rk oltp_point_select --table-size=100 prepare
echo keep > "$db/myfile.txt"
mkdir "$db/notes" && echo inner > "$db/notes/inner.txt"
ln -s "$TEST_TMP/outside.txt" "$db/outside-link"
rk oltp_point_select cleanup
is "$rc" 0 "cleanup of a database directory the user put files into succeeds"
like "$out" "WARNING: Kept the directory '$db': it holds 3 entries sysbench did not write \(the first: '(myfile.txt|notes|outside-link)'\), left untouched; only the database files were removed" \
  "... saying in one line that it keeps the directory, and why"
is "$(ls -A "$db" | sort | tr '\n' ' ')" "myfile.txt notes outside-link " \
  "... removing the database files and only them"
is "$(cat "$db/myfile.txt")" "keep" "... the user's file with its content"
is "$(cat "$db/notes/inner.txt")" "inner" "... a subdirectory with its content"
[ -L "$db/outside-link" ] && [ "$(cat "$TEST_TMP/outside.txt")" = outside ]
ok $? "... a symlink, and the file it points to"

db="$TEST_TMP/plain"
rk oltp_point_select --table-size=100 prepare
rk oltp_point_select cleanup
[ ! -e "$db" ]
ok $? "cleanup of a directory holding only the database removes it"

# A directory that existed (empty) before prepare: cleanup removes every file of the database,
# those RocksDB wrote at each open too, and keeps the directory, saying so.
db="$TEST_TMP/existing"
mkdir "$db"
rk oltp_read_write --table-size=200 prepare
rk oltp_read_write --table-size=200 --events=20 run
rk oltp_read_write --table-size=200 verify
rk oltp_read_write cleanup
is "$rc" 0 "cleanup of a database prepared into a directory that existed succeeds"
like "$out" "^Removed the files of the RocksDB database from '$db' and kept the directory, which existed before prepare$" \
  "... saying that it kept the directory, and why"
is "$(ls -A "$db" | tr '\n' ' ')" "" "... which it leaves empty, as it found it"
echo mine > "$db/notes.txt"
rk oltp_read_write --table-size=200 prepare
is "$rc" 1 "prepare into a directory holding a file of the user's is refused"
rm "$db/notes.txt"
rk oltp_read_write --table-size=200 prepare
echo mine > "$db/notes.txt"
rk oltp_read_write cleanup
like "$out" "^Removed the files of the RocksDB database from '$db' and kept the directory, which existed before prepare, with the 1 entry sysbench did not write \(the first: 'notes.txt'\)$" \
  "a file the user added since stays too, named"
is "$(ls -A "$db")" "notes.txt" "... and is all that is left"

done_testing
