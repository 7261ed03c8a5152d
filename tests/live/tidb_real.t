#!/usr/bin/env bash
# tidb_real.t: the tidb driver against a real TiDB cluster, when one is reachable:
#   SYSBENCH_TEST_TIDB=host:port [SYSBENCH_TEST_TIDB_USER=root SYSBENCH_TEST_TIDB_PASSWORD=]
# Every bundled workload, optimistic transactions under contention, and a pre-split prepare.
# Without SYSBENCH_TEST_TIDB the test is skipped with that reason (TiDB is not packaged for
# Debian, so CI cannot start one).
. "$(dirname "$0")/../lib/tap.sh"

if [ -z "${SYSBENCH_TEST_TIDB:-}" ]; then
  skip "no TiDB to test against: set SYSBENCH_TEST_TIDB=host:port to run these tests"
  done_testing; exit
fi
host=${SYSBENCH_TEST_TIDB%:*}
port=${SYSBENCH_TEST_TIDB##*:}
db=sbtest_$$
base=(--db-driver=tidb --mysql-host="$host" --mysql-port="$port"
      --mysql-user="${SYSBENCH_TEST_TIDB_USER:-root}"
      --mysql-password="${SYSBENCH_TEST_TIDB_PASSWORD:-}")
tidb() { sb "$@" "${base[@]}" --mysql-db="$db"; }

cat > "$TEST_TMP/db.lua" <<EOF
sysbench.cmdline.commands = {
  create = {function() sysbench.sql.driver():connect():query("CREATE DATABASE IF NOT EXISTS $db") end},
  drop = {function() sysbench.sql.driver():connect():query("DROP DATABASE IF EXISTS $db") end},
}
EOF
sb db.lua "${base[@]}" --mysql-db=test create
is "$rc" 0 "a database for the test is created on $SYSBENCH_TEST_TIDB"
trap '(cd "$TEST_TMP" && "$SB" db.lua "${base[@]}" --mysql-db=test drop >/dev/null 2>&1); rm -rf "$TEST_TMP"' EXIT

tidb oltp_read_write --tables=2 --table-size=2000 --tidb-split-regions=4 --threads=2 prepare
is "$rc" 0 "pre-split prepare"
like "$out" "Splitting 'sbtest1' into 4 regions" "... splits each table"
like "$out" "Table 'sbtest1': [0-9]+ regions of rows, [0-9]+ of its index on k" "... and reports the regions"

for w in oltp_read_write oltp_read_only oltp_write_only oltp_point_select oltp_update_index \
         oltp_update_non_index oltp_delete oltp_insert; do
  tidb $w --tables=2 --table-size=2000 --events=200 --time=0 --threads=2 run
  is "$rc" 0 "$w runs on TiDB"
  like "$out" "transactions: +200 " "$w: 200 transactions"
done
tidb oltp_read_write --tables=2 cleanup

tidb select_random_points --table-size=2000 prepare
tidb select_random_points --table-size=2000 --events=100 --time=0 run
is "$rc" 0 "select_random_points runs on TiDB"
tidb select_random_ranges --table-size=2000 --events=100 --time=0 run
is "$rc" 0 "select_random_ranges runs on TiDB"
tidb select_random_points cleanup

tidb oltp_read_write --table-size=20 prepare
tidb oltp_read_write --table-size=20 --threads=8 --events=1000 --time=0 --tidb-txn-mode=optimistic run
is "$rc" 0 "optimistic transactions on 20 rows with 8 threads run to the end"
like "$out" "transactions: +1000 " "... all 1000 committed"
tidb oltp_read_write cleanup

done_testing
