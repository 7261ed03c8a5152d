#!/usr/bin/env bash
# bench/pgsql_client.sh: the pgsql driver's client-side cost, ours against the reference
# sysbench 1.0.20 (whose pgsql driver is compiled in), in alternating runs on the same
# private PostgreSQL.
#
#   bash bench/pgsql_client.sh [--part dry|server|syscalls|all] [--rounds N] [--time T]
#                              [--server-time T] [--rows N] [--threads LIST] [--sb PATH]
#                              [--ref PATH]
#
# dry       --pgsql-dry-run (no server: the Lua API, the SQL layer and the driver's own code)
#           oltp_read_only and oltp_point_select at 1 and 2 threads, T s per run (default 5):
#           ours' events/s and events per CPU-second. 1.0.20's pgsql driver has no dry run;
#           its --mysql-dry-run on the same workload is printed next to it for scale.
# server    one private PostgreSQL (scripts/pgsql-sandbox.sh, 127.0.0.1 over TCP, 1 GB of
#           shared buffers), 1 table x N rows (default 1M) loaded and read into the buffers,
#           --rand-type=uniform: oltp_point_select and oltp_read_only at the --threads list
#           (default 4,16), T s per run (default 20): tps, and the client process's CPU
#           seconds (user+sys, GNU time) per query. Goals: tps >= 1.0x, CPU/query <= 0.9x.
# syscalls  the same server and table: system calls per query of each client for the same
#           number of events (perf's syscall tracepoints when perf can read them; else
#           strace -c -f).
# Every case runs each side --rounds times (default 3) in the order ours ref, ref ours, ...,
# prints every run, the medians and the ratio ours/ref, and ends with one summary line per
# case. It never fails on a figure. SYSBENCH_PGSQL_LIBRARY_IO=1 in the environment makes our
# binary use libpq's own I/O for prepared statements (to see what the wire path is worth).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
# shellcheck source=bench/client_lib.sh
. "$here/client_lib.sh"

client_options "threads=thread_list" "$@"
client_setup
"$sb" --help | grep "^  pgsql - " >/dev/null || bench_die "$sb has no pgsql driver (install libpq-dev, reconfigure, rebuild)"
"$ref" --help | grep "^  pgsql - " >/dev/null || bench_die "$ref has no pgsql driver to compare with"
client_workdir sbbench-pgsql pgsql-sandbox.sh

# dry: ours with --pgsql-dry-run, the reference with --mysql-dry-run
dry_title_note=" (ours --pgsql-dry-run; 1.0.20 has none: its --mysql-dry-run for scale)"
dry_flags() {   # dry_flags SIDE
  if [ "$1" = ours ]; then flag=(--db-driver=pgsql --pgsql-dry-run)
  else flag=(--db-driver=mysql --mysql-dry-run); fi
  flag_note="; ${flag[*]}"
}

dry_result() {   # dry_result MO MR CO CR
  printf '  median: ours pgsql %s events/s (%s events/CPU-s); 1.0.20 mysql %s events/s (%s events/CPU-s)\n' \
      "$(bench_si "$1")" "$(bench_si "$3")" "$(bench_si "$2")" "$(bench_si "$4")"
  summaries+=("$(printf 'dry %s threads=%s: ours --pgsql-dry-run %s events/s, %s events/CPU-s (1.0.20 --mysql-dry-run for scale: %s events/s, ratio %s)' \
      "$case_test" "$case_threads" "$(bench_si "$1")" "$(bench_si "$3")" "$(bench_si "$2")" "$(bench_ratio "$1" "$2")")")
}

start_server() {
  [ -z "$sandbox" ] || return 0
  # its own directory directly under /tmp: the server's user (postgres, when we are root)
  # must reach it, and $work is closed to others
  sandbox=$(mktemp -d /tmp/sbbench-pgsql-db.XXXXXX)
  bench_log "starting a private PostgreSQL in $sandbox"
  PGSQL_SANDBOX_SHARED_BUFFERS=${PGSQL_SANDBOX_SHARED_BUFFERS:-1GB} \
    "$sandbox_script" start "$sandbox" >/dev/null ||
    bench_die "cannot start the PostgreSQL sandbox (see above)"
  # shellcheck disable=SC1091
  . "$sandbox/env"
  conn=(--db-driver=pgsql --pgsql-host="$PGSQL_HOST" --pgsql-port="$PGSQL_PORT"
        --pgsql-user="$PGSQL_USER" --pgsql-password="$PGSQL_PASSWORD" --pgsql-db="$PGSQL_DB"
        --tables=1 --table-size="$rows" --rand-type=uniform)
  load_table
  # statistics, hint bits and the visibility map set once; every page in shared buffers
  "$sandbox_script" sql "$sandbox" -q "VACUUM ANALYZE sbtest1" \
      "CREATE EXTENSION IF NOT EXISTS pg_prewarm" \
      "SELECT pg_prewarm('sbtest1'), pg_prewarm('sbtest1_pkey'), pg_prewarm('k_1')" \
      >/dev/null 2>&1 || bench_log "pg_prewarm unavailable: the first runs read from the page cache"
}

syscall_names="sendto recvfrom poll ppoll read write futex fcntl"
strace_note=""

client_main
