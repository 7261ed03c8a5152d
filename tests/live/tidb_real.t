#!/usr/bin/env bash
# tidb_real.t: the tidb driver's prepare and every bundled workload against a real TiDB
# (tests/lib/tidb.sh starts ../shared/tidb/tidb-server.xz, or uses SYSBENCH_TEST_TIDB):
#   - every workload: prepare (row counts), fixed --rand-seed/--events runs with exact counts,
#     equal to the reference 1.0.20's through --db-driver=mysql on the same server, cleanup;
#     the same seed gives the same data twice;
#   - --tidb-split-regions (a table too small for N regions gets what TiDB accepts, said in
#     one line) and the region report, checked against SHOW TABLE ... REGIONS;
#   - --tidb-clustered-index on/off, --tidb-shard-row-id-bits, --tidb-auto-random: the schema
#     TiDB reports, and workloads running on it.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/tidb.sh"

tidb_server_start
db=sbtest_real_$$
tsql "CREATE DATABASE $db"
[ "$TIDB_OWN" = 1 ] || trap 'tsql "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1; rm -rf "$TEST_TMP"' EXIT
o() { tidb "$@" --mysql-db="$db"; }
r() { ref "$@" --db-driver=mysql "${TIDB_CONN[@]}" --mysql-db="$db"; }
q() { tsql -D "$db" "$1"; }

counts() {
  printf '%s/%s/%s/%s' "$(field "$out" "read:")" "$(field "$out" "write:")" \
    "$(field "$out" "other:")" "$(field "$out" "transactions:")"
}
# a write that finds its row as it would leave it counts as other: the split depends on data
totals() {
  printf '%s/%s/%s' "$(field "$out" "read:")" \
    "$(( $(field "$out" "write:") + $(field "$out" "other:") ))" "$(field "$out" "transactions:")"
}
tables_left() { q "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '$db'"; }

# ---------------------------------------------------------------------------------------------
# Every workload: prepare, seeded runs with exact counts, cleanup

o oltp_read_write --tables=2 --table-size=1000 --threads=2 prepare
is "$rc" 0 "oltp_read_write prepare of 2 tables x 1000 rows"
is "$(q "SELECT COUNT(*) FROM sbtest1"),$(q "SELECT COUNT(*) FROM sbtest2")" "1000,1000" \
   "... loads every row"
like "$(q "SHOW CREATE TABLE sbtest1" | cut -f2)" "KEY .k_1. \(.k.\)" "... with the index on k"

run_counts() {   # run_counts WORKLOAD WANT OPTIONS...  (WANT "sum:r/w+o/trx" or "r/w/o/trx")
  local w=$1 want=$2 measure=counts
  shift 2
  case $want in sum:*) measure=totals; want=${want#sum:} ;; esac
  local args=(--tables=2 --table-size=1000 --events=50 --time=0 --threads=1 --rand-seed=11 "$@")
  case $w in select_random_*) args=(--tables=1 "${args[@]:1}") ;; esac
  o "$w" "${args[@]}" run
  [ "$rc" = 0 ] || printf '%s\n' "$out" | grep -E "FATAL" | head -3 | sed 's/^/# /'
  is "$rc/$($measure)" "0/$want" "$w $*: exact counts on TiDB"
  if have_ref; then
    r "$w" "${args[@]}" run
    is "$($measure)" "$want" "$w $*: the reference 1.0.20 (--db-driver=mysql) counts the same"
  fi
}
run_counts oltp_read_write sum:700/300/50
run_counts oltp_read_write sum:700/200/50 --skip_trx=on
run_counts oltp_read_only 700/0/100/50
run_counts oltp_write_only sum:0/300/50
run_counts oltp_point_select 50/0/0/50
run_counts oltp_update_index sum:0/50/50
run_counts oltp_update_non_index sum:0/50/50
run_counts oltp_delete sum:0/50/50
run_counts oltp_insert 0/50/0/50
o oltp_read_write --tables=2 cleanup
is "$rc/$(tables_left)" "0/0" "cleanup drops both tables"

o select_random_points --table-size=1000 prepare
run_counts select_random_points 50/0/0/50
run_counts select_random_ranges 50/0/0/50
o select_random_points cleanup

o bulk_insert --threads=1 prepare
o bulk_insert --threads=1 --events=5000 --time=0 run
is "$rc/$(field "$out" "transactions:")" "0/5000" "bulk_insert: 5000 events"
is "$(q "SELECT COUNT(*), MIN(id), MAX(id) FROM sbtest1" | tr '\t' ,)" "5000,1,5000" \
   "... 5000 rows stored"
o bulk_insert --threads=1 cleanup
is "$rc/$(tables_left)" "0/0" "bulk_insert cleanup"

# The same seed, the same data: prepare and a seeded write run, twice.
checksum() { q "ADMIN CHECKSUM TABLE sbtest1" | cut -f3-5; }
sums=()
for i in 1 2; do
  o oltp_write_only --table-size=1000 --rand-seed=5 prepare
  o oltp_write_only --table-size=1000 --rand-seed=5 --threads=1 --events=100 --time=0 run
  sums+=("$rc $(checksum)")
  o oltp_write_only cleanup
done
like "${sums[0]}" "^0 [0-9]+" "a seeded prepare and run leave a checksum"
is "${sums[1]}" "${sums[0]}" "... and the same seed leaves the same data again"

# ---------------------------------------------------------------------------------------------
# --tidb-split-regions and the region report

index_regions() { q "SHOW TABLE sbtest$1 INDEX k_$1 REGIONS" | wc -l; }

o oltp_read_write --tables=2 --table-size=2000 --tidb-split-regions=4 --threads=2 prepare
is "$rc" 0 "a pre-split prepare of 2000-row tables with 4 regions succeeds"
like "$out" "^Splitting 'sbtest1' into 4 regions\.\.\. \(its 2000 rows into 2 only: TiDB needs at least 1000 rows per region\)$" \
     "... saying in one line that the rows get 2 regions"
is "$(count "$out" "^Splitting 'sbtest")" 2 "... one line per table"
like "$out" "^Table 'sbtest1': 2 regions of rows, $(index_regions 1) of its index on k$" \
     "the report shows 2 regions of rows, and the index's regions as SHOW TABLE ... INDEX REGIONS"
num_cmp "$(index_regions 1)" ">=" 4 "... the index is split 4 ways"
is "$(q "SELECT COUNT(*) FROM sbtest2")" 2000 "every row loaded"
o oltp_read_write --tables=2 cleanup

o oltp_read_write --table-size=4000 --tidb-split-regions=4 prepare
like "$out" "^Splitting 'sbtest1' into 4 regions\.\.\.$" "a table big enough is split as asked, no note"
like "$out" "^Table 'sbtest1': 4 regions of rows" "... into 4 regions of rows"
o oltp_read_write cleanup

o oltp_read_write --table-size=500 --tidb-split-regions=4 prepare
is "$rc" 0 "a 500-row table with --tidb-split-regions=4 prepares"
like "$out" "\(its 500 rows stay in 1 region: TiDB needs at least 1000 rows per region\)" \
     "... its rows staying in one region, said so"
like "$out" "^Table 'sbtest1': 1 regions of rows" "... as the report shows"
o oltp_read_write cleanup

o oltp_read_write --table-size=0 --tidb-split-regions=4 prepare
is "$rc" 0 "an empty table with --tidb-split-regions=4 prepares (nothing to split)"
o oltp_read_write cleanup

# ---------------------------------------------------------------------------------------------
# Primary key kinds, shard bits, auto random

pk_type() { q "SELECT TIDB_PK_TYPE FROM information_schema.tables WHERE table_schema = '$db' AND table_name = 'sbtest1'"; }

o oltp_read_write --table-size=2000 --tidb-clustered-index=on --tidb-split-regions=2 prepare
is "$rc/$(pk_type)" "0/CLUSTERED" "--tidb-clustered-index=on: TiDB reports a clustered key"
o oltp_read_write --table-size=2000 --events=50 --time=0 --threads=1 run
is "$rc/$(totals)" "0/700/300/50" "... oltp_read_write runs on it"
o oltp_read_write cleanup

o oltp_read_write --table-size=2000 --tidb-clustered-index=off --tidb-split-regions=4 prepare
is "$rc/$(pk_type)" "0/NONCLUSTERED" "--tidb-clustered-index=off: TiDB reports a non-clustered key"
like "$out" "^Table 'sbtest1': 4 regions of rows" "... its row ids split 4 ways (hidden row ids)"
o oltp_read_write --table-size=2000 --events=50 --time=0 --threads=1 run
is "$rc/$(totals)" "0/700/300/50" "... oltp_read_write runs on it"
o oltp_read_write cleanup

o oltp_insert --table-size=1000 --tidb-clustered-index=off --tidb-shard-row-id-bits=4 prepare
is "$rc" 0 "--tidb-shard-row-id-bits=4 with a non-clustered key prepares"
is "$(q "SELECT TIDB_ROW_ID_SHARDING_INFO FROM information_schema.tables WHERE table_schema = '$db' AND table_name = 'sbtest1'")" \
   "SHARD_BITS=4" "... TiDB reports 4 shard bits"
o oltp_insert --table-size=1000 --events=50 --time=0 --threads=1 run
is "$rc/$(counts)" "0/0/50/0/50" "... oltp_insert runs on it"
is "$(q "SELECT COUNT(*) FROM sbtest1")" 1050 "... and its rows are there"
o oltp_insert cleanup

o oltp_read_write --tidb-shard-row-id-bits=4 prepare
is "$rc" 1 "shard bits on a clustered key are refused before TiDB is asked"
like "$out" "needs --tidb-clustered-index=off" "... saying what to change"
is "$(tables_left)" 0 "... and nothing is created"

o oltp_insert --table-size=1000 --tidb-auto-random prepare
is "$rc" 0 "--tidb-auto-random prepares"
like "$(q "SHOW CREATE TABLE sbtest1" | cut -f2)" "AUTO_RANDOM" "... id is AUTO_RANDOM"
is "$(q "SELECT COUNT(*), MIN(id), MAX(id) FROM sbtest1" | tr '\t' ,)" "1000,1,1000" \
   "... the load wrote ids 1..1000, where the workloads look for them"
o oltp_read_write --table-size=1000 --events=50 --time=0 --threads=1 run
is "$rc" 1 "... a run without --tidb-auto-random stops at the first explicit id (DELETE/INSERT)"
like "$out" "TiDB error 8216 \(explicit id on an AUTO_RANDOM column\) cannot succeed on retry: .*give --tidb-auto-random to this command too" \
     "... saying what to add"
o oltp_read_write --table-size=1000 --events=50 --time=0 --threads=1 --tidb-auto-random run
is "$rc/$(totals)" "0/700/300/50" "... with it, oltp_read_write runs on the table"
o oltp_insert --table-size=1000 --events=50 --time=0 --threads=1 run
is "$rc/$(counts)" "0/0/50/0/50" "... oltp_insert runs on it"
is "$(q "SELECT COUNT(*) FROM sbtest1 WHERE id > 1000")" 50 "... adding 50 rows"
# AUTO_RANDOM puts a random shard in the top bits (58-62) of each transaction's ids
num_cmp "$(q "SELECT COUNT(DISTINCT id >> 58) FROM sbtest1 WHERE id > 1000")" ">" 1 \
   "... whose ids are spread over shards, not 1001, 1002, ..."
o oltp_insert cleanup

done_testing
