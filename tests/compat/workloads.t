#!/usr/bin/env bash
# workloads.t: every command of every bundled workload against a private MariaDB,
# differentially: help, prepare (messages, schemas, row counts), prewarm, run limited by
# --events (the report's counts), cleanup, bad option values; the same through 1.0.20's own
# scripts run by our binary, and our bundled workloads run with 1.0.20's oltp_common.lua first
# on the Lua path (as users with a patched copy have it).
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/mysql.sh"
. "$SRCDIR/tests/lib/compat.sh"

mysql_sandbox_start

# What prepare leaves, for --after: the schema of each table and its row count.
tables_after='for t in 1 2; do
  "$SRCDIR/scripts/mariadb-sandbox.sh" sql "$SANDBOX_DIR" -N -B --database=sbtest \
    "SELECT COUNT(*), COALESCE(MIN(id),0), COALESCE(MAX(id),0) FROM sbtest$t" \
    "SHOW CREATE TABLE sbtest$t" 2>&1 | sed "s/AUTO_INCREMENT=[0-9]* //"
done'
drop_all='"$SRCDIR/scripts/mariadb-sandbox.sh" sql "$SANDBOX_DIR" --database=sbtest \
  "DROP TABLE IF EXISTS sbtest1, sbtest2"'
export SRCDIR SANDBOX_DIR

common=(--tables=2 --table-size=100)

for w in oltp_read_only oltp_read_write oltp_write_only oltp_point_select oltp_update_index \
         oltp_update_non_index oltp_delete oltp_insert bulk_insert select_random_points \
         select_random_ranges; do
  same "$w help" -- "$w" help
  same "$w without a command" -- "$w"
done

for w in oltp_read_only oltp_read_write oltp_write_only oltp_point_select oltp_update_index \
         oltp_update_non_index oltp_delete oltp_insert; do
  same "$w prepare" --db --before "$drop_all" --after "$tables_after" -- "$w" "${common[@]}" prepare
  same "$w prepare when the tables exist" --db -- "$w" "${common[@]}" prepare
  same "$w prewarm" --db -- "$w" "${common[@]}" prewarm
  same "$w cleanup" --db --after "$tables_after" -- "$w" "${common[@]}" cleanup
done

# prepare with 2 threads: the tables are shared out, messages in any order
same "oltp_read_only prepare with 2 threads" --db --sort --before "$drop_all" \
     --after "$tables_after" -- oltp_read_only "${common[@]}" --threads=2 prepare
same "oltp_read_only cleanup with 2 threads" --db --sort -- oltp_read_only "${common[@]}" \
     --threads=2 cleanup

# run: the counts of every query kind for a fixed number of events
for w in oltp_read_only oltp_read_write oltp_write_only oltp_point_select oltp_update_index \
         oltp_update_non_index oltp_delete oltp_insert; do
  allow=""; [ $w = oltp_delete ] && allow="--allow random-streams"
  prep="$drop_all; \"\$SB_FOR_SIDE\" $w ${common[*]} $(printf '%q ' "${MYSQL_ARGS[@]}") prepare >/dev/null"
  same "$w run --events=50" --db $allow --before "$prep" -- "$w" "${common[@]}" --events=50 \
       --rand-seed=5 run
done
w=oltp_read_write
prep="$drop_all; \"\$SB_FOR_SIDE\" $w ${common[*]} $(printf '%q ' "${MYSQL_ARGS[@]}") prepare >/dev/null"
same "oltp_read_write --skip_trx --range_selects=off" --db --before "$prep" -- "$w" "${common[@]}" \
     --events=20 --skip_trx=on --range_selects=off run
# several threads: deadlocks may come and go, so only the layout is compared
same "oltp_read_write with 4 threads" --db --timed --before "$prep" -- "$w" "${common[@]}" \
     --events=40 --threads=4 run
same "oltp_read_write --db-ps-mode=disable" --db --before "$prep" -- "$w" "${common[@]}" \
     --events=20 --db-ps-mode=disable run
same "oltp_read_write --point_selects=3 --index_updates=2" --db --before "$prep" -- "$w" \
     "${common[@]}" --events=20 --point_selects=3 --index_updates=2 run
# --time=3 --report-interval=2: the one tick (2 s) comes well before the end (1.0.20 prints a
# tick that falls on the deadline or not, as its threads race; it takes whole seconds only)
same "oltp_read_write --report-interval, --percentile" --db --timed --before "$prep" -- "$w" \
     "${common[@]}" --time=3 --report-interval=2 --percentile=99 run

# --tables above what prepare made: thread_init fails on sbtest2 in every thread. 1.0.20 says
# its three lines once per thread, ours once (declared init-failure-once), then a HINT naming
# prepare with the same --tables and one saying where the oltp_common.lua of the message is.
prep="$drop_all; \"\$SB_FOR_SIDE\" oltp_read_only --tables=1 --table-size=100 $(printf '%q ' "${MYSQL_ARGS[@]}") prepare >/dev/null"
same "oltp_read_only run with --tables=3 after a prepare of 1 table, 4 threads" --db --sort \
     --allow init-failure-once --before "$prep" -- oltp_read_only --tables=3 --table-size=100 \
     --threads=4 --events=10 run
is "$(count "$out" "^FATAL: mysql_stmt_prepare\(\) failed$")/$(count "$out" "^FATAL: MySQL error: 1146 ")/$(count "$out" "^FATAL: \`thread_init' function failed: ")" \
   "1/1/1" "... ours says each of the three lines once (1.0.20: $(count "$ref_out" "^FATAL: \`thread_init' function failed: ") times)"
like "$out" "^HINT: sbtest2 does not exist, and this run uses --tables=3: run prepare with --tables=3 first \(sysbench oltp_read_only --tables=3 \.\.\. prepare\), or run with the --tables prepare was given$" \
  "... then a hint naming prepare with the same --tables"
line=$(printf '%s\n' "$out" | sed -nE "s/^FATAL: \`thread_init' function failed: oltp_common\.lua:([0-9]+): .*/\1/p")
like "$out" "^HINT: oltp_common\.lua is compiled into sysbench \(src/lua/oltp_common\.lua in its source\): \`sysbench --show-script=oltp_common \| sed -n ${line}p\` prints line $line$" \
  "... and one saying where oltp_common.lua:$line is and how to print that line"
sb --show-script=oltp_common
like "$(printf '%s\n' "$out" | sed -n "${line}p")" "\.statement\(con, kind, t\)" \
  "... which is the statement prepare the error is about"

# select_random_*: one table. As 1.0.20 does: prepare with --tables=2 creates both tables, run
# uses sbtest1 whatever --tables says (one config file serves every workload), and cleanup
# refuses --tables=2.
for w in select_random_points select_random_ranges; do
  prep="$drop_all; \"\$SB_FOR_SIDE\" $w --table-size=100 $(printf '%q ' "${MYSQL_ARGS[@]}") prepare >/dev/null"
  same "$w prepare" --db --before "$drop_all" --after "$tables_after" -- "$w" --table-size=100 prepare
  same "$w run" --db --before "$prep" -- "$w" --table-size=100 --events=30 run
  same "$w run with --tables=2" --db --before "$prep" -- "$w" --tables=2 --table-size=100 \
       --events=30 run
  same "$w prepare with --tables=2" --db --before "$drop_all" --after "$tables_after" -- \
       "$w" --tables=2 --table-size=100 prepare
  same "$w cleanup with --tables=2" --db --after "$tables_after" -- "$w" --tables=2 cleanup
  same "$w cleanup" --db --after "$tables_after" -- "$w" cleanup
done
# bulk_insert: one table per thread
same "bulk_insert prepare" --db --before "$drop_all" -- bulk_insert --threads=2 prepare
# (one thread: how the events of several spread over their tables is the scheduler's business)
prep="$drop_all; \"\$SB_FOR_SIDE\" bulk_insert $(printf '%q ' "${MYSQL_ARGS[@]}") prepare >/dev/null"
same "bulk_insert run" --db --before "$prep" -- bulk_insert --events=200 run
same "bulk_insert cleanup" --db -- bulk_insert --threads=2 cleanup

# bad values of the workload options: 1.0.20 takes them and fails later in odd ways (a nil
# index, a missing table); ours says which option and what it accepts, before anything runs
same "oltp_read_only run --skip_trx=maybe" --db -- oltp_read_only --skip_trx=maybe --events=1 run
same "oltp_read_only run --nosuch=1" --db -- oltp_read_only --nosuch=1 --events=1 run
declared workload-option-checks
for bad in --tables=0 --table-size=-1 --range_size=0 --point_selects=-1 --tables=abc \
           --table_size=1.5; do
  my oltp_read_only "$bad" --events=1 run
  name=${bad%%=*}; name=${name#--}
  is "$rc" 1 "oltp_read_only $bad: exit 1"
  pat=$(echo "$name" | sed 's/[-_]/[-_]/g')
  like "$out$err" "(invalid value for --$pat|Invalid value for the '$pat' option)" \
       "oltp_read_only $bad: the message names the option"
  unlike "$out" "Threads started" "oltp_read_only $bad: nothing runs"
done

# ---- 1.0.20's scripts ---------------------------------------------------------------------------
# Users keep their own oltp_common.lua in the working directory (TiDB's benchmark repository
# ships a patched one; ./?.lua comes first on package.path): our bundled workloads must work
# with 1.0.20's. Here both binaries find 1.0.20's oltp_common.lua in the scratch directory;
# 1.0.20 runs its own workloads with it, ours its bundled ones.
cp /usr/share/sysbench/oltp_common.lua "$TEST_TMP/oltp_common.lua"
for w in oltp_read_only oltp_read_write oltp_write_only oltp_point_select oltp_update_index \
         oltp_update_non_index oltp_delete oltp_insert select_random_points select_random_ranges; do
  prep="$drop_all; \"\$SB_FOR_SIDE\" $w ${common[*]} $(printf '%q ' "${MYSQL_ARGS[@]}") prepare >/dev/null"
  same "$w prepare with 1.0.20's oltp_common.lua" --db --file oltp_common.lua --before "$drop_all" \
       --after "$tables_after" -- "$w" "${common[@]}" prepare
  allow=""; [ $w = oltp_delete ] && allow="--allow random-streams"
  same "$w run with 1.0.20's oltp_common.lua" --db --file oltp_common.lua $allow \
       --before "$prep" -- "$w" "${common[@]}" --events=20 run
done
same "oltp_read_write cleanup with 1.0.20's oltp_common.lua" --db --file oltp_common.lua \
     --after "$tables_after" -- oltp_read_write "${common[@]}" cleanup

# 1.0.20's own scripts, copied into the scratch directory and named by path, through ours
mkdir -p "$TEST_TMP/ref_scripts"
cp /usr/share/sysbench/*.lua "$TEST_TMP/ref_scripts/"
for w in oltp_read_write oltp_point_select oltp_insert select_random_ranges bulk_insert; do
  args=("${common[@]}")
  [ $w = bulk_insert ] && args=()
  prep="$drop_all; \"\$SB_FOR_SIDE\" ref_scripts/$w.lua ${args[*]} $(printf '%q ' "${MYSQL_ARGS[@]}") prepare >/dev/null"
  same "1.0.20's $w.lua prepare" --db --file ref_scripts --before "$drop_all" -- \
       "ref_scripts/$w.lua" "${args[@]}" prepare
  same "1.0.20's $w.lua run" --db --file ref_scripts --before "$prep" -- \
       "ref_scripts/$w.lua" "${args[@]}" --events=20 run
  same "1.0.20's $w.lua cleanup" --db --file ref_scripts -- "ref_scripts/$w.lua" "${args[@]}" cleanup
done

done_testing
