#!/usr/bin/env bash
# tidb_overhead.sh: what the TiDB layer costs per query on the client: --db-driver=tidb
# against --db-driver=mysql, both with --mysql-dry-run (no server: only client work), for
# oltp_read_only and oltp_point_select at 1 and 2 threads, alternating runs; events per
# CPU-second of the process (user+sys) is the steady figure, events/s is shown beside it.
# Goal (issue 5): tidb events/s within 3 % of mysql.
#
#   bench/tidb_overhead.sh [--rounds R] [--time T] [--sb PATH]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rounds=5
secs=5
sb="$(cd "$(dirname "$0")/.." && pwd)/src/sysbench"
bench_options "rounds=rounds time=secs sb=sb" "$@"
bench_need_time
"$sb" --help | grep "^  tidb - " >/dev/null || bench_die "$sb has no tidb driver"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

declare -A rates
run_side() {   # run_side ROUND SIDE: "ours" = tidb, "ref" = mysql
  local driver=mysql out="$work/out" cpu="$work/cpu"
  [ "$2" = ours ] && driver=tidb
  bench_timed_run "$out" "$cpu" "$sb" "$workload" --db-driver=$driver --mysql-dry-run \
    --threads="$threads" --time="$secs" run || bench_die "$driver run failed: $(tail -3 "$out")"
  local events time rate per_cpu
  events=$(bench_sysbench_field "$out" events)
  time=$(bench_sysbench_field "$out" time)
  rate=$(bench_div "$events" "$time")
  per_cpu=$(bench_div "$events" "$(bench_cpu_seconds "$cpu")")
  rates[$2]="${rates[$2]:-} $rate"
  rates[$2_cpu]="${rates[$2_cpu]:-} $per_cpu"
  printf '  round %d %-6s %10s events/s %10s events/CPU-s\n' "$1" "$driver" \
         "$(bench_si "$rate")" "$(bench_si "$per_cpu")"
}

summary=()
for workload in oltp_point_select oltp_read_only; do
  for threads in 1 2; do
    rates=()
    echo "== $workload, $threads thread(s), --mysql-dry-run"
    bench_alternate "$rounds" run_side
    t=$(bench_median ${rates[ours]})
    m=$(bench_median ${rates[ref]})
    tc=$(bench_median ${rates[ours_cpu]})
    mc=$(bench_median ${rates[ref_cpu]})
    summary+=("$workload threads=$threads: tidb/mysql events per CPU-second $(bench_ratio "$tc" "$mc"), events/s $(bench_ratio "$t" "$m") (tidb $(bench_si "$t")/s, mysql $(bench_si "$m")/s)")
  done
done
echo
echo "Summary (medians of $rounds alternating rounds, this run; goal: within 3 % of mysql, i.e. >= 0.97x;"
echo "events per CPU-second is the figure other load on the machine does not move):"
printf '%s\n' "${summary[@]}"
