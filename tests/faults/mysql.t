#!/usr/bin/env bash
# mysql.t: faults around a private MariaDB, each compared with what sysbench 1.0.20 does in the
# same situation (ours the same, or a difference declared in tests/compat/differences.txt):
#   - the server killed (SIGKILL) in the middle of oltp_read_write on 4 threads: with the
#     default --mysql-ignore-errors every thread that was in a statement prints 1.0.20's two
#     lines for the lost connection, then our report, exit 1 as 1.0.20; with
#     --mysql-ignore-errors=all and the server started again, each thread reconnects once
#     (reconnects: 4) and the run finishes its events, exit 0 (1.0.20 crashes), the report
#     saying for how long the server was unreachable; with the server never started again
#     (mysql and tidb drivers), 1.0.20's interval lines are followed by ours counting the
#     failed reconnects, the report says since when the server was unreachable, how many
#     reconnects failed and why, the result file has the outage, and the exit code is 1 (with
#     --compat=1.0.20 too, where none of those lines of ours is printed);
#   - the server down before the start: 1.0.20's failed-connection lines once, not once per
#     thread, exit 1, and no thread_done error (bundled oltp_common.lua and 1.0.20's own);
#   - SIGINT / SIGTERM during run: the report of what ran, exit 130 / 143 as 1.0.20's;
#   - SIGINT / SIGTERM during prepare (4 threads, several tables): a message naming the
#     incomplete tables and the fix, exit 130 / 143, complete tables untouched, incomplete ones
#     marked and holding the rows the message says, the next prepare refusing with a hint
#     naming `cleanup` and --resume, and prepare --resume finishing them to the right rows;
#     no FATAL line: the streams broken off are ours, not statements that failed (the
#     statements before them succeeded);
#   - two signals close together during prepare (the pid, then again at once, as `timeout`
#     sends; INT then TERM): one request, the same lines and exit code, three times over; 1.0.20
#     dies of the first without a word (declared: report-after-signal).
# Nothing waits on a guess: a run is interrupted once its output shows it is under way, and
# loads are slowed with SYSBENCH_TEST_LOAD_DELAY (docs/prepare.md).
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/mysql.sh"
. "$SRCDIR/tests/lib/compat.sh"
. "$SRCDIR/tests/lib/signals.sh"

mysql_sandbox_start

# ---- helpers ---------------------------------------------------------------------------------

kill_server() {   # SIGKILL the sandbox server and wait until it is gone
  local pid
  pid=$(tr -dc 0-9 < "$SANDBOX_DIR/mysqld.pid")
  kill -KILL "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}
restart_server() {   # start it again on the same port (crash recovery included)
  "$SRCDIR/scripts/mariadb-sandbox.sh" start "$SANDBOX_DIR" --port "$MYSQL_PORT" \
    >/dev/null 2>>"$TEST_TMP/sandbox.log"
}

# bg BINARY ARGS...: BINARY against the sandbox in the background, from the scratch directory
# (1.0.20 must never run from the source tree); its output goes to $TEST_TMP/bg.out.
bg() {
  local bin=$1
  shift
  : >"$TEST_TMP/bg.out"      # emptied here: the previous run's lines must not match
  (cd "$TEST_TMP" && exec "$bin" "$@" "${MYSQL_ARGS[@]}") >>"$TEST_TMP/bg.out" 2>&1 &
  bg_pid=$!
}
# until_output REGEX: waits until the background output matches REGEX (tests/lib/signals.sh)
until_output() { wait_for_line "$TEST_TMP/bg.out" "$bg_pid" "$1"; }
# bg_wait [SECONDS]: waits for the background process: $rc, $out. A process still running
# after SECONDS (default 300) is killed (SIGKILL, $rc 137): 1.0.20 sometimes hangs where it
# usually crashes, and a hang of ours must fail the checks, not stop the suite.
bg_wait() {
  local i limit=${1:-300}
  for ((i = 0; i < limit * 10; i++)); do
    kill -0 "$bg_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -9 "$bg_pid" 2>/dev/null
  wait "$bg_pid"
  rc=$?
  out=$(cat "$TEST_TMP/bg.out")
}

# The FATAL lines of a run whose server died, with what varies from run to run masked (the
# statement, the script's line, 2006 or 2013 and its message), each shape once.
lost_shapes() {
  printf '%s\n' "$1" | grep '^FATAL: ' |
    sed -E "s/ for query '.*'\$/ for query 'Q'/
            s/failed: [^ ]*oltp_common\.lua:[0-9]+:/failed: oltp_common.lua:N:/
            s/error 20(06|13) \([^)]*\)/error 20NN (M)/
            s/errno = 20(06|13), state = 'HY000': .*/errno = 20NN, state = 'HY000': M/" |
    sort -u
}
# What 1.0.20 prints for a connection lost in a statement: its driver's line, then the
# script's error.
lost_line_re="^FATAL: (mysql_[a-z_]+\(\) returned error 20NN \(M\) for query 'Q'|\`thread_run' function failed: oltp_common\.lua:N: SQL error, errno = 20NN, state = 'HY000': M)$"

table_args=(--table-size=10000)
my oltp_read_write "${table_args[@]}" prepare >/dev/null
# 1.0.20's own module, apart: in $TEST_TMP it would be the one every run there loads
mkdir -p "$TEST_TMP/legacy"
cp /usr/share/sysbench/oltp_common.lua "$TEST_TMP/legacy/" 2>/dev/null

# ---- the server killed mid-run, default --mysql-ignore-errors ---------------------------------

run_args=(oltp_read_write "${table_args[@]}" --threads=4 --time=120 --report-interval=1 run)

bg "$SB" "${run_args[@]}"
until_output '^\[ 1s \] thds: 4 tps: [1-9]'
status_ok $? "the run is under way before the server is killed"
kill_server
bg_wait
ours_rc=$rc ours_out=$out
is "$ours_rc" 1 "server killed, default --mysql-ignore-errors: exit 1"
ours_shapes=$(lost_shapes "$ours_out")
unlike "$ours_shapes" "^$" "... with FATAL lines"
is "$(printf '%s\n' "$ours_shapes" | grep -cvE "$lost_line_re")" 0 \
  "... every one of them 1.0.20's driver line or its script error for a lost connection"
num_cmp "$(count "$ours_out" "^FATAL: \`thread_run' function failed")" "<=" 4 \
  "... one script error per thread at most"
like "$ours_out" "^SQL statistics:$" "... then the report of what ran (declared: report-after-fatal-error)"
is "$(stat reconnects)" 0 "... in which nothing reconnected"

# ---- the server down before the start ---------------------------------------------------------

# (sorted: 1.0.20's threads print their lines in any order)
same "the server down: oltp_read_write on 4 threads" --db --allow connect-failure-once --sort -- \
     oltp_read_write "${table_args[@]}" --threads=4 --time=1 run
is "$rc/$(count "$out" "^FATAL: unable to connect to MySQL server on host '127\.0\.0\.1', port $MYSQL_PORT, aborting\.\.\.$")" \
   "1/1" "... exit 1, the failed connection said once"
unlike "$out" "thread_done|attempt to index" "... and no thread_done error after the failed thread_init"
if [ -f "$TEST_TMP/legacy/oltp_common.lua" ]; then
  same "the server down: 1.0.20's own oltp_common.lua under both" --db --allow connect-failure-once --sort \
       --file legacy/oltp_common.lua -- oltp_read_write "${table_args[@]}" --threads=4 --time=1 run
  like "$out" "\./oltp_common\.lua:[0-9]+: connection creation failed" "... (its module was the one run)"
  unlike "$out" "thread_done|attempt to index" "... no thread_done error either"
else
  skip "no /usr/share/sysbench/oltp_common.lua (sysbench 1.0.20 is not installed)"
  skip "no /usr/share/sysbench/oltp_common.lua"
  skip "no /usr/share/sysbench/oltp_common.lua"
fi
declared connect-failure-once report-after-fatal-error mysql-server-restart report-after-signal

restart_server
status_ok $? "the server starts again"

if have_ref; then
  bg "$REF_SB" "${run_args[@]}"
  until_output '^\[ 1s \] thds: 4 tps: [1-9]'
  kill_server
  bg_wait
  is "$rc" "$ours_rc" "1.0.20 exits $rc too"
  ref_shapes=$(lost_shapes "$out")
  is "$(printf '%s\n' "$ref_shapes" | grep -cvE "$lost_line_re")/$([ -n "$ref_shapes" ] && echo lines)" \
     "0/lines" "1.0.20 prints the same kinds of lines"
  unlike "$out" "^SQL statistics:$" "1.0.20 prints no report after them (the declared difference)"
  restart_server
else
  skip "no reference sysbench at $REF_SB"; skip "no reference"; skip "no reference"
fi

# ---- the server killed and started again, --mysql-ignore-errors=all ---------------------------

# 200 events at 50 per second: the run is still going when the server comes back, however
# fast the machine, and ends when the 200 are done.
all_args=(oltp_read_write "${table_args[@]}" --threads=4 --rate=50 --events=200 --time=0
          --report-interval=1 --mysql-ignore-errors=all run)
bg "$SB" "${all_args[@]}"
until_output '^\[ 1s \] thds: 4 tps: [1-9]'
status_ok $? "--mysql-ignore-errors=all: the run is under way before the server is killed"
kill_server
restart_server
bg_wait
is "$rc" 0 "--mysql-ignore-errors=all, server killed and started again: exit 0"
unlike "$out" "FATAL|ALERT" "... nothing fatal printed"
is "$(stat reconnects)" 4 "... each of the 4 threads reconnected once (reconnects: 4)"
is "$(stat 'total number of events')" 200 "... and the run finished its 200 events"
like "$out" "^General statistics:$" "... and printed its report"
like "$out" "^Server unreachable from [0-9.]+s to [0-9.]+s: [1-9][0-9]* failed reconnects by [1-4] threads?, then reconnected$" \
  "... which says when the server was unreachable and how many reconnects failed"

if have_ref; then
  bg "$REF_SB" "${all_args[@]}"
  until_output '^\[ 1s \] thds: 4 tps: [1-9]'
  kill_server
  restart_server
  bg_wait 20     # its 200 events take 4 s; 1.0.20 crashes (139) or, now and then, hangs (137)
  num_cmp "$rc" "!=" 0 "1.0.20 does not survive the restart (exit $rc; 139 is its SIGSEGV, 137 a hang we ended): declared mysql-server-restart"
else
  skip "no reference sysbench at $REF_SB"
fi

# ---- the server killed for good, --mysql-ignore-errors=all (mysql and tidb drivers) ----------

# the tidb driver checks it talks to TiDB: this MariaDB gets TiDB's version function meanwhile
sql "CREATE FUNCTION tidb_version() RETURNS VARCHAR(64) DETERMINISTIC RETURN 'v0-fake (MariaDB)'"
for drv in mysql tidb; do
  bg "$SB" oltp_read_write "${table_args[@]}" --db-driver=$drv --threads=4 --time=6 \
     --report-interval=1 --mysql-ignore-errors=all --report-file=outage-$drv.json run
  until_output '^\[ 1s \] thds: 4 tps: [1-9]'
  status_ok $? "$drv, --mysql-ignore-errors=all: the run is under way before the server is killed for good"
  kill_server
  bg_wait
  is "$rc" 1 "$drv: the server never came back: exit 1 (it was 0)"
  like "$out" "^\[ [3-6]s \] thds: 4 tps: 0\.00 qps: 0\.00 \(r/w/o: 0\.00/0\.00/0\.00\) lat \(ms,95%\): 0\.00 err/s: 0\.00 reconn/s: 0\.00$" \
    "$drv: 1.0.20's interval line is unchanged while the server is down"
  like "$out" "^\[ [3-6]s \] server unreachable: failed reconn/s: [0-9]*[1-9][0-9]*\.[0-9]{2} threads reconnecting: 4$" \
    "$drv: ... and followed by ours, with the failed reconnects and the threads reconnecting"
  is "$(stat reconnects)" 0 "$drv: 1.0.20's report lines are kept (reconnects: 0)"
  like "$out" "^Server unreachable from [0-9.]+s to the end \([0-9.]+s\): [1-9][0-9]* failed reconnects by 4 threads$" \
    "$drv: the report says since when the server was unreachable and how many reconnects failed"
  like "$out" "^    last error: unable to connect to MySQL server on host '127\.0\.0\.1', port $MYSQL_PORT: error 2002: " \
    "$drv: ... naming the server and the error"
  like "$out" "^    no event succeeded after [0-9.]+s: the run failed \(exit code 1\)$" \
    "$drv: ... and why the run failed"
  is "$(python3 - "$TEST_TMP/outage-$drv.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
o = r["outage"]
print(r["exit_code"], o["until_end"], o["run_failed"], o["failed_reconnects"] > 0,
      o["threads_unreachable_at_end"], o["from"] < o["to"], "error 2002" in o["last_error"])
PY
)" "1 True True True 4 True True" "$drv: the result file has the outage (until the end, the run failed)"
  restart_server
  status_ok $? "the server starts again"
done
sql "DROP FUNCTION tidb_version"
# The exact-output mode: 1.0.20's lines alone (ours, the line after each interval line and the
# report's outage lines, are additions), and still exit 1 where 1.0.20 crashes
SYSBENCH_COMPAT=1.0.20 bg "$SB" oltp_read_write "${table_args[@]}" --threads=4 --time=6 \
   --report-interval=1 --mysql-ignore-errors=all run
until_output '^\[ 1s \] thds: 4 tps: [1-9]'
status_ok $? "--compat=1.0.20: the run is under way before the server is killed for good"
kill_server
bg_wait
is "$rc" 1 "--compat=1.0.20, the server never came back: exit 1 too"
like "$out" "^\[ [3-6]s \] thds: 4 tps: 0\.00 qps: 0\.00 \(r/w/o: 0\.00/0\.00/0\.00\) lat \(ms,95%\): 0\.00 err/s: 0\.00 reconn/s: 0\.00$" \
  "... 1.0.20's interval line while the server is down"
is "$(printf '%s\n' "$out" | grep -ciE 'unreachable|failed reconn|no event succeeded|last error')" 0 \
  "... and none of ours: no line after it, no outage lines in the report"
like "$out" "^General statistics:$" "... whose report is printed"
restart_server
status_ok $? "the server starts again"
if have_ref; then
  bg "$REF_SB" oltp_read_write "${table_args[@]}" --threads=4 --time=6 --report-interval=1 \
     --mysql-ignore-errors=all run
  until_output '^\[ 1s \] thds: 4 tps: [1-9]'
  kill_server
  bg_wait 20
  num_cmp "$rc" "!=" 0 "1.0.20 does not survive the server's death either (exit $rc): declared mysql-server-restart"
  restart_server
else
  skip "no reference sysbench at $REF_SB"
fi

# ---- Ctrl-C and SIGTERM during run ------------------------------------------------------------

for sig in INT TERM; do
  code=$(( 128 + $(kill -l "$sig") ))
  bg "$SB" oltp_read_write "${table_args[@]}" --threads=4 --time=0 --report-interval=1 run
  until_output '^\[ 1s \] thds: 4 tps: [1-9]'
  kill -"$sig" "$bg_pid"
  bg_wait
  is "$rc" "$code" "SIG$sig during run: exit $code"
  like "$out" "^General statistics:$" "... after the report of what ran"
  num_cmp "$(stat transactions)" ">" 0 "... counting the transactions done"
  like "$out" "^WARNING: The run was interrupted by signal $(kill -l "$sig"); the report covers what ran until then$" \
    "... and a line saying the run was interrupted"
  if have_ref; then
    bg "$REF_SB" oltp_read_write "${table_args[@]}" --threads=4 --time=0 --report-interval=1 run
    until_output '^\[ 1s \] thds: 4 tps: [1-9]'
    kill -"$sig" "$bg_pid"
    bg_wait
    is "$rc" "$code" "SIG$sig: 1.0.20's exit code is $code too (it dies without a report)"
  else
    skip "no reference sysbench at $REF_SB"
  fi
done
my oltp_read_write cleanup >/dev/null

# ---- Ctrl-C during prepare: 4 threads, 3 tables -------------------------------------------------

comment_of() {
  sql "SELECT TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = '$1'"
}
exists() {
  [ "$(sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = '$1'")" = 1 ]
}
rows_of() { sql "SELECT COUNT(*) FROM $1"; }
checksum() { sql "CHECKSUM TABLE $1" | cut -f2; }
# listed_in LABEL TABLE: is TABLE in the interrupt message's "LABEL: ..." line?
listed_in() { printf '%s\n' "$out" | grep -E "^$1: " | grep -Eq "(: |, )$2( \(|,|$)"; }
# said_rows TABLE: the rows the message gives for an incomplete table ("sbtest2 (3000 of ...")
said_rows() { printf '%s\n' "$out" | sed -nE "s/^Incomplete tables: (.*[ ,])?$1 \(([0-9]+) of [0-9]+ rows\).*/\2/p"; }

# where_is TABLE SEED: what the interrupt message says of TABLE is what the database holds --
# complete: unmarked with every row; incomplete: marked with SEED and holding the rows it
# says; not created: absent. Which tables are where depends on how far the threads got.
where_is() {
  local t=$1 seed=$2 got
  if listed_in "Complete tables" "$t"; then
    got="complete: $(comment_of "$t")/$(rows_of "$t")"
    is "$got" "complete: /20000" "$t, said complete, is unmarked with its 20000 rows"
  elif listed_in "Incomplete tables" "$t"; then
    got="incomplete: $(comment_of "$t" | sed -E 's/; rows=.*//')/$(rows_of "$t")"
    is "$got" "incomplete: sysbench prepare: incomplete; seed=$seed/$(said_rows "$t")" \
      "$t, said incomplete, is marked so and holds the $(said_rows "$t") rows the message says"
  elif listed_in "Tables not created" "$t"; then
    exists "$t"
    is "$?" 1 "$t, said not created, does not exist"
  else
    fail "$t is in the interrupt message"
  fi
}

load=(--table-size=20000 --report-interval=0.2)
# interrupt_prepare SIGNAL ARGS...: prepare, stopped once rows are in. SIGNAL may be a pair
# "INT TERM": the second goes out as soon as the first was taken (tests/lib/signals.sh).
interrupt_prepare() {
  local sigs=$1
  shift
  export SYSBENCH_TEST_LOAD_DELAY=0.2      # every block waits 0.2 s: 4 s per table
  bg "$SB" oltp_read_write "${load[@]}" "$@" prepare
  unset SYSBENCH_TEST_LOAD_DELAY
  until_output '\] loaded [1-9][0-9]* of'
  set -- $sigs
  if [ $# = 2 ]; then
    signal_twice close "$1" "$bg_pid" "$bg_pid" "$2" "$bg_pid"
  else
    kill -"$1" "$bg_pid"
  fi
  bg_wait
}

# Fewer tables than threads: every table is loaded by all the threads, one after the other.
interrupt_prepare INT --tables=3 --threads=4 --rand-seed=7
is "$rc" 130 "Ctrl-C during prepare (4 threads, 3 tables): exit 130"
like "$out" "^WARNING: prepare was interrupted by signal 2$" "... says so"
unlike "$out" "^FATAL" "... without a FATAL line: the LOAD DATA streams broken off were ours, and the statements before them succeeded"
unlike "$out" "last message repeated" "... nor a repeated one"
like "$out" "^Incomplete tables: sbtest1 \([0-9]+ of 20000 rows\)" "... names the incomplete tables"
like "$out" "^Run \`cleanup\` to drop the tables, or the same \`prepare\` with --resume to finish loading them$" \
  "... and the fix"
for t in sbtest1 sbtest2 sbtest3; do where_is $t 7; done
my oltp_read_write "${load[@]}" --tables=3 --threads=4 --rand-seed=7 prepare
is "$rc" 1 "the next prepare refuses the incomplete table"
like "$out" "^HINT: sbtest1 was left incomplete by an interrupted prepare: \`cleanup\` drops the tables, the same prepare with --resume finishes loading them$" \
  "... with a hint naming it, cleanup and --resume"
my oltp_read_write "${load[@]}" --tables=3 --threads=4 --resume prepare
is "$rc" 0 "prepare --resume finishes the tables"
is "$(rows_of sbtest1)/$(rows_of sbtest2)/$(rows_of sbtest3)" "20000/20000/20000" "... to 20000 rows each"
is "$(comment_of sbtest1)$(comment_of sbtest2)$(comment_of sbtest3)" "" "... and takes the markers off"
my oltp_read_write "${load[@]}" --tables=3 --threads=4 --rand-seed=7 verify
is "$rc" 0 "... into the tables a fresh load with --rand-seed=7 gives (verify)"
my oltp_read_write --tables=3 cleanup >/dev/null

# ---- SIGTERM during prepare: complete tables kept, tables not created yet -----------------------

# More tables than threads: each thread loads tables of its own.
my oltp_read_write "${load[@]}" --tables=2 --threads=2 --rand-seed=9 prepare
before="$(checksum sbtest1)/$(checksum sbtest2)"
interrupt_prepare TERM --tables=8 --threads=4 --rand-seed=9 --resume
is "$rc" 143 "SIGTERM during prepare --resume (4 threads, 8 tables): exit 143"
like "$out" "^WARNING: prepare was interrupted by signal 15$" "... says so"
like "$out" "^Complete tables: sbtest1, sbtest2" "... names the complete tables"
like "$out" "^Incomplete tables: sbtest[3-8] " "... and the incomplete ones"
for t in sbtest1 sbtest2 sbtest3 sbtest4 sbtest5 sbtest6 sbtest7 sbtest8; do where_is $t 9; done
is "$(checksum sbtest1)/$(checksum sbtest2)" "$before" "the complete tables are untouched"
my oltp_read_write "${load[@]}" --tables=8 --threads=4 prepare
is "$rc" 1 "the next prepare refuses"
like "$out" "^HINT: sbtest[1-8] .*\`cleanup\` drops .*--resume" "... naming cleanup and --resume"
# without --rand-seed: the seed comes from the markers, the new tables' too
my oltp_read_write "${load[@]}" --tables=8 --threads=4 --resume prepare
is "$rc" 0 "prepare --resume without --rand-seed finishes the set"
like "$out" "^Loaded [0-9]+ rows into [0-9]+ tables .*, rows from --rand-seed=9; " \
  "... loading the missing tables from the seed the markers recorded"
my oltp_read_write "${load[@]}" --tables=8 --threads=4 --rand-seed=9 verify
is "$rc" 0 "... so all 8 tables are what a fresh load with --rand-seed=9 gives (verify)"
is "$(checksum sbtest1)/$(checksum sbtest2)" "$before" "... and the complete ones were left alone"
my oltp_read_write --tables=8 cleanup >/dev/null

# ---- two signals close together during prepare ----------------------------------------------
# As `timeout -s INT` sends them (the child, then its group) or a terminal and a supervisor:
# one request. Three tries; INT INT twice, INT then TERM once.

good=0 report=""
for pair in "INT INT" "INT TERM" "INT INT"; do
  interrupt_prepare "$pair" --tables=2 --threads=4 --rand-seed=11
  got="$rc"
  for line in "^WARNING: prepare was interrupted by signal 2$" "^Complete tables: " \
              "^Incomplete tables: sbtest1 \([0-9]+ of 20000 rows\)" "^Run \`cleanup\` to drop"; do
    printf '%s\n' "$out" | grep -Eq -- "$line" || got+=" missing /$line/"
  done
  printf '%s\n' "$out" | grep -q "^FATAL" && got+=" FATAL"
  [ "$got" = 130 ] && good=$((good + 1)) || report+=" [$pair: $got]"
  my oltp_read_write --tables=2 cleanup >/dev/null
done
is "$good$report" 3 "two signals close together during prepare, 3 tries: exit 130, the interrupted line and where each table is, no FATAL"

if have_ref; then
  # 1.0.20: a table big enough to be loading when the signals come
  bg "$REF_SB" oltp_read_write --table-size=2000000 --threads=4 prepare
  until_output "^Inserting 2000000 records into 'sbtest1'"
  signal_twice close INT "$bg_pid" "$bg_pid" INT "$bg_pid"
  bg_wait 60
  is "$rc|$(count "$out" "interrupted")" "130|0" \
    "1.0.20 dies of the first SIGINT during prepare: 130 without a word (declared: report-after-signal)"
  my oltp_read_write cleanup >/dev/null
else
  skip "no reference sysbench at $REF_SB"
fi

done_testing
