#!/usr/bin/env bash
# bench/core_events.sh: events per second and per CPU-second of the core runtime (Lua event
# loop, rand API), ours against the reference sysbench 1.0.20, in alternating runs.
#
#   bash bench/core_events.sh [--rounds N] [--time T] [--sb PATH] [--ref PATH]
#
# Two Lua workloads, each at --threads=1 and --threads=2:
#   empty_event  an empty event(): the cost of the runner's loop, timing and counting per event
#   rand_calls   event() calls sysbench.rand.uniform, .default and .string: the rand API's cost
# Each case runs ours and the reference N times (default 5) for T seconds (default 5) each, in
# the order ours ref, ref ours, ours ref, ... It prints every run, then per case the median
# events/s and events per CPU-second (user+sys, from GNU time) of each side and their ratio,
# and ends with one summary line per case next to the goal. It never fails on a figure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

goal=1.2 # the project's goal for the core runtime: ours >= 1.2x the reference per event
sb="$(dirname "$here")/src/sysbench"
ref=/usr/bin/sysbench
rounds=5
seconds=5

bench_options "rounds=rounds time=seconds sb=sb ref=ref" "$@"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || bench_die "--rounds '$rounds': expected a whole number >= 1"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || bench_die "--time '$seconds': expected whole seconds >= 1"

# The Debian reference is installed on demand; a --ref elsewhere must already exist.
[ "$ref" != /usr/bin/sysbench ] || [ -x "$ref" ] || bench_need_debs sysbench
bench_need_time
bench_check_pair "$sb" "$ref"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Only API that 1.0.20 has, so both binaries run the very same script.
cat >"$work/empty_event.lua" <<'EOF'
function event()
end
EOF
cat >"$work/rand_calls.lua" <<'EOF'
function event()
  local a = sysbench.rand.uniform(1, 1000000)
  local b = sysbench.rand.default(1, 1000000)
  local s = sysbench.rand.string("###-###")
end
EOF

# One run of the current case; appends to the arrays of its side.
run_once() {
  local round=$1 side=$2 bin events total cpu eps ecpu
  if [ "$side" = ours ]; then bin=$sb; else bin=$ref; fi
  bench_timed_run "$work/out" "$work/cpu" \
      "$bin" "$work/$case_name.lua" --threads="$case_threads" --time="$seconds" run || {
    cat "$work/out" >&2
    bench_die "$side ($bin) failed on $case_name threads=$case_threads: output above"
  }
  events=$(bench_sysbench_field "$work/out" events)
  total=$(bench_sysbench_field "$work/out" time)
  cpu=$(bench_cpu_seconds "$work/cpu")
  eps=$(bench_div "$events" "$total")
  ecpu=$(bench_div "$events" "$cpu")
  if [ "$side" = ours ]; then
    ours_eps+=("$eps"); ours_ecpu+=("$ecpu")
  else
    ref_eps+=("$eps"); ref_ecpu+=("$ecpu")
  fi
  printf '  round %-2s %-4s %8s events/s %8s events/CPU-s  (%s events, %s s, %s CPU-s)\n' \
      "$round" "$side" "$(bench_si "$eps")" "$(bench_si "$ecpu")" "$events" "$total" "$cpu"
}

summaries=()
run_case() {
  case_name=$1 case_threads=$2
  ours_eps=() ours_ecpu=() ref_eps=() ref_ecpu=()
  printf '\n== %s threads=%s ==\n' "$case_name" "$case_threads"
  bench_alternate "$rounds" run_once

  local m_ours_eps m_ref_eps m_ours_ecpu m_ref_ecpu r_eps r_ecpu verdict
  m_ours_eps=$(bench_median "${ours_eps[@]}")
  m_ref_eps=$(bench_median "${ref_eps[@]}")
  m_ours_ecpu=$(bench_median "${ours_ecpu[@]}")
  m_ref_ecpu=$(bench_median "${ref_ecpu[@]}")
  r_eps=$(bench_ratio "$m_ours_eps" "$m_ref_eps")
  r_ecpu=$(bench_ratio "$m_ours_ecpu" "$m_ref_ecpu")

  printf '\n  %-18s %16s %20s\n' "median of $rounds" "events/s" "events/CPU-s"
  printf '  %-18s %16s %20s\n' ours "$(bench_si "$m_ours_eps")" "$(bench_si "$m_ours_ecpu")"
  printf '  %-18s %16s %20s\n' reference "$(bench_si "$m_ref_eps")" "$(bench_si "$m_ref_ecpu")"
  printf '  %-18s %16s %20s\n' "ratio ours/ref" "$r_eps" "$r_ecpu"

  if bench_at_least "${r_eps%x}" "$goal" && bench_at_least "${r_ecpu%x}" "$goal"; then
    verdict="met"
  else
    verdict="NOT met"
  fi
  summaries+=("$(printf '%s threads=%s: events/s ratio %s (ours %s/s, ref %s/s), events/CPU-s ratio %s   [goal >= %sx: %s]' \
      "$case_name" "$case_threads" "$r_eps" "$(bench_si "$m_ours_eps")" "$(bench_si "$m_ref_eps")" \
      "$r_ecpu" "$goal" "$verdict")")
}

printf 'core_events: ours %s vs reference %s\n' "$sb" "$ref"
printf '%s rounds x %s s per run, alternating (ours ref, ref ours, ...); %s CPUs; load average at start: %s\n' \
    "$rounds" "$seconds" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"

for case_name in empty_event rand_calls; do
  for threads in 1 2; do
    run_case "$case_name" "$threads"
  done
done

printf '\nload average at end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'Summary (medians of %s alternating rounds; quote only these ratios, measured in this run):\n' "$rounds"
printf '%s\n' "${summaries[@]}"
