#!/usr/bin/env bash
# mysql_workloads.t: every bundled workload against a private MariaDB, side by side with the
# reference sysbench 1.0.20 and with our embedded RocksDB driver:
#   - prepare by ours and by the reference into two databases: SHOW CREATE TABLE and row
#     counts equal, for the stock options and the schema-changing ones;
#   - fixed --events runs: exact read/write/other/transaction counts, equal to the
#     reference's, and equal to the RocksDB driver's for the same --rand-seed.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mysql.sh"

mysql_sandbox_start
sql "CREATE DATABASE ours" "CREATE DATABASE ref" >/dev/null

ours_args=("${MYSQL_ARGS[@]/--mysql-db=sbtest/--mysql-db=ours}")
ref_args=("${MYSQL_ARGS[@]/--mysql-db=sbtest/--mysql-db=ref}")
o() { sb "$@" "${ours_args[@]}"; }
r() { ref "$@" "${ref_args[@]}"; }
has_rocksdb=false
"$SB" --help | grep -q "^  rocksdb - " && has_rocksdb=true
k() { sb "$@" --db-driver=rocksdb --rocksdb-path="$TEST_TMP/rocks"; }

# r/w/o/transactions of the report in $out
counts() {
  printf '%s/%s/%s/%s' "$(stat read)" "$(stat write)" "$(stat other)" "$(stat transactions)"
}

# reads/(writes + other)/transactions: a write that finds its row already changed (an update
# setting the value a row has, a delete of a deleted row) counts as other, so how the
# statements split between the two depends on the data; their sum does not.
totals() {
  printf '%s/%s/%s' "$(stat read)" "$(( $(stat write) + $(stat other) ))" "$(stat transactions)"
}

# SHOW CREATE TABLE of db.table without the database name
create_of() {
  sql "SHOW CREATE TABLE $1.$2" | cut -f2-
}

# ---------------------------------------------------------------------------------------------
# Schemas and row counts against the reference

compare_prepare() {   # compare_prepare WORKLOAD TABLES OPTIONS...
  local w=$1 tables=$2
  shift 2
  o "$w" --tables="$tables" --table-size=500 "$@" prepare
  local ours_rc=$rc
  if have_ref; then
    r "$w" --tables="$tables" --table-size=500 "$@" prepare
  fi
  is "$ours_rc" 0 "$w prepare $* succeeds"
  if have_ref; then
    local same=0
    for t in $(seq 1 "$tables"); do
      [ "$(create_of ours "sbtest$t")" = "$(create_of ref "sbtest$t")" ] || same=1
      [ "$(sql "SELECT COUNT(*) FROM ours.sbtest$t")" = "$(sql "SELECT COUNT(*) FROM ref.sbtest$t")" ] || same=1
    done
    status_ok $same "$w prepare $*: SHOW CREATE TABLE and row counts equal the reference's"
    r "$w" --tables="$tables" "$@" cleanup
  else
    skip "no reference sysbench at $REF_SB"
  fi
  o "$w" --tables="$tables" "$@" cleanup
}

compare_prepare oltp_read_write 2
compare_prepare oltp_read_write 1 --auto_inc=off
compare_prepare oltp_read_write 1 --secondary=on
compare_prepare oltp_read_write 1 --create_secondary=off
compare_prepare oltp_read_write 1 --mysql_storage_engine=myisam
compare_prepare oltp_insert 1 --auto_inc=off
compare_prepare select_random_points 1
compare_prepare bulk_insert 1 --threads=2

# ---------------------------------------------------------------------------------------------
# Counts: ours, the reference, and the RocksDB driver on the same workloads

o oltp_read_write --tables=2 --table-size=1000 prepare
have_ref && r oltp_read_write --tables=2 --table-size=1000 prepare
$has_rocksdb && k oltp_read_write --tables=2 --table-size=1000 prepare

# run_counts WORKLOAD WANT OPTIONS...: WANT is "r/w/o/trx", or "r/(w+o)/trx" prefixed with
# "sum:" where the split depends on the data. Each command line has its own seed (a repeated
# one would set rows to values they already have).
run_counts() {
  local w=$1 want=$2 seed
  shift 2
  seed=$(printf '%s' "$w $*" | cksum | cut -d' ' -f1)
  local args=(--tables=2 --table-size=1000 --events=100 --time=0 --threads=1
              --rand-seed=$((seed % 100000 + 1)) "$@")
  case $w in select_random_*) args=(--tables=1 "${args[@]:1}") ;; esac
  local measure=counts
  case $want in sum:*) measure=totals; want=${want#sum:} ;; esac
  o "$w" "${args[@]}" run
  local mine
  mine=$(counts)
  [ "$rc" = 0 ] || printf '%s\n' "$out" "$err" | grep -E "FATAL" | head -3 | sed 's/^/# /'
  if [ -n "$want" ]; then
    is "$rc/$($measure)" "0/$want" "$w $*: $([ $measure = counts ] && echo "read/write/other" || echo "read/write+other")/transactions"
  else
    is "$rc" 0 "$w $* runs"
  fi
  # The reference draws other random numbers, and has no --secondary_ranges.
  if [ -n "$want" ] && have_ref && [[ "$*" != *secondary_ranges* ]]; then
    r "$w" "${args[@]}" run
    is "$($measure)" "$want" "$w $*: the reference 1.0.20 counts the same"
  fi
  if $has_rocksdb; then
    k "$w" "${args[@]}" run
    is "$(counts)" "$mine" "$w $*: the RocksDB driver counts the same for the same seed"
  fi
}

run_counts oltp_read_write sum:1400/600/100
run_counts oltp_read_write sum:1400/400/100 --skip_trx=on
run_counts oltp_read_write sum:1700/600/100 --secondary_ranges=3
run_counts oltp_read_only 1400/0/200/100
run_counts oltp_read_only 1000/0/200/100 --range_selects=off
run_counts oltp_read_only 1700/0/200/100 --secondary_ranges=3
run_counts oltp_write_only sum:0/600/100
run_counts oltp_point_select 100/0/0/100
run_counts oltp_update_index sum:0/100/100
run_counts oltp_update_non_index sum:0/100/100
run_counts oltp_delete sum:0/100/100
run_counts oltp_insert 0/100/0/100
run_counts select_random_points 100/0/0/100
run_counts select_random_points 100/0/0/100 --random_points=50
run_counts select_random_ranges 100/0/0/100

o oltp_read_write --tables=2 cleanup
have_ref && r oltp_read_write --tables=2 cleanup
$has_rocksdb && k oltp_read_write --tables=2 cleanup

# bulk_insert: one multi-row INSERT per 512 KiB of values
o bulk_insert --threads=1 prepare
o bulk_insert --threads=1 --events=20000 --time=0 run
is "$rc/$(stat write)/$(stat transactions)" "0/1/20000" "bulk_insert: 20000 rows in one multi-row INSERT"
is "$(sql "SELECT COUNT(*) FROM ours.sbtest1")" 20000 "... all rows stored"
o bulk_insert --threads=1 cleanup

done_testing
