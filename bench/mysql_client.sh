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
# shellcheck source=bench/client_lib.sh
. "$here/client_lib.sh"

client_options "" "$@"
client_setup
"$sb" --help | grep "^  mysql - " >/dev/null || bench_die "$sb has no mysql driver (install libmariadb-dev, rebuild)"
client_workdir sbbench mariadb-sandbox.sh

# dry: both sides --mysql-dry-run
dry_title_note=""
dry_flags() { flag=(--mysql-dry-run); flag_note=""; }

dry_result() {   # dry_result MO MR CO CR
  local goal=1.2 r rc verdict=met
  r=$(bench_ratio "$1" "$2"); rc=$(bench_ratio "$3" "$4")
  printf '  median: ours %s events/s, ref %s events/s, ratio %s; events/CPU-s ratio %s\n' \
      "$(bench_si "$1")" "$(bench_si "$2")" "$r" "$rc"
  bench_at_least "${r%x}" "$goal" || verdict="NOT met"
  summaries+=("$(printf 'dry %s threads=%s: events/s ratio %s (ours %s, ref %s), events/CPU-s ratio %s   [goal events/s >= %sx: %s]' \
      "$case_test" "$case_threads" "$r" "$(bench_si "$1")" "$(bench_si "$2")" "$rc" "$goal" "$verdict")")
}

start_server() {
  [ -z "$sandbox" ] || return 0
  sandbox="$work/db"
  bench_log "starting a private MariaDB in $sandbox"
  MARIADB_SANDBOX_BUFFER_POOL=${MARIADB_SANDBOX_BUFFER_POOL:-1G} \
    "$sandbox_script" start "$sandbox" >/dev/null ||
    bench_die "cannot start the MariaDB sandbox (see above)"
  # shellcheck disable=SC1091
  . "$sandbox/env"
  conn=(--mysql-host="$MYSQL_HOST" --mysql-port="$MYSQL_PORT" --mysql-user="$MYSQL_USER"
        --mysql-password="$MYSQL_PASSWORD" --mysql-db="$MYSQL_DB" --tables=1 --table-size="$rows"
        --rand-type=uniform)
  load_table
  # warm the buffer pool: every row once
  "$sb" oltp_read_only "${conn[@]}" prewarm >/dev/null 2>&1 || true
}

syscall_names="sendto recvfrom poll ppoll read write futex clock_nanosleep"
strace_note=" (strace slows the client: fewer EAGAINs)"

client_main
