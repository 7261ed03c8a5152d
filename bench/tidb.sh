#!/usr/bin/env bash
# bench/tidb.sh: our --db-driver=tidb against the reference sysbench 1.0.20 with
# --db-driver=mysql, on a real TiDB, in alternating runs.
#
#   bash bench/tidb.sh [--rounds N] [--time T] [--rows N] [--threads N] [--sb PATH] [--ref PATH]
#
# The server is the repository's TiDB (scripts/tidb-sandbox.sh: ../shared/tidb/tidb-server.xz,
# standalone, 127.0.0.1 over TCP, memory capped), with 1 table x N rows (default 100000)
# loaded once, --rand-type=uniform.
# reads     oltp_point_select and oltp_read_only at --threads (default 4), T s per run
#           (default 15), --rounds rounds (default 3): tps, and the client process's CPU
#           seconds (user+sys, GNU time) per query. Goals: tps >= 1.0x, CPU/query <= 0.9x.
# conflicts oltp_read_write in optimistic mode (SET GLOBAL tidb_txn_mode for both, since
#           1.0.20 has no option for it) on 1 table x 100 rows at 8 threads for 2000 events:
#           1.0.20 stops at the first write conflict (error 9007); ours retries and counts them.
# It prints every run, the medians and the ratios ours/ref, and one summary line per case.
# It never fails on a figure. On a 2-core machine TiDB takes about 1.5 cores: client CPU
# saved goes to the server, so it moves tps too.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

sb="$(dirname "$here")/src/sysbench"
ref=/usr/bin/sysbench
rounds=3
seconds=15
rows=100000
threads=4

bench_options "rounds=rounds time=seconds rows=rows threads=threads sb=sb ref=ref" "$@"
for n in "$rounds" "$seconds" "$rows" "$threads"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || bench_die "'$n': expected a whole number >= 1"
done

[ "$ref" != /usr/bin/sysbench ] || [ -x "$ref" ] || bench_need_debs sysbench
bench_need_time
command -v mariadb >/dev/null || bench_need_debs mariadb-client
bench_check_pair "$sb" "$ref"
grep -q "^  tidb - " <<<"$("$sb" --help)" || bench_die "$sb has no tidb driver (install libmariadb-dev, rebuild)"

sandbox_script="$(dirname "$here")/scripts/tidb-sandbox.sh"
work=$(mktemp -d /tmp/sbbench-tidb.XXXXXX)
cleanup() {
  "$sandbox_script" stop "$work/tidb" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# The reference looks for scripts in ./src/lua first: run both away from the source tree.
sb=$(readlink -f "$sb")
ref=$(readlink -f "$ref")
cd "$work"

printf 'tidb: ours %s (--db-driver=tidb) vs reference %s (--db-driver=mysql); %s CPUs; load average at start: %s\n' \
    "$sb" "$ref" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
bench_log "starting TiDB (scripts/tidb-sandbox.sh)"
set +e
"$sandbox_script" start "$work/tidb" >/dev/null
status=$?
set -e
case $status in
  0) ;;
  3) bench_die "no TiDB server to measure against (the archive is absent)" ;;
  *) bench_die "TiDB did not start (see above)" ;;
esac
# shellcheck disable=SC1091
. "$work/tidb/env"
tsql() { "$sandbox_script" sql "$work/tidb" -N -B "$@"; }
tsql "CREATE DATABASE sbtest"
conn=(--mysql-host="$TIDB_HOST" --mysql-port="$TIDB_PORT" --mysql-user=root --mysql-db=sbtest)
ours_driver=(--db-driver=tidb)
ref_driver=(--db-driver=mysql)

report_number() {   # report_number OUT LABEL: the count after "LABEL:" in a sysbench report
  awk -v p="$2:" 'index($0, p) { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) { print $i; found = 1; exit } }
                  END { exit !found }' "$1" || bench_die "no '$2:' line in $1"
}

summaries=()

# ---------------------------------------------------------------------------------------------
# reads

bench_log "loading 1 table x $rows rows"
"$sb" oltp_read_only "${ours_driver[@]}" "${conn[@]}" --tables=1 --table-size="$rows" prepare \
    >"$work/prepare.out" 2>&1 || { cat "$work/prepare.out" >&2; bench_die "prepare failed"; }
# warm TiDB's caches and statistics: one pass over every row
tsql --database=sbtest "ANALYZE TABLE sbtest1" "SELECT COUNT(*), SUM(LENGTH(c)) FROM sbtest1" >/dev/null

read_once() {
  local round=$1 side=$2 bin tps queries cpu cpq total
  local driver=("${ours_driver[@]}")
  if [ "$side" = ours ]; then bin=$sb; else bin=$ref; driver=("${ref_driver[@]}"); fi
  bench_timed_run "$work/out" "$work/cpu" "$bin" "$case_test" "${driver[@]}" "${conn[@]}" \
      --tables=1 --table-size="$rows" --rand-type=uniform --threads="$threads" \
      --time="$seconds" run || {
    cat "$work/out" >&2
    bench_die "$side ($bin) failed on $case_test: output above"
  }
  total=$(bench_sysbench_field "$work/out" time)
  tps=$(bench_div "$(report_number "$work/out" transactions)" "$total")
  queries=$(report_number "$work/out" queries)
  cpu=$(bench_cpu_seconds "$work/cpu")
  cpq=$(awk -v c="$cpu" -v q="$queries" 'BEGIN { printf "%.3f\n", c / q * 1e6 }')
  if [ "$side" = ours ]; then ours_a+=("$tps"); ours_b+=("$cpq"); else ref_a+=("$tps"); ref_b+=("$cpq"); fi
  printf '  round %-2s %-4s %8s tps %8.3f us CPU/query  (%s queries, %s s, %s CPU-s)\n' \
      "$round" "$side" "$(bench_si "$tps")" "$cpq" "$queries" "$total" "$cpu"
}

for case_test in oltp_point_select oltp_read_only; do
  ours_a=() ours_b=() ref_a=() ref_b=()
  printf '\n== %s threads=%s, %s s per run (ours --db-driver=tidb, ref --db-driver=mysql) ==\n' \
      "$case_test" "$threads" "$seconds"
  bench_alternate "$rounds" read_once
  mo=$(bench_median "${ours_a[@]}"); mr=$(bench_median "${ref_a[@]}")
  co=$(bench_median "${ours_b[@]}"); cr=$(bench_median "${ref_b[@]}")
  r=$(bench_ratio "$mo" "$mr"); rc=$(bench_ratio "$co" "$cr")
  printf '  median: ours %s tps, ref %s tps, ratio %s; CPU/query ours %s us, ref %s us, ratio %s\n' \
      "$(bench_si "$mo")" "$(bench_si "$mr")" "$r" "$co" "$cr" "$rc"
  verdict=met
  bench_at_least "${r%x}" 1.0 || verdict="NOT met"
  bench_at_least 0.9 "${rc%x}" || verdict="NOT met"
  summaries+=("$(printf '%s threads=%s: tps ratio %s (ours %s, ref %s), client CPU/query ratio %s (ours %s us, ref %s us)   [goals tps >= 1.0x, CPU/query <= 0.9x: %s]' \
      "$case_test" "$threads" "$r" "$(bench_si "$mo")" "$(bench_si "$mr")" "$rc" "$co" "$cr" "$verdict")")
done
"$sb" oltp_read_only "${ours_driver[@]}" "${conn[@]}" cleanup >/dev/null

# ---------------------------------------------------------------------------------------------
# conflicts: optimistic transactions on 100 rows

printf '\n== oltp_read_write, optimistic transactions, 1 table x 100 rows, 8 threads, 2000 events ==\n'
"$sb" oltp_read_write "${ours_driver[@]}" "${conn[@]}" --table-size=100 prepare >/dev/null
tsql "SET GLOBAL tidb_txn_mode = 'optimistic'"
conflict_run() {   # conflict_run SIDE
  local bin=$sb driver=("${ours_driver[@]}")
  [ "$1" = ref ] && { bin=$ref; driver=("${ref_driver[@]}"); }
  set +e
  "$bin" oltp_read_write "${driver[@]}" "${conn[@]}" --table-size=100 --threads=8 \
      --events=2000 --time=0 run >"$work/conflict.$1" 2>&1
  echo $? >"$work/conflict.$1.rc"
  set -e
}
conflict_run ref
conflict_run ours
tsql "SET GLOBAL tidb_txn_mode = 'pessimistic'"
ref_rc=$(cat "$work/conflict.ref.rc")
ours_rc=$(cat "$work/conflict.ours.rc")
# "errno = 9007, state = 'HY000': Write conflict, txnStartTS=..." -> "errno = 9007: Write conflict"
ref_line=$(grep -m1 -E "errno = [0-9]+" "$work/conflict.ref" |
           sed -E "s/.*(errno = [0-9]+), state = '[^']*': ([^,(]*).*/\1: \2/" || true)
ours_trx=$(report_number "$work/conflict.ours" transactions 2>/dev/null || echo 0)
ours_ignored=$(awk '/ignored errors:/ { print $3; exit }' "$work/conflict.ours")
ours_9007=$(awk '$1 == "9007" { print $NF; exit }' "$work/conflict.ours")
printf '  ref  (1.0.20, --db-driver=mysql): exit %s; %s\n' "$ref_rc" "${ref_line:-no error line}"
printf '  ours (--db-driver=tidb):           exit %s; %s transactions, %s retried (9007: %s)\n' \
    "$ours_rc" "$ours_trx" "$ours_ignored" "${ours_9007:-0}"
sed -n '/^TiDB errors by code:/,/^$/p' "$work/conflict.ours" | sed '/^$/d; s/^/    /'
verdict=met
[ "$ref_rc" != 0 ] && [ "$ours_rc" = 0 ] && [ "$ours_trx" = 2000 ] || verdict="NOT met"
summaries+=("$(printf 'optimistic oltp_read_write: 1.0.20 exit %s (%s); ours exit %s, %s/2000 transactions, %s write conflicts retried   [goal: ref aborts, ours completes: %s]' \
    "$ref_rc" "${ref_line:-?}" "$ours_rc" "$ours_trx" "${ours_9007:-0}" "$verdict")")

printf '\nload average at end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'Summary (medians of %s alternating rounds; quote only these ratios, measured in this run):\n' "$rounds"
printf '%s\n' "${summaries[@]}"
