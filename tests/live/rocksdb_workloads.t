#!/usr/bin/env bash
# rocksdb_workloads.t: every bundled workload end to end on --db-driver=rocksdb: prepare
# (tables read back equal to what was written), fixed --events runs with the exact read /
# write / other counts the MySQL driver reports for the same workload, and cleanup.
. "$(dirname "$0")/../lib/tap.sh"

need_driver rocksdb librocksdb-dev

db="$TEST_TMP/db"
rk() { sb "$@" --db-driver=rocksdb --rocksdb-path="$db"; }

# counts WORKLOAD ARGS... : run it for 100 events on one thread; prints "r/w/o/trx". Each
# command line has a seed of its own: repeating one would set rows to the values they already
# have, which a server reports as 0 affected rows ("other"), and so do we.
counts() {
  local w=$1 seed
  seed=$(printf '%s' "$*" | cksum | cut -d' ' -f1)
  shift
  rk "$w" "$@" --threads=1 --events=100 --time=0 --rand-seed=$((seed % 100000 + 1)) run
  if [ "$rc" != 0 ]; then
    echo "rc=$rc: $(printf '%s' "$out" | grep -E 'FATAL' | head -2)"
    return
  fi
  echo "$(field "$out" "read:")/$(field "$out" "write:")/$(field "$out" "other:")/$(field "$out" "transactions:")"
}

cat > "$TEST_TMP/check.lua" <<'EOF'
sysbench.cmdline.options = { tables = {"tables", 1} }
sysbench.cmdline.commands = { check = {function()
  local con = sysbench.sql.driver():connect()
  for t = 1, sysbench.opt.tables do
    local ok, msg = sysbench.kv.check_table(con, t)
    print(ok and "OK" or "BAD", msg)
  end
end} }
EOF

rk oltp_read_write --tables=2 --table-size=5000 --threads=2 prepare
is "$rc" 0 "oltp_read_write prepare on RocksDB succeeds"
like "$out" "Creating table 'sbtest1'\.\.\." "prepare prints 1.0's table message"
like "$out" "Inserting 5000 records into 'sbtest2'" "... and the rows message"
like "$out" "Creating a secondary index on 'sbtest1'\.\.\." "... and the index message"
like "$out" "Loaded 10000 rows into 2 tables in [0-9.]+s" "... then what it loaded"
sb check.lua --db-driver=rocksdb --rocksdb-path="$db" --tables=2 check
like "$out" "OK	sbtest1: 5000 rows \(loaded 5000, from --rand-seed=[0-9]+\), checksum matches, secondary index consistent" "sbtest1 reads back equal to what prepare wrote"
like "$out" "OK	sbtest2: 5000 rows \(loaded 5000, from --rand-seed=[0-9]+\), checksum matches, secondary index consistent" "sbtest2 reads back equal to what prepare wrote"

rk oltp_read_write --tables=2 --table-size=5000 prepare
is "$rc" 1 "a second prepare fails"
like "$out" "Table 'sbtest1' already exists" "... naming the existing table"

# Exact counts: the same numbers 1.0.20 and the MySQL driver report for these workloads.
is "$(counts oltp_read_write --tables=2 --table-size=5000)" "1400/400/200/100" "oltp_read_write: 14 reads, 4 writes, 2 other per transaction"
is "$(counts oltp_read_only --tables=2 --table-size=5000)" "1400/0/200/100" "oltp_read_only: 14 reads and BEGIN/COMMIT per transaction"
is "$(counts oltp_read_only --tables=2 --table-size=5000 --skip_trx=on)" "1400/0/0/100" "--skip_trx drops BEGIN/COMMIT"
is "$(counts oltp_read_only --tables=2 --table-size=5000 --range_selects=off)" "1000/0/200/100" "--range_selects=off leaves the point selects"
is "$(counts oltp_read_only --tables=2 --table-size=5000 --secondary_ranges=3)" "1700/0/200/100" "--secondary_ranges=3 adds 3 reads per transaction"
is "$(counts oltp_read_only --tables=2 --table-size=5000 --secondary_ranges=100 --range_size=100 --point_selects=0 --simple_ranges=0 --sum_ranges=0 --order_ranges=0 --distinct_ranges=0 --skip_trx=on)" "10000/0/0/100" "the seeds' secondary_random_limit100: 100 index range reads per event"
rk oltp_read_only --tables=2 --table-size=5000 --secondary_ranges=100 --range_size=100 --point_selects=0 --simple_ranges=0 --sum_ranges=0 --order_ranges=0 --distinct_ranges=0 --skip_trx=on --threads=1 --events=20 --time=0 --rand-type=uniform run
num_cmp "$(printf '%s' "$out" | awk '/queries:/ {q=$2} END {print q}')" "==" 2000 "... 2000 queries for 20 events"
is "$(counts oltp_write_only --tables=2 --table-size=5000)" "0/400/200/100" "oltp_write_only: 4 writes and BEGIN/COMMIT per transaction"
is "$(counts oltp_point_select --tables=2 --table-size=5000)" "100/0/0/100" "oltp_point_select: one read per event"
rk oltp_point_select --tables=2 --table-size=5000 --events=100 --time=0 run
like "$out" "^Rows returned by reads: +100 " "each point select reads one row: 100 rows returned by reads"
unlike "$out" "^RocksDB:|^ +rows read:" "... said once: no RocksDB section repeats the figure"
rk oltp_read_only --tables=2 --table-size=5000 --events=10 --time=0 --range-selects=off --rand-type=uniform run
like "$out" "^Rows returned by reads: +100 " "10 events of 10 point selects read 100 rows"
is "$(counts oltp_update_index --tables=2 --table-size=5000)" "0/100/0/100" "oltp_update_index: one write per event"
is "$(counts oltp_update_non_index --tables=2 --table-size=5000)" "0/100/0/100" "oltp_update_non_index: one write per event"
d=$(counts oltp_delete --tables=2 --table-size=5000)
like "$d" "^0/[0-9]+/[0-9]+/100$" "oltp_delete: a write per row deleted, other when the row was gone ($d)"
w=${d#0/}; w=${w%%/*}; o=${d#0/*/}; o=${o%%/*}
num_cmp "$((w + o))" "==" 100 "... one statement per event"
is "$(counts oltp_insert --tables=2 --table-size=5000)" "0/100/0/100" "oltp_insert: one write per event (auto-increment ids)"

rk oltp_read_write --tables=2 cleanup
is "$rc" 0 "cleanup succeeds"
like "$out" "Dropping table 'sbtest2'\.\.\." "cleanup prints 1.0's message"
[ ! -e "$db" ]
ok $? "cleanup leaves nothing: the directory prepare created is gone"

# oltp_insert without auto-increment: empty tables, ids from rand.unique()
rk oltp_insert --tables=1 --table-size=1000 --auto_inc=off prepare
is "$rc" 0 "oltp_insert --auto_inc=off prepares empty tables"
is "$(counts oltp_insert --tables=1 --table-size=1000 --auto_inc=off)" "0/100/0/100" "... and inserts 100 unique ids"
rk oltp_insert --tables=1 cleanup

# The secondary-index workloads, on one table
rk select_random_points --table-size=5000 prepare
is "$rc" 0 "select_random_points prepares sbtest1"
is "$(counts select_random_points --table-size=5000)" "100/0/0/100" "select_random_points: one read per event"
is "$(counts select_random_points --table-size=5000 --random_points=100)" "100/0/0/100" "... with 100 points per IN list too"
is "$(counts select_random_ranges --table-size=5000)" "100/0/0/100" "select_random_ranges: one read per event"
rk select_random_points --tables=2 --table-size=5000 --threads=1 --events=1 run
is "$rc" 0 "select_random_points runs on sbtest1 whatever --tables says, as 1.0.20"
rk select_random_points --tables=2 cleanup
is "$rc" 1 "... and refuses --tables=2 at cleanup (exit 1)"
like "$out" "this benchmark does not support --tables > 1" "... with 1.0.20's message"
rk select_random_points cleanup

# Without a secondary index the k-based queries scan the table, as a server would.
rk select_random_points --table-size=3000 --create_secondary=off prepare
sb check.lua --db-driver=rocksdb --rocksdb-path="$db" check
like "$out" "secondary index absent" "--create_secondary=off stores no index"
is "$(counts select_random_points --table-size=3000)" "100/0/0/100" "select_random_points still answers by scanning"
rk select_random_points cleanup

# bulk_insert: writes exactly when the SQL statement would be sent
rk bulk_insert --threads=2 prepare
is "$rc" 0 "bulk_insert prepare creates one table per thread"
rk bulk_insert --threads=1 --events=100 --time=0 run
like "$out" "write: +1$" "100 rows fit in one multi-row INSERT: 1 write, as with MySQL"
like "$out" "transactions: +100 " "... for 100 events"
rk bulk_insert --threads=1 --events=100000 --time=0 run
like "$out" "write: +3$" "100000 rows take 3 multi-row INSERTs of 512 KiB, as with MySQL"
rk bulk_insert --threads=2 cleanup
is "$rc" 0 "bulk_insert cleanup succeeds"

# Transactions: conflicting read_write transactions on a tiny table in both modes
for mode in pessimistic optimistic none; do
  rk oltp_read_write --table-size=50 prepare
  rk oltp_read_write --table-size=50 --threads=4 --events=800 --time=0 --rocksdb-txn=$mode run
  is "$rc" 0 "--rocksdb-txn=$mode: 4 threads of read_write on 50 rows run to the end"
  like "$out" "transactions: +800 " "--rocksdb-txn=$mode: all 800 transactions done"
  rk oltp_read_write cleanup
done

# The same statement with the same value twice changes nothing the second time: "other",
# as MySQL's 0 affected rows.
rk oltp_update_non_index --table-size=5000 prepare
rk oltp_update_non_index --table-size=5000 --events=100 --time=0 --rand-seed=5 run
like "$out" "write: +100$" "updating c writes every row the first time"
rk oltp_update_non_index --table-size=5000 --events=100 --time=0 --rand-seed=5 run
unlike "$out" "other: +0$" "the same updates again leave rows unchanged: counted as other"
rk oltp_update_non_index cleanup

# With O_DIRECT reads the page cache is bypassed: nothing is read back after the load.
rk oltp_point_select --table-size=5000 --rocksdb-direct-io=on prepare
is "$rc" 0 "prepare with --rocksdb-direct-io succeeds"
unlike "$out" "page cache" "... and reads nothing back into the page cache"
rk oltp_point_select cleanup

# A table larger than one in-memory index sort (4 Mi rows): the rows go into many SST files
# of about 64 MiB, never one huge file whose index and filter blocks no cache shard can hold
# (that made every point select read them again: 100x slower), and the index entries of the
# two sorted runs merge into one consistent index.
rk oltp_point_select --table-size=4200000 prepare
is "$rc" 0 "a 4.2M-row table loads"
# RocksDB's SST writer evicts what it writes from the OS page cache; prepare reads the files
# back so the first run does not start cold. fincore counts the cached bytes of each file.
like "$out" "Read [0-9.]+ MiB of table files into the OS page cache in [0-9.]+s" "prepare reads the table files back into the page cache"
if command -v fincore >/dev/null 2>&1; then
  cached=$(find "$db" -name '*.sst' -exec fincore -b -n -o RES,SIZE {} + |
           awk '{ res += $1; size += $2 } END { printf "%.2f", size ? res / size : 0 }')
  num_cmp "$cached" ">=" 0.8 "... so right after prepare the SST files are in the page cache (share: $cached)"
elif [ "${CI:-}" = true ]; then
  ok 1 "fincore is installed (util-linux-extra, scripts/setup.sh --test)"
else
  skip "fincore not installed (apt-get install util-linux-extra)"
fi
biggest=$(find "$db" -name '*.sst' -printf '%s\n' | sort -n | tail -n 1)
num_cmp "$biggest" "<" $((80 << 20)) "... into SST files of at most 80 MiB (largest: $biggest bytes)"
num_cmp "$(find "$db" -name '*.sst' | wc -l)" ">" 10 "... many of them"
sb check.lua --db-driver=rocksdb --rocksdb-path="$db" --tables=1 check
like "$out" "OK	sbtest1: 4200000 rows \(loaded 4200000, from --rand-seed=[0-9]+\), checksum matches, secondary index consistent" "... and reads back equal, with a consistent secondary index"
rk oltp_point_select cleanup

done_testing
