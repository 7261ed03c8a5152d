#!/usr/bin/env bash
# bench/memory.sh: what each worker thread costs in memory, ours against the reference sysbench
# 1.0.20, in alternating runs.
#
#   bash bench/memory.sh [--rounds N] [--threads N] [--sb PATH] [--ref PATH]
#
# Three cases, each run at --threads=1 and at --threads=N (default 1000) by both binaries:
#   cpu           the compiled-in cpu test: the runner's own cost per thread (stack, counters,
#                 latency histogram)
#   empty_event   a Lua script with an empty event(): a worker's Lua state and the sysbench.*
#                 modules it loads
#   point_select  oltp_point_select with --mysql-dry-run: a worker of a real workload, its
#                 connection object and prepared statement (no server needed)
# Peak RSS comes from GNU time (%M). Per-thread cost is (RSS at N threads - RSS at 1 thread) /
# (N - 1), so what is paid once (the binary, its libraries, the main Lua state) drops out. Runs
# alternate ours ref, ref ours, ...; the medians of each side and their ratio are printed, and a
# summary line per case next to the goal (per-thread RSS ours <= the reference's). It never
# fails on a figure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

sb="$(dirname "$here")/src/sysbench"
ref=/usr/bin/sysbench
rounds=3
threads=1000

bench_options "rounds=rounds threads=threads sb=sb ref=ref" "$@"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || bench_die "--rounds '$rounds': expected a whole number >= 1"
[[ $threads =~ ^[0-9]+$ ]] && [ "$threads" -ge 2 ] ||
  bench_die "--threads '$threads': expected a whole number >= 2"

[ "$ref" != /usr/bin/sysbench ] || [ -x "$ref" ] || bench_need_debs sysbench
bench_need_time
bench_check_pair "$sb" "$ref"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The reference also loads modules from ./src/lua: run both from an empty directory.
cd "$work"

cat >"$work/empty_event.lua" <<'EOF'
function event()
end
EOF

# The command line of a case (both binaries take it).
case_args() {
  case $1 in
    cpu) echo "cpu --time=2" ;;
    empty_event) echo "$work/empty_event.lua --time=2" ;;
    point_select) echo "oltp_point_select --mysql-dry-run=on --table-size=10000 --time=2" ;;
  esac
}

# Peak RSS in KiB of one run.
peak_rss() {
  local bin=$1 n=$2 args
  args=$(case_args "$case_name")
  # shellcheck disable=SC2086
  /usr/bin/time -o "$work/rss" -f "%M" "$bin" $args --threads="$n" run >"$work/out" 2>&1 || {
    cat "$work/out" >&2
    bench_die "$bin failed on $case_name --threads=$n: output above"
  }
  tail -n 1 "$work/rss"
}

run_once() {
  local round=$1 side=$2 bin one many per
  if [ "$side" = ours ]; then bin=$sb; else bin=$ref; fi
  one=$(peak_rss "$bin" 1)
  many=$(peak_rss "$bin" "$threads")
  per=$(awk -v a="$many" -v b="$one" -v n="$threads" 'BEGIN { printf "%.1f\n", (a - b) / (n - 1) }')
  if [ "$side" = ours ]; then
    ours_per+=("$per"); ours_many+=("$many")
  else
    ref_per+=("$per"); ref_many+=("$many")
  fi
  printf '  round %-2s %-4s 1 thread %7s KiB, %s threads %8s KiB: %6s KiB per thread\n' \
      "$round" "$side" "$one" "$threads" "$many" "$per"
}

summaries=()
for case_name in cpu empty_event point_select; do
  ours_per=() ref_per=() ours_many=() ref_many=()
  printf '\n== %s ==\n' "$case_name"
  bench_alternate "$rounds" run_once
  m_ours=$(bench_median "${ours_per[@]}")
  m_ref=$(bench_median "${ref_per[@]}")
  m_ours_many=$(bench_median "${ours_many[@]}")
  m_ref_many=$(bench_median "${ref_many[@]}")
  if bench_at_least "$m_ref" "$m_ours"; then verdict=met; else verdict="NOT met"; fi
  summaries+=("$(printf '%s: per-thread RSS %s KiB vs %s KiB, ratio %s; peak at %s threads %s MiB vs %s MiB, ratio %s   [goal per thread <= 1.00x: %s]' \
      "$case_name" "$m_ours" "$m_ref" "$(bench_ratio "$m_ours" "$m_ref")" "$threads" \
      "$((${m_ours_many%.*} / 1024))" "$((${m_ref_many%.*} / 1024))" \
      "$(bench_ratio "$m_ours_many" "$m_ref_many")" "$verdict")")
done

printf '\nSummary (medians of %s alternating rounds, ours vs reference; quote only these ratios, measured in this run):\n' "$rounds"
printf '%s\n' "${summaries[@]}"
