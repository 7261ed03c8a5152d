#!/usr/bin/env bash
# bench/prepare.sh: `prepare` of the OLTP tables, ours against the reference sysbench 1.0.20,
# on the same private server, in alternating runs.
#
#   bash bench/prepare.sh [--rounds N] [--rows N] [--small-rows N] [--threads N]
#                         [--tidb-rows N] [--no-tidb] [--sb PATH] [--ref PATH]
#
# MariaDB (scripts/mariadb-sandbox.sh; 2 GB buffer pool, 1 GB redo log so that neither load
# waits for checkpoints), both binaries with the same command line:
#   one     oltp_read_write prepare of 1 table x --rows (default 4000000) rows at --threads
#           (default 4): 1.0.20 loads a table on one thread whatever --threads says, ours
#           splits it. Goal: wall time >= 3x faster.
#   eight   8 tables x --small-rows (default 500000) rows at --threads=8. Goal: >= 1.5x.
# For each run: the wall time, the client's CPU (user+sys, GNU time) per row, and the server's
# CPU per row (mariadbd's /proc/PID/stat). A cleanup between runs is not timed.
# TiDB (scripts/tidb-sandbox.sh, when ../shared/tidb/tidb-server.xz exists and not --no-tidb):
# the same two comparisons, smaller: 1 table x --tidb-rows (default 200000) at --threads, and
# 4 tables x --tidb-rows/4 at --threads=4 (ours --db-driver=tidb, 1.0.20 --db-driver=mysql).
# It prints every run, the medians of --rounds (default 3) rounds, and one summary line per
# case. It never fails on a figure: the machine is shared and the server's CPU is most of the
# cost, so the figures move with the machine's load; the load average is printed with them.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

sb="$(dirname "$here")/src/sysbench"
ref=/usr/bin/sysbench
rounds=3
rows=4000000
small_rows=500000
threads=4
tidb_rows=200000
tidb=1

bench_options "rounds=rounds rows=rows small-rows=small_rows threads=threads tidb-rows=tidb_rows no-tidb:tidb=0 sb=sb ref=ref" "$@"
for n in "$rounds" "$rows" "$small_rows" "$threads" "$tidb_rows"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || bench_die "'$n': expected a whole number >= 1"
done

[ "$ref" != /usr/bin/sysbench ] || [ -x "$ref" ] || bench_need_debs sysbench
bench_need_time
bench_check_pair "$sb" "$ref"

scripts="$(dirname "$here")/scripts"
work=$(mktemp -d /tmp/sbbench-prepare.XXXXXX)
cleanup() {
  "$scripts/mariadb-sandbox.sh" stop "$work/mariadb" --remove >/dev/null 2>&1 || true
  "$scripts/tidb-sandbox.sh" stop "$work/tidb" --remove >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# The reference looks for scripts in ./src/lua first: run both away from the source tree.
sb=$(readlink -f "$sb")
ref=$(readlink -f "$ref")
cd "$work"

printf 'prepare: ours %s vs reference %s; %s CPUs; load average at start: %s\n' \
    "$sb" "$ref" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"

# CPU seconds (user + sys) a process has used so far, from /proc/PID/stat.
process_cpu() {
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f\n", ($14 + $15) / hz }' "/proc/$1/stat"
}

summaries=()

# bench_case NAME SERVER_PID SERVER_LABEL ROWS_TOTAL GOAL ARGS...: alternating prepare runs
# of ARGS (plus the side's driver and connection options), a cleanup after each.
bench_case() {
  local name=$1 server_pid=$2 label=$3 total_rows=$4 goal=$5
  shift 5
  local args=("$@")
  ours_wall=() ref_wall=() ours_cpu=() ref_cpu=() ours_srv=() ref_srv=()
  printf '\n== %s: %s, %s rows in all ==\n' "$name" "${args[*]}" "$total_rows"
  prepare_once() {
    local round=$1 side=$2 bin=$sb conn=("${ours_conn[@]}") start end s0 s1 wall cpu srv
    if [ "$side" = ref ]; then bin=$ref; conn=("${ref_conn[@]}"); fi
    s0=$(process_cpu "$server_pid")
    start=$(date +%s.%N)
    bench_timed_run "$work/out" "$work/cpu" "$bin" "${args[@]}" "${conn[@]}" prepare || {
      cat "$work/out" >&2
      bench_die "$side ($bin) failed to prepare: output above"
    }
    end=$(date +%s.%N)
    s1=$(process_cpu "$server_pid")
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f\n", b - a }')
    cpu=$(awk -v c="$(bench_cpu_seconds "$work/cpu")" -v r="$total_rows" \
              'BEGIN { printf "%.3f\n", c / r * 1e6 }')
    srv=$(awk -v a="$s0" -v b="$s1" -v r="$total_rows" 'BEGIN { printf "%.2f\n", (b - a) / r * 1e6 }')
    "$sb" "${args[@]}" "${ours_conn[@]}" cleanup >/dev/null 2>&1 ||
      bench_die "cleanup after $side's prepare failed"
    if [ "$side" = ours ]; then
      ours_wall+=("$wall"); ours_cpu+=("$cpu"); ours_srv+=("$srv")
    else
      ref_wall+=("$wall"); ref_cpu+=("$cpu"); ref_srv+=("$srv")
    fi
    printf '  round %-2s %-4s %8.2f s wall  client %7.3f us CPU/row  %s %6.2f us CPU/row  (load %s)\n' \
        "$round" "$side" "$wall" "$cpu" "$label" "$srv" "$(cut -d' ' -f1 /proc/loadavg)"
  }
  bench_alternate "$rounds" prepare_once
  local wo wr co cr so sr speedup cpu_ratio verdict=met
  wo=$(bench_median "${ours_wall[@]}"); wr=$(bench_median "${ref_wall[@]}")
  co=$(bench_median "${ours_cpu[@]}"); cr=$(bench_median "${ref_cpu[@]}")
  so=$(bench_median "${ours_srv[@]}"); sr=$(bench_median "${ref_srv[@]}")
  speedup=$(bench_ratio "$wr" "$wo")
  cpu_ratio=$(bench_ratio "$co" "$cr")
  bench_at_least "${speedup%x}" "$goal" || verdict="NOT met"
  printf '  median: wall ours %s s, ref %s s: %s faster; client CPU/row ours %s us, ref %s us (ratio %s); %s CPU/row ours %s us, ref %s us\n' \
      "$wo" "$wr" "$speedup" "$co" "$cr" "$cpu_ratio" "$label" "$so" "$sr"
  summaries+=("$(printf '%s: %s faster (wall ours %s s, ref %s s); client CPU/row ours %s us, ref %s us (%s); %s CPU/row ours %s us, ref %s us   [goal >= %sx: %s]' \
      "$name" "$speedup" "$wo" "$wr" "$co" "$cr" "$cpu_ratio" "$label" "$so" "$sr" "$goal" "$verdict")")
}

# ---------------------------------------------------------------------------------------------
# MariaDB

bench_log "starting MariaDB (scripts/mariadb-sandbox.sh, 2 GB buffer pool, 1 GB redo log)"
MARIADB_SANDBOX_BUFFER_POOL=2G "$scripts/mariadb-sandbox.sh" start "$work/mariadb" -- \
    --innodb-log-file-size=1G >/dev/null || bench_die "MariaDB did not start (see above)"
# shellcheck disable=SC1091
. "$work/mariadb/env"
ours_conn=(--mysql-host="$MYSQL_HOST" --mysql-port="$MYSQL_PORT" --mysql-user="$MYSQL_USER"
           --mysql-password="$MYSQL_PASSWORD" --mysql-db="$MYSQL_DB")
ref_conn=("${ours_conn[@]}")
mysql_pid=$MYSQL_PID

bench_case "MariaDB 1 table x $rows, --threads=$threads" "$mysql_pid" server "$rows" 3 \
    oltp_read_write --tables=1 --table-size="$rows" --threads="$threads"
bench_case "MariaDB 8 tables x $small_rows, --threads=8" "$mysql_pid" server \
    "$((8 * small_rows))" 1.5 oltp_read_write --tables=8 --table-size="$small_rows" --threads=8
"$scripts/mariadb-sandbox.sh" stop "$work/mariadb" --remove >/dev/null 2>&1 || true

# ---------------------------------------------------------------------------------------------
# TiDB

if [ "$tidb" = 1 ]; then
  bench_log "starting TiDB (scripts/tidb-sandbox.sh)"
  set +e
  "$scripts/tidb-sandbox.sh" start "$work/tidb" >/dev/null
  status=$?
  set -e
  case $status in
    0)
      # shellcheck disable=SC1091
      . "$work/tidb/env"
      "$scripts/tidb-sandbox.sh" sql "$work/tidb" "CREATE DATABASE sbtest"
      conn=(--mysql-host="$TIDB_HOST" --mysql-port="$TIDB_PORT" --mysql-user=root --mysql-db=sbtest)
      ours_conn=(--db-driver=tidb "${conn[@]}")
      ref_conn=(--db-driver=mysql "${conn[@]}")
      bench_case "TiDB 1 table x $tidb_rows, --threads=$threads" "$TIDB_PID" tidb-server \
          "$tidb_rows" 3 oltp_read_write --tables=1 --table-size="$tidb_rows" \
          --threads="$threads"
      bench_case "TiDB 4 tables x $((tidb_rows / 4)), --threads=4" "$TIDB_PID" tidb-server \
          "$tidb_rows" 1.5 oltp_read_write --tables=4 --table-size="$((tidb_rows / 4))" \
          --threads=4
      ;;
    3) summaries+=("TiDB: not measured (no ../shared/tidb/tidb-server.xz)") ;;
    *) summaries+=("TiDB: not measured (the server did not start)") ;;
  esac
fi

printf '\nload average at end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'Summary (medians of %s alternating rounds; quote only these ratios, measured in this run):\n' "$rounds"
printf '%s\n' "${summaries[@]}"
