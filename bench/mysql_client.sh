#!/usr/bin/env bash
# bench/mysql_client.sh: the mysql driver's client-side cost, ours against the reference
# sysbench 1.0.20, in alternating runs.
#
#   bash bench/mysql_client.sh [--part dry|server|syscalls|all] [--rounds N] [--time T]
#                              [--server-time T] [--rows N] [--sb PATH] [--ref PATH]
#
# dry       --mysql-dry-run (no server: the Lua API, the SQL layer and the driver's own
#           code) oltp_read_only and oltp_point_select at 1 and 2 threads, T s per run
#           (default 5): events/s and events per CPU-second. Goal: events/s >= 1.2x.
# server    one private MariaDB (scripts/mariadb-sandbox.sh, 127.0.0.1 over TCP), 1 table x
#           N rows (default 1M), --rand-type=uniform: oltp_point_select and oltp_read_only at
#           4 and 16 threads, T s per run (default 20): tps, and the client process's CPU
#           seconds (user+sys, GNU time) per query. Goals: tps >= 1.0x, CPU/query <= 0.9x.
# syscalls  the same server and table: system calls per query of each client for the same
#           number of events (perf's syscall tracepoints when perf can read them, which does not
#           slow the client down; else strace -c -f), with the calls that make the difference.
# Every case runs each side --rounds times (default 3) in the order ours ref, ref ours, ...,
# prints every run, the medians and the ratio ours/ref, and ends with one summary line per
# case. It never fails on a figure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

sb="$(dirname "$here")/src/sysbench"
ref=/usr/bin/sysbench
part=all
rounds=3
dry_seconds=5
server_seconds=20
rows=1000000

bench_options "part=part rounds=rounds time=dry_seconds server-time=server_seconds rows=rows sb=sb ref=ref" "$@"
case $part in dry | server | syscalls | all) ;; *) bench_die "--part '$part': expected dry, server, syscalls or all" ;; esac
for n in "$rounds" "$dry_seconds" "$server_seconds" "$rows"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || bench_die "'$n': expected a whole number >= 1"
done

[ "$ref" != /usr/bin/sysbench ] || [ -x "$ref" ] || bench_need_debs sysbench
bench_need_time
bench_check_pair "$sb" "$ref"
"$sb" --help | grep "^  mysql - " >/dev/null || bench_die "$sb has no mysql driver (install libmariadb-dev, rebuild)"

work=$(mktemp -d /tmp/sbbench.XXXXXX)
sandbox=""
cleanup() {
  [ -z "$sandbox" ] || "$(dirname "$here")/scripts/mariadb-sandbox.sh" stop "$sandbox" --remove >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# The reference looks for scripts in ./src/lua first: run both away from the source tree.
sb=$(readlink -f "$sb")
ref=$(readlink -f "$ref")
cd "$work"

report_number() {   # report_number OUT LABEL: the count after "LABEL:" in a sysbench report
  awk -v p="$2:" 'index($0, p) { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) { print $i; found = 1; exit } }
                  END { exit !found }' "$1" || bench_die "no '$2:' line in $1"
}

summaries=()

# ---------------------------------------------------------------------------------------------
# dry: the client without a server

dry_once() {
  local round=$1 side=$2 bin events total cpu eps ecpu
  if [ "$side" = ours ]; then bin=$sb; else bin=$ref; fi
  bench_timed_run "$work/out" "$work/cpu" "$bin" "$case_test" --mysql-dry-run \
      --threads="$case_threads" --time="$dry_seconds" run || {
    cat "$work/out" >&2
    bench_die "$side ($bin) failed on $case_test threads=$case_threads: output above"
  }
  events=$(bench_sysbench_field "$work/out" events)
  total=$(bench_sysbench_field "$work/out" time)
  cpu=$(bench_cpu_seconds "$work/cpu")
  eps=$(bench_div "$events" "$total")
  ecpu=$(bench_div "$events" "$cpu")
  if [ "$side" = ours ]; then ours_a+=("$eps"); ours_b+=("$ecpu"); else ref_a+=("$eps"); ref_b+=("$ecpu"); fi
  printf '  round %-2s %-4s %8s events/s %8s events/CPU-s  (%s events, %s s, %s CPU-s)\n' \
      "$round" "$side" "$(bench_si "$eps")" "$(bench_si "$ecpu")" "$events" "$total" "$cpu"
}

run_dry() {
  local goal=1.2
  for case_test in oltp_read_only oltp_point_select; do
    for case_threads in 1 2; do
      ours_a=() ours_b=() ref_a=() ref_b=()
      printf '\n== dry run: %s threads=%s ==\n' "$case_test" "$case_threads"
      bench_alternate "$rounds" dry_once
      local mo mr co cr r rc verdict=met
      mo=$(bench_median "${ours_a[@]}"); mr=$(bench_median "${ref_a[@]}")
      co=$(bench_median "${ours_b[@]}"); cr=$(bench_median "${ref_b[@]}")
      r=$(bench_ratio "$mo" "$mr"); rc=$(bench_ratio "$co" "$cr")
      printf '  median: ours %s events/s, ref %s events/s, ratio %s; events/CPU-s ratio %s\n' \
          "$(bench_si "$mo")" "$(bench_si "$mr")" "$r" "$rc"
      bench_at_least "${r%x}" "$goal" || verdict="NOT met"
      summaries+=("$(printf 'dry %s threads=%s: events/s ratio %s (ours %s, ref %s), events/CPU-s ratio %s   [goal events/s >= %sx: %s]' \
          "$case_test" "$case_threads" "$r" "$(bench_si "$mo")" "$(bench_si "$mr")" "$rc" "$goal" "$verdict")")
    done
  done
}

# ---------------------------------------------------------------------------------------------
# The server

start_server() {
  [ -z "$sandbox" ] || return 0
  sandbox="$work/db"
  bench_log "starting a private MariaDB in $sandbox"
  MARIADB_SANDBOX_BUFFER_POOL=${MARIADB_SANDBOX_BUFFER_POOL:-1G} \
    "$(dirname "$here")/scripts/mariadb-sandbox.sh" start "$sandbox" >/dev/null ||
    bench_die "cannot start the MariaDB sandbox (see above)"
  # shellcheck disable=SC1091
  . "$sandbox/env"
  conn=(--mysql-host="$MYSQL_HOST" --mysql-port="$MYSQL_PORT" --mysql-user="$MYSQL_USER"
        --mysql-password="$MYSQL_PASSWORD" --mysql-db="$MYSQL_DB" --tables=1 --table-size="$rows"
        --rand-type=uniform)
  bench_log "loading 1 table x $rows rows"
  "$sb" oltp_read_only "${conn[@]}" --threads=1 prepare >"$work/prepare.out" 2>&1 || {
    cat "$work/prepare.out" >&2
    bench_die "prepare failed"
  }
  # warm the buffer pool: every row once
  "$sb" oltp_read_only "${conn[@]}" prewarm >/dev/null 2>&1 || true
}

server_once() {
  local round=$1 side=$2 bin tps queries cpu cpq total
  if [ "$side" = ours ]; then bin=$sb; else bin=$ref; fi
  bench_timed_run "$work/out" "$work/cpu" "$bin" "$case_test" "${conn[@]}" \
      --threads="$case_threads" --time="$server_seconds" run || {
    cat "$work/out" >&2
    bench_die "$side ($bin) failed on $case_test threads=$case_threads: output above"
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

run_server() {
  start_server
  for case_test in oltp_point_select oltp_read_only; do
    for case_threads in 4 16; do
      ours_a=() ours_b=() ref_a=() ref_b=()
      printf '\n== server: %s threads=%s, %s s per run ==\n' "$case_test" "$case_threads" "$server_seconds"
      bench_alternate "$rounds" server_once
      local mo mr co cr r rc verdict=met
      mo=$(bench_median "${ours_a[@]}"); mr=$(bench_median "${ref_a[@]}")
      co=$(bench_median "${ours_b[@]}"); cr=$(bench_median "${ref_b[@]}")
      r=$(bench_ratio "$mo" "$mr"); rc=$(bench_ratio "$co" "$cr")
      printf '  median: tps ours %s, ref %s, ratio %s; client CPU/query ours %s us, ref %s us, ratio %s\n' \
          "$(bench_si "$mo")" "$(bench_si "$mr")" "$r" "$co" "$cr" "$rc"
      bench_at_least "${r%x}" 1.0 || verdict="NOT met"
      bench_at_least 0.9 "${rc%x}" || verdict="NOT met"
      summaries+=("$(printf 'server %s threads=%s: tps ratio %s, client CPU/query ratio %s (ours %s us, ref %s us)   [goals tps >= 1.0x, CPU/query <= 0.9x: %s]' \
          "$case_test" "$case_threads" "$r" "$rc" "$co" "$cr" "$verdict")")
    done
  done
}

# ---------------------------------------------------------------------------------------------
# System calls per query

perf_works() {
  command -v perf >/dev/null 2>&1 &&
    perf stat -e raw_syscalls:sys_enter -x, true >/dev/null 2>&1
}

# count_syscalls SIDE BIN TEST EVENTS: prints "total per-query breakdown..." lines
count_syscalls() {
  local side=$1 bin=$2 test=$3 events=$4 queries
  if perf_works; then
    local ev=raw_syscalls:sys_enter name
    for name in sendto recvfrom poll ppoll read write futex clock_nanosleep; do
      ev+=",syscalls:sys_enter_$name"
    done
    perf stat -x, -e "$ev" -o "$work/perf.$side" "$bin" "$test" "${conn[@]}" --threads=4 \
        --events="$events" --time=0 run >"$work/out" 2>&1 || {
      cat "$work/out" >&2
      bench_die "$side failed under perf: output above"
    }
    queries=$(report_number "$work/out" queries)
    awk -F, -v q="$queries" -v side="$side" '
      $3 ~ /sys_enter/ { name = $3; sub(/.*sys_enter_?/, "", name); if (name == "") name = "all"
                         if ($1 / q >= 0.005) printf "  %-4s %-16s %8.2f per query\n", side, name, $1 / q }' \
      "$work/perf.$side"
  else
    bench_need_debs strace
    strace -f -c -o "$work/strace.$side" "$bin" "$test" "${conn[@]}" --threads=4 \
        --events="$events" --time=0 run >"$work/out" 2>&1 || {
      cat "$work/out" >&2
      bench_die "$side failed under strace: output above"
    }
    queries=$(report_number "$work/out" queries)
    awk -v q="$queries" -v side="$side" '
      $NF == "total" { printf "  %-4s %-16s %8.2f per query (strace slows the client: fewer EAGAINs)\n", side, "all", $(NF-2) / q; next }
      $1 ~ /^[0-9.]+$/ && NF >= 5 { calls = ($5 ~ /^[0-9]+$/) ? $4 : $4; if ($4 / q >= 0.01) printf "  %-4s %-16s %8.2f per query\n", side, $NF, $4 / q }' \
      "$work/strace.$side"
  fi
}

run_syscalls() {
  start_server
  local test events=40000
  for test in oltp_point_select oltp_read_only; do
    [ "$test" = oltp_read_only ] && events=4000
    printf '\n== system calls per query: %s, 4 threads, %s events ==\n' "$test" "$events"
    count_syscalls ours "$sb" "$test" "$events" | tee "$work/sys.ours"
    count_syscalls ref "$ref" "$test" "$events" | tee "$work/sys.ref"
    local o r
    o=$(awk '$2 == "all" { print $3 }' "$work/sys.ours")
    r=$(awk '$2 == "all" { print $3 }' "$work/sys.ref")
    summaries+=("$(printf 'syscalls %s: ours %s per query, ref %s per query (ratio %s)' "$test" "$o" "$r" "$(bench_ratio "$o" "$r")")")
  done
}

printf 'mysql_client: ours %s vs reference %s; %s CPUs; load average at start: %s\n' \
    "$sb" "$ref" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
case $part in
  dry) run_dry ;;
  server) run_server ;;
  syscalls) run_syscalls ;;
  all) run_dry; run_syscalls; run_server ;;
esac

printf '\nload average at end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'Summary (medians of %s alternating rounds; quote only these ratios, measured in this run):\n' "$rounds"
printf '%s\n' "${summaries[@]}"
