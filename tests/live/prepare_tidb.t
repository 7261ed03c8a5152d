#!/usr/bin/env bash
# prepare_tidb.t: loading the OLTP tables into a real TiDB (tests/lib/tidb.sh; skipped when
# ../shared/tidb/tidb-server.xz is absent) (issue 15): LOAD DATA LOCAL INFILE and INSERTs give
# the same table for any --threads (an ordered hash), the size report says when TiDB has no
# storage statistics, verify catches a deleted row and a changed k, and Ctrl-C leaves a marked
# table that the next prepare refuses and --resume finishes.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/tidb.sh"

tidb_server_start
db=sbtest_prepare_$$
tsql "CREATE DATABASE $db"
[ "$TIDB_OWN" = 1 ] || trap 'tsql "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1; rm -rf "$TEST_TMP"' EXIT
o() { tidb "$@" --mysql-db="$db"; }
q() { tsql -D "$db" "$1"; }
rows_hash() {
  q "SELECT COUNT(*), BIT_XOR(CRC32(CONCAT_WS(',', id, k, c, pad))), SUM(k) FROM sbtest1" | tr '\t' ' '
}

size=(--table-size=12000 --rand-seed=41)

o oltp_read_write "${size[@]}" --db-debug --verbosity=5 prepare
is "$rc" 0 "prepare with one thread"
like "$out" "stream: LOAD DATA LOCAL INFILE 'sbtest1' INTO TABLE sbtest1" "... with LOAD DATA LOCAL INFILE"
reference=$(rows_hash)
like "$out" "  sbtest1 +12000 +2\.2 +" "the size report has the table's line"
like "$out" "(NOTE: TiDB gives no storage statistics here|  sbtest1 +12000 +2\.2 +[0-9]+\.[0-9])" \
  "... with TiDB's storage statistics, or a note saying it has none"
o oltp_read_write cleanup >/dev/null

o oltp_read_write "${size[@]}" --threads=3 --prepare-method=insert prepare
is "$rc/$(rows_hash)" "0/$reference" "prepare --threads=3 --prepare-method=insert: the same rows"
o oltp_read_write "${size[@]}" verify
is "$rc" 0 "verify of a fresh table exits 0"
like "$out" "sbtest1: ok: 12000 rows, ids 1..12000 without gaps, index k_1 consistent with the rows, rows as generated from --rand-seed=41" \
  "... and says what it checked"
o oltp_read_write --table-size=6000 verify
is "$rc" 1 "verify with half the --table-size of prepare exits 1"
like "$out" "^HINT: sbtest1 holds 12000 rows: verify needs the --table-size prepare used \(--table-size=12000 if it loaded them all\)$" \
  "... saying how many rows the table holds, and that --table-size must be prepare's"
q "DELETE FROM sbtest1 WHERE id = 55; UPDATE sbtest1 SET k = k + 1 WHERE id = 66"
o oltp_read_write "${size[@]}" --threads=2 verify
is "$rc" 1 "verify of a damaged table exits 1"
like "$out" "  sbtest1: id 55 is missing" "... naming the missing id"
like "$out" "  sbtest1: id 66: k is [0-9]+, the generated row has [0-9]+" "... and the changed k"
o oltp_read_write cleanup >/dev/null

# Ctrl-C, then --resume
(cd "$TEST_TMP" && SYSBENCH_TEST_LOAD_DELAY=0.3 exec "$SB" oltp_read_write "${size[@]}" \
  --threads=2 --report-interval=0.2 prepare --db-driver=tidb "${TIDB_CONN[@]}" \
  --mysql-db="$db") >"$TEST_TMP/bg.out" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
  grep -Eq "\[ .*s \] loaded [1-9]" "$TEST_TMP/bg.out" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
kill -INT "$pid" 2>/dev/null
wait "$pid"
is "$?" 130 "prepare stopped by Ctrl-C exits 130"
like "$(q "SELECT TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = '$db' AND TABLE_NAME = 'sbtest1'")" \
  "^sysbench prepare: incomplete; seed=41;" "... leaving the table marked incomplete"
o oltp_read_write "${size[@]}" prepare
is "$rc" 1 "the next prepare refuses it"
like "$out" "HINT: sbtest1 was left incomplete by an interrupted prepare" "... saying why"
o oltp_read_write --table-size=12000 --threads=3 --resume prepare
is "$rc/$(rows_hash)" "0/$reference" "prepare --resume finishes it into the table a fresh load gives"
o oltp_read_write cleanup >/dev/null

done_testing
