#!/usr/bin/env bash
# pgsql_workloads.t: every bundled workload on a private PostgreSQL, side by side with the
# reference sysbench 1.0.20 on the same server:
#   - prepare by ours and by the reference into two databases: the tables as psql's \d shows
#     them (SERIAL ids, no ENGINE, the index on k) and, with the same --rand-seed, the same
#     rows; for the stock options and the schema-changing ones;
#   - fixed --events runs with a --rand-seed: exact read/write/other/transaction counts, equal
#     to the reference's;
#   - cleanup drops every table.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/pgsql.sh"
. "$(dirname "$0")/../lib/compat.sh"

pgsql_sandbox_start
for db in ours ref; do
  psql_do "CREATE DATABASE $db OWNER sbtest" >/dev/null
done

ours_args=("${PGSQL_ARGS[@]/--pgsql-db=sbtest/--pgsql-db=ours}")
ref_args=("${PGSQL_ARGS[@]/--pgsql-db=sbtest/--pgsql-db=ref}")
o() { sb "$@" "${ours_args[@]}"; }
r() { ref "$@" "${ref_args[@]}"; }

in_db() {   # in_db DB SQL...: statements as the superuser in database DB
  local db=$1
  shift
  "$SRCDIR/scripts/pgsql-sandbox.sh" sql "$PGSQL_SANDBOX_DIR" -A -t --dbname="$db" "$@"
}

# psql's description of a table (columns, defaults, indexes)
describe() {   # describe DB TABLE
  "$SRCDIR/scripts/pgsql-sandbox.sh" sql "$PGSQL_SANDBOX_DIR" --dbname="$1" "\\d $2"
}

# the shape of a table's rows: how many, their ids, the lengths of c and pad, k's range (the
# values are random: 1.0.20's prepare ignores --rand-seed)
rows_digest() {   # rows_digest DB TABLE
  in_db "$1" "SELECT count(*) || ' ' || coalesce(min(id), 0) || '-' || coalesce(max(id), 0) || ' ' || count(DISTINCT id) || ' ' || coalesce(sum(length(c)), 0) || ' ' || coalesce(sum(length(pad)), 0) || ' ' || coalesce(bool_and(k BETWEEN 1 AND 300), true) FROM $2"
}

tables_in() {   # tables_in DB: the user tables and sequences left in DB
  in_db "$1" "SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE nspname = 'public'"
}

# ---------------------------------------------------------------------------------------------
# Schemas and rows against the reference

compare_prepare() {   # compare_prepare WORKLOAD TABLES OPTIONS...
  local w=$1 tables=$2
  shift 2
  o "$w" --tables="$tables" --table-size=300 --rand-seed=7 "$@" prepare
  local ours_rc=$rc ours_out=$out
  is "$ours_rc" 0 "$w prepare $*: succeeds"
  [ "$ours_rc" = 0 ] || printf '%s\n' "$ours_out" | grep -E "FATAL" | head -3 | sed 's/^/# /'
  if have_ref; then
    r "$w" --tables="$tables" --table-size=300 --rand-seed=7 "$@" prepare
    local same=0 t
    for t in $(seq 1 "$tables"); do
      [ "$(describe ours "sbtest$t")" = "$(describe ref "sbtest$t")" ] || same=1
      [ "$(rows_digest ours "sbtest$t")" = "$(rows_digest ref "sbtest$t")" ] || same=1
    done
    ok $same "$w prepare $*: tables (\\d) identical to 1.0.20's, rows alike (count, ids, lengths, k's range)"
    # our additions (the size report) go by the rules of tests/compat/differences.txt
    is "$(printf '%s\n' "$ours_out" | compat_apply_rules ours "" | grep -v '^sysbench ' | grep .)" \
       "$(printf '%s\n' "$out" | grep -v '^sysbench ' | grep .)" \
      "$w prepare $*: prints what 1.0.20 prints"
    r "$w" --tables="$tables" "$@" cleanup
  else
    skip "no reference sysbench at $REF_SB"
    skip "no reference sysbench at $REF_SB"
  fi
  o "$w" --tables="$tables" "$@" cleanup
  is "$rc/$(tables_in ours)" "0/" "$w cleanup $*: every table and sequence dropped"
}

compare_prepare oltp_read_write 2
o oltp_read_write --tables=1 --table-size=10 prepare
like "$(describe ours sbtest1)" "id +\| integer +\| +\| not null \| nextval\('sbtest1_id_seq'::regclass\)" \
  "the id is SERIAL (integer, default from its sequence)"
like "$(describe ours sbtest1)" '"k_1" btree \(k\)' "the index on k is there"
o oltp_read_write --tables=1 cleanup
compare_prepare oltp_read_write 1 --auto_inc=off
compare_prepare oltp_read_write 1 --create_secondary=off
compare_prepare oltp_insert 1 --auto_inc=off
compare_prepare select_random_points 1
compare_prepare bulk_insert 1

# ---------------------------------------------------------------------------------------------
# Counts: ours and the reference on the same workloads, seed and number of events

o oltp_read_write --tables=2 --table-size=1000 --rand-seed=11 prepare
have_ref && r oltp_read_write --tables=2 --table-size=1000 --rand-seed=11 prepare

counts() {
  printf '%s/%s/%s/%s/%s' "$(stat read)" "$(stat write)" "$(stat other)" "$(stat transactions)" \
    "$(stat 'ignored errors')"
}

# run_counts WORKLOAD WANT OPTIONS...: WANT is "read/write/other/transactions/ignored".
run_counts() {
  local w=$1 want=$2 seed
  shift 2
  seed=$(printf '%s' "$w $*" | cksum | cut -d' ' -f1)
  local args=(--tables=2 --table-size=1000 --events=100 --time=0 --threads=1
              --rand-seed=$((seed % 100000 + 1)) "$@")
  case $w in select_random_*) args=(--tables=1 "${args[@]:1}") ;; esac
  o "$w" "${args[@]}" run
  [ "$rc" = 0 ] || printf '%s\n' "$out" | grep -E "FATAL" | head -3 | sed 's/^/# /'
  is "$rc/$(counts)" "0/$want" "$w $*: read/write/other/transactions/ignored errors"
  if have_ref; then
    r "$w" "${args[@]}" run
    is "$(counts)" "$want" "$w $*: the reference 1.0.20 counts the same"
  else
    skip "no reference sysbench at $REF_SB"
  fi
}

run_counts oltp_read_write 1400/400/200/100/0
run_counts oltp_read_write 1400/400/200/100/0 --db-ps-mode=disable
run_counts oltp_read_write 1400/400/0/100/0 --skip_trx=on
run_counts oltp_read_only 1400/0/200/100/0
run_counts oltp_read_only 1000/0/200/100/0 --range_selects=off
run_counts oltp_write_only 0/400/200/100/0
run_counts oltp_point_select 100/0/0/100/0
run_counts oltp_point_select 100/0/0/100/0 --db-ps-mode=disable
run_counts oltp_update_index 0/100/0/100/0
run_counts oltp_update_non_index 0/100/0/100/0
run_counts oltp_insert 0/100/0/100/0
run_counts select_random_points 100/0/0/100/0
run_counts select_random_points 100/0/0/100/0 --random_points=50
run_counts select_random_ranges 100/0/0/100/0

# oltp_delete deletes rows for good: a delete of a row still there is a write, of one gone
# other (which ids come up depends on the random stream, not the same as 1.0.20's)
o oltp_delete --tables=2 --table-size=1000 --events=300 --time=0 --rand-seed=5 run
like "$(counts)" "^0/[1-9][0-9]*/[1-9][0-9]*/300/0$" "oltp_delete: deletes of rows still there are writes, of rows gone other"
is "$(( $(stat write) + $(stat other) ))" 300 "oltp_delete: one DELETE per event"
if have_ref; then
  r oltp_delete --tables=2 --table-size=1000 --events=300 --time=0 --rand-seed=5 run
  is "$(stat read)/$(( $(stat write) + $(stat other) ))/$(stat transactions)" "0/300/300" \
    "oltp_delete: the reference 1.0.20 counts the same statements"
else
  skip "no reference sysbench at $REF_SB"
fi

# Threads: 4 threads of oltp_read_write; duplicate keys from concurrent delete/insert pairs are
# ignored (23505) and their events run again.
o oltp_read_write --tables=2 --table-size=1000 --events=400 --time=0 --threads=4 run
is "$rc/$(stat transactions)/$(stat read)" "0/400/$(( 14 * (400 + $(stat 'ignored errors')) ))" \
  "4 threads: 400 transactions of 14 reads each, and 14 for each of the $(stat 'ignored errors') retried after an ignored error"

o oltp_read_write --tables=2 cleanup
have_ref && r oltp_read_write --tables=2 cleanup
is "$(tables_in ours)" "" "cleanup: nothing left"

# --tables above what prepare made: thread_init stops at the first missing table (1.0.20
# goes on and crashes), says so once for the 4 threads, and hints at prepare with the same
# --tables.
o oltp_point_select --tables=1 --table-size=100 prepare
o oltp_point_select --tables=3 --table-size=100 --threads=4 --events=10 --time=0 run
is "$rc" 1 "--tables=3 after a prepare of 1 table: exit 1"
is "$(count "$out" "^FATAL: PQprepare\(\) failed: ERROR:  relation \"sbtest2\" does not exist")/$(count "$out" "^FATAL: \`thread_init' function failed: oltp_common\.lua:[0-9]+: SQL error, errno = 0, state = '42P01': relation \"sbtest2\" does not exist$")" \
   "1/1" "... the driver's line and the script's error once each, for 4 threads"
like "$out" "^HINT: sbtest2 does not exist, and this run uses --tables=3: run prepare with --tables=3 first \(sysbench oltp_point_select --tables=3 \.\.\. prepare\), or run with the --tables prepare was given$" \
  "... then a hint naming prepare with the same --tables"
like "$out" "^FATAL: Thread initialization failed!$" "... and the run does not start"
o oltp_point_select --tables=1 cleanup

# bulk_insert: one multi-row INSERT per 512 KiB of values, as 1.0.20
o bulk_insert --threads=1 prepare
o bulk_insert --threads=1 --events=20000 --time=0 run
ours_bulk="$rc/$(stat write)/$(stat transactions)"
is "$ours_bulk" "0/1/20000" "bulk_insert: 20000 rows in one multi-row INSERT"
is "$(in_db ours "SELECT count(*) FROM sbtest1")" 20000 "... all rows stored"
o bulk_insert --threads=1 cleanup
if have_ref; then
  r bulk_insert --threads=1 prepare
  r bulk_insert --threads=1 --events=20000 --time=0 run
  is "$ours_bulk" "$rc/$(stat write)/$(stat transactions)" "bulk_insert: 1.0.20 counts the same"
  r bulk_insert --threads=1 cleanup
else
  skip "no reference sysbench at $REF_SB"
fi

done_testing
