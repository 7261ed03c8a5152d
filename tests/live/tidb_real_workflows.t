#!/usr/bin/env bash
# tidb_real_workflows.t: how people benchmark TiDB with sysbench 1.0.20, run with our binary
# against a real TiDB (tests/lib/tidb.sh):
#   - TiDB's own benchmark repository (pingcap/tidb-bench, sysbench/): a config file with
#     db-driver and port 4000, and its patched oltp_common.lua (tests/live/tidb/, written from
#     what it changes) beside it, which creates the index on k before the load; prepare, runs
#     of the bundled oltp workloads on that module with exact counts (as 1.0.20's on the same
#     server), cleanup -- through --db-driver=tidb, and through mysql as the repository has it;
#   - seed 004 (a TiDB benchmark report): its config file and its four command lines verbatim,
#     only the host and port 4000 changed to the test server's, then again with only
#     db-driver=tidb changed. Its runs are time=600: each is stopped with Ctrl-C (SIGINT) once
#     the server has executed a few hundred of its statements, and its report checked.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/tidb.sh"

tidb_server_start
db=sbtest_bench_$$
tsql "CREATE DATABASE $db"
created_sbtest=0
cleanup_all() {
  if [ "$TIDB_OWN" != 1 ]; then
    tsql "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1
    [ "$created_sbtest" = 1 ] && tsql "DROP DATABASE IF EXISTS sbtest" >/dev/null 2>&1
  fi
  _tidb_cleanup
}
trap cleanup_all EXIT
q() { tsql -D "$db" "$1"; }

# sbin DIR ARGS...: our binary run from DIR; rbin: the reference
sbin() { sb_in "$@"; }
rbin() {
  local dir=$1
  shift
  (cd "$dir" && "$REF_SB" "$@") >"$TEST_TMP/.out" 2>"$TEST_TMP/.err"
  rc=$?
  out=$(cat "$TEST_TMP/.out")
}
counts() {
  printf '%s/%s/%s' "$(field "$out" "read:")" \
    "$(( $(field "$out" "write:") + $(field "$out" "other:") ))" "$(field "$out" "transactions:")"
}

# ---------------------------------------------------------------------------------------------
# tidb-bench: config file + patched oltp_common.lua in the working directory

bench=$TEST_TMP/tidb-bench
mkdir -p "$bench"
cp "$SRCDIR/tests/live/tidb/oltp_common.lua" "$bench/"
write_config() {   # write_config FILE DRIVER: the repository's config, pointed at the test server
  {
    echo "time=300"
    echo "db-driver=$2"
    echo "mysql-host=$TIDB_HOST"
    echo "mysql-port=$TIDB_PORT"
    echo "mysql-user=$TIDB_USER"
    [ -n "$TIDB_PASSWORD" ] && echo "mysql-password=$TIDB_PASSWORD"
    echo "mysql-db=$db"
    echo "report-interval=10"
  } >"$1"
}
write_config "$bench/config" tidb
write_config "$bench/config-mysql" mysql

sbin "$bench" --config-file=config --threads=2 oltp_point_select --tables=2 --table_size=2000 prepare
is "$rc" 0 "tidb-bench: prepare with its config (db-driver=tidb) and its oltp_common.lua"
like "$out" "^tidb-bench oltp_common$" "... the module in the working directory is the one loaded"
first_index=$(line_of "$out" "^Creating a secondary index on 'sbtest1'")
first_insert=$(line_of "$out" "^Inserting 2000 records into 'sbtest1'")
status_ok "$([ "$first_index" -gt 0 ] && [ "$first_index" -lt "$first_insert" ]; echo $?)" \
   "... the index on k is created before the rows are loaded"
ddl_rows() {   # rows the add-index jobs of database $1 had to backfill, per table
  tsql "ADMIN SHOW DDL JOBS 100 WHERE db_name = '$1' AND job_type = 'add index'" |
    awk -F'\t' '{ print $3 "=" $8 }' | sort | tr '\n' ' '
}
is "$(ddl_rows "$db")" "sbtest1=0 sbtest2=0 " "... TiDB built each index on an empty table (0 rows backfilled)"
create=$(q "SHOW CREATE TABLE sbtest1" | cut -f2)
like "$create" "NONCLUSTERED" "... the primary key is NONCLUSTERED"
like "$create" "SHARD_ROW_ID_BITS=5 PRE_SPLIT_REGIONS=4" "... with its shard bits and pre-split regions"
like "$create" "AUTO_ID_CACHE=100000" "... and its id cache"
is "$(q "SELECT COUNT(*) FROM sbtest1"),$(q "SELECT COUNT(*) FROM sbtest2")" "2000,2000" "... every row loaded"

if have_ref; then
  # the check above can fail: 1.0.20's own oltp_common.lua builds the index after the load
  stock=$TEST_TMP/stock
  mkdir -p "$stock"
  tsql "CREATE DATABASE ${db}_stock"
  rbin "$stock" --db-driver=mysql "${TIDB_CONN[@]}" --mysql-db="${db}_stock" oltp_point_select \
       --tables=1 --table_size=2000 prepare
  is "$rc/$(ddl_rows "${db}_stock")" "0/sbtest1=2000 " \
     "(1.0.20's stock module, for contrast, backfills the index over all 2000 rows)"
  tsql "DROP DATABASE ${db}_stock"
fi

for w in oltp_point_select oltp_read_only oltp_read_write oltp_write_only oltp_update_index \
         oltp_update_non_index oltp_delete oltp_insert; do
  args=(--threads=1 "$w" --tables=2 --table_size=2000 --time=0 --events=40 --rand-seed=3 run)
  sbin "$bench" --config-file=config "${args[@]}"
  mine="$rc/$(counts)"
  has_report=$(printf '%s\n' "$out" | grep -c "^TiDB servers:")
  if have_ref; then
    rbin "$bench" --config-file=config-mysql "${args[@]}"
    want="$rc/$(counts)"
  else
    want=$mine
  fi
  is "$mine" "$want" "tidb-bench: $w on its module, through the tidb driver: the counts of 1.0.20's run"
  like "$mine" "^0/[0-9]+/[0-9]+/40$" "... 40 transactions"
  is "$has_report" 1 "... the TiDB report shows the tidb driver ran it"
done

sbin "$bench" --config-file=config-mysql --threads=1 oltp_read_write --tables=2 --table_size=2000 \
     --time=0 --events=40 run
is "$rc/$(field "$out" "transactions:")" "0/40" "tidb-bench: and through the mysql driver, as its config has it"

sbin "$bench" --config-file=config oltp_point_select --tables=2 cleanup
is "$rc" 0 "tidb-bench: cleanup through its module"
is "$(q "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '$db'")" 0 \
   "... drops the tables"

# ---------------------------------------------------------------------------------------------
# Seed 004: its config and command lines

if [ "$TIDB_OWN" != 1 ] && [ -n "$(tsql "SHOW DATABASES LIKE 'sbtest'")" ]; then
  skip "seed 004 uses database sbtest, which already exists on $TIDB_HOST:$TIDB_PORT"
  done_testing; exit
fi
[ -n "$(tsql "SHOW DATABASES LIKE 'sbtest'")" ] || { tsql "CREATE DATABASE sbtest"; created_sbtest=1; }

seed=$TEST_TMP/seed004
mkdir -p "$seed"
seed_config() {   # the report's sysbench.conf; host and port 4000 changed, db-driver as given
  cat <<EOF
mysql-host=$TIDB_HOST
mysql-port=$TIDB_PORT
mysql-user=$TIDB_USER
mysql-password=$TIDB_PASSWORD
mysql-db=sbtest
time=600
threads=32
report-interval=10
db-driver=$1
EOF
}

# statements TiDB has run in database sbtest so far
executed() {
  tsql "SELECT COALESCE(SUM(exec_count), 0) FROM information_schema.statements_summary WHERE schema_name = 'sbtest' AND stmt_type IN ('Select', 'Update')"
}

# interrupted_run ARGS...: our binary in the background; Ctrl-C once TiDB has executed 500 of
# its statements (or after 120 s without); $out, $rc as `sb` sets them.
interrupted_run() {
  local start i
  start=$(executed)
  (cd "$seed" && exec "$SB" "$@") >"$TEST_TMP/run.out" 2>&1 &
  local pid=$!
  for i in $(seq 1200); do
    kill -0 "$pid" 2>/dev/null || break
    [ $(( $(executed) - start )) -ge 500 ] && break
    sleep 0.1
  done
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  out=$(cat "$TEST_TMP/run.out")
}

for driver in mysql tidb; do
  seed_config "$driver" >"$seed/sysbench.conf"
  sbin "$seed" --config-file=sysbench.conf oltp_point_select --tables=32 --table-size=10000 prepare
  is "$rc" 0 "seed 004 (db-driver=$driver): prepare of 32 tables x 10000 rows with 32 threads"
  like "$out" "^Inserting 10000 records into 'sbtest32'$" "... all 32 tables"
  total=$(tsql -D sbtest "SELECT $(for t in $(seq 32); do printf '(SELECT COUNT(*) FROM sbtest%d)+' "$t"; done)0")
  is "$total" 320000 "... 320000 rows stored"

  for w in oltp_point_select oltp_update_index oltp_read_only; do
    interrupted_run --config-file=sysbench.conf "$w" --threads=16 --tables=32 --table-size=10000 run
    is "$rc" 130 "seed 004 (db-driver=$driver): $w --threads=16 runs until Ctrl-C"
    like "$out" "^Number of threads: 16$" "... with the command line's 16 threads over the config's 32"
    like "$out" "^Report intermediate results every 10 second\(s\)$" "... the config's report interval"
    num_cmp "$(field "$out" "transactions:")" ">" 0 "... and reports the transactions it ran"
    is "$(field "$out" "ignored errors:")" 0 "... without errors"
    case $w in
      oltp_update_index) is "$(field "$out" "read:")" 0 "... writes only" ;;
      *) is "$(field "$out" "write:")" 0 "... reads only" ;;
    esac
    if [ "$driver" = tidb ]; then
      like "$out" "port $TIDB_PORT +connections: 16 " "... 16 connections in the TiDB report"
    fi
  done
  sbin "$seed" --config-file=sysbench.conf oltp_point_select --tables=32 cleanup
  is "$rc/$(tsql "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'sbtest'")" \
     "0/0" "seed 004 (db-driver=$driver): cleanup"
done

done_testing
