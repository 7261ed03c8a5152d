#!/usr/bin/env bash
# prepare_pgsql.t: loading the OLTP tables on a private PostgreSQL (issue 15): COPY ... FROM
# STDIN and multi-row INSERTs give the same table for any --threads (an ordered hash of the
# rows), the id sequence goes on after the load as after 1.0.20's, the size report has
# PostgreSQL's sizes, verify catches a deleted row, a changed k and a dropped index, and Ctrl-C
# (twice close together: one request) says where the table is, without a FATAL line, and
# leaves it marked (its COMMENT) so that the next prepare refuses and --resume finishes it.
# Loads are slowed with SYSBENCH_TEST_LOAD_DELAY where one must be in progress.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/pgsql.sh"
. "$(dirname "$0")/../lib/signals.sh"

pgsql_sandbox_start

rows_hash() {   # an ordered hash of every row of sbtest1
  psql_do "SELECT count(*) || ' ' || md5(string_agg(id || ',' || k || ',' || c || ',' || pad, ';' ORDER BY id)) FROM sbtest1"
}
comment_of() {
  psql_do "SELECT coalesce(obj_description('$1'::regclass, 'pg_class'), '')"
}

size=(--table-size=20000 --rand-seed=21)

pg oltp_read_write "${size[@]}" prepare
is "$rc" 0 "prepare with one thread"
reference=$(rows_hash)
like "$out" "  sbtest1 +20000 +3\.7 +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9]{2}$" \
  "the size report has the table's line"
# pg_table_size also counts the free space and visibility maps, which autovacuum may add
# later: the heap alone is the least it can have said
heap=$(psql_do "SELECT round(pg_relation_size('sbtest1') / 1048576.0, 1)")
reported=$(printf '%s\n' "$out" | awk '$1 == "sbtest1" { print $4 }')
num_cmp "$reported" ">=" "$heap" "... data as PostgreSQL counts it (pg_table_size >= the heap's $heap MiB)"
is "$(psql_do "SELECT last_value FROM sbtest1_id_seq")" 20000 \
  "the id sequence goes on after the last id, as after 1.0.20's load"
is "$(comment_of sbtest1)" "" "a complete table carries no marker"
pg oltp_read_write cleanup >/dev/null

for run in "--threads=4" "--threads=3 --prepare-method=insert"; do
  # shellcheck disable=SC2086
  pg oltp_read_write "${size[@]}" $run --db-debug --verbosity=5 prepare
  is "$rc/$(rows_hash)" "0/$reference" "prepare $run: the same rows as the one-thread load"
  case $run in
    *insert*) unlike "$out" "stream: COPY" "... loaded with INSERTs" ;;
    *) like "$out" "stream: COPY sbtest1 \(id, k, c, pad\) FROM STDIN" "... loaded with COPY" ;;
  esac
  pg oltp_read_write cleanup >/dev/null
done

pg oltp_read_write "${size[@]}" --threads=2 prepare
pg oltp_read_write "${size[@]}" verify
is "$rc" 0 "verify of a fresh table exits 0"
like "$out" "sbtest1: ok: 20000 rows, ids 1..20000 without gaps, index k_1 consistent with the rows, rows as generated from --rand-seed=21" \
  "... and says what it checked (CHAR values come back padded: not a difference)"
pg oltp_read_write --table-size=10000 verify
is "$rc" 1 "verify with half the --table-size of prepare exits 1"
like "$out" "^HINT: sbtest1 holds 20000 rows: verify needs the --table-size prepare used \(--table-size=20000 if it loaded them all\)$" \
  "... saying how many rows the table holds, and that --table-size must be prepare's"
psql_do "DELETE FROM sbtest1 WHERE id = 999" "UPDATE sbtest1 SET k = k + 1 WHERE id = 4321" >/dev/null
pg oltp_read_write "${size[@]}" --threads=2 verify
is "$rc" 1 "verify of a damaged table exits 1"
like "$out" "  sbtest1: id 999 is missing" "... naming the missing id"
like "$out" "  sbtest1: id 4321: k is [0-9]+, the generated row has [0-9]+" "... and the changed k"
psql_do "DROP INDEX k_1" >/dev/null
pg oltp_read_write --table-size=20000 verify
like "$out" "the index on k is missing" "... and a dropped index"
pg oltp_read_write cleanup >/dev/null

# Ctrl-C, then --resume
(cd "$TEST_TMP" && SYSBENCH_TEST_LOAD_DELAY=0.2 exec "$SB" oltp_read_write "${size[@]}" \
  --threads=2 --report-interval=0.2 prepare "${PGSQL_ARGS[@]}") >"$TEST_TMP/bg.out" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
  grep -Eq "\[ .*s \] loaded [1-9]" "$TEST_TMP/bg.out" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
# twice, the second as soon as the first was taken (a terminal and a supervisor, or `timeout`):
# one request
signal_twice close INT "$pid" "$pid" INT "$pid"
wait "$pid"
is "$?" 130 "prepare stopped by Ctrl-C, twice close together, exits 130"
out=$(cat "$TEST_TMP/bg.out")
like "$out" "^WARNING: prepare was interrupted by signal 2$" "... saying so"
like "$out" "Incomplete tables: sbtest1 \([0-9]+ of 20000 rows\)" "... naming the incomplete table"
unlike "$out" "^FATAL" "... and no FATAL line (the COPY broken off was ours)"
like "$(comment_of sbtest1)" "^sysbench prepare: incomplete; seed=21; rows=20000; " "... which carries the marker"
pg oltp_read_write "${size[@]}" prepare
is "$rc" 1 "the next prepare refuses it"
like "$out" "HINT: sbtest1 was left incomplete by an interrupted prepare: \`cleanup\` drops the tables, the same prepare with --resume finishes loading them" \
  "... naming cleanup and --resume"
pg oltp_read_write --table-size=20000 --threads=3 --resume prepare
is "$rc/$(rows_hash)" "0/$reference" "prepare --resume finishes it into the table a fresh load gives"
is "$(comment_of sbtest1)/$(psql_do "SELECT last_value FROM sbtest1_id_seq")" "/20000" \
  "... without the marker, the sequence after the last id"
pg oltp_read_write cleanup >/dev/null

done_testing
