# shellcheck shell=bash
# bench/client_lib.sh: the body of the driver client benches (bench/mysql_client.sh,
# bench/pgsql_client.sh); source it after bench/lib.sh, do not run it.
#
# Both measure one driver's client-side cost, ours against the reference sysbench 1.0.20, in
# three parts: dry (no server), server (tps and client CPU per query on a private server) and
# syscalls (system calls per query). This file holds the command line, the runs, the counting
# and the summary; the script holds what is its driver's own. It calls, in this order:
#
#   client_options SPEC "$@"   the common options (--part --rounds --time --server-time --rows
#                              --sb --ref) and those of SPEC (bench_options' NAME=VAR list)
#   client_setup               the reference, GNU time, the pair of binaries
#   client_workdir PREFIX SANDBOX_SCRIPT   a scratch directory /tmp/PREFIX.XXXXXX, left and
#                              removed at exit with the server of SANDBOX_SCRIPT (scripts/...)
#   client_main                the parts --part asks for, then the summary
#
# and defines these functions and variables:
#
#   dry_flags SIDE             sets flag (the dry-run options of SIDE, ours or ref) and
#                              flag_note (what a round's line says about them)
#   dry_result MO MR CO CR     prints the medians of a dry case (events/s ours and ref, events
#                              per CPU-second ours and ref) and adds its summary line
#   dry_title_note             said after "== dry run: TEST threads=N"
#   start_server               starts the server once (sandbox, conn=(...), load_table)
#   syscall_names              the system calls perf breaks down
#   strace_note                said after strace's total

sb="$(dirname "$here")/src/sysbench"
ref=/usr/bin/sysbench
part=all
rounds=3
dry_seconds=5
server_seconds=20
rows=1000000
thread_list=4,16
summaries=()

client_options() {
  local spec=$1
  shift
  bench_options "part=part rounds=rounds time=dry_seconds server-time=server_seconds rows=rows $spec sb=sb ref=ref" "$@"
  case $part in dry | server | syscalls | all) ;; *) bench_die "--part '$part': expected dry, server, syscalls or all" ;; esac
  local n
  for n in "$rounds" "$dry_seconds" "$server_seconds" "$rows"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || bench_die "'$n': expected a whole number >= 1"
  done
  [[ $thread_list =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || bench_die "--threads '$thread_list': expected numbers separated by commas"
}

client_setup() {
  [ "$ref" != /usr/bin/sysbench ] || [ -x "$ref" ] || bench_need_debs sysbench
  bench_need_time
  bench_check_pair "$sb" "$ref"
}

client_workdir() {
  work=$(mktemp -d "/tmp/$1.XXXXXX")
  sandbox_script="$(dirname "$here")/scripts/$2"
  sandbox=""
  trap client_cleanup EXIT
  # The reference looks for scripts in ./src/lua first: run both away from the source tree.
  sb=$(readlink -f "$sb")
  ref=$(readlink -f "$ref")
  cd "$work"
}

client_cleanup() {
  [ -z "$sandbox" ] || "$sandbox_script" stop "$sandbox" --remove >/dev/null 2>&1 || true
  rm -rf "$work"
}

report_number() {   # report_number OUT LABEL: the count after "LABEL:" in a sysbench report
  awk -v p="$2:" 'index($0, p) { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) { print $i; found = 1; exit } }
                  END { exit !found }' "$1" || bench_die "no '$2:' line in $1"
}

# ---------------------------------------------------------------------------------------------
# dry: the client without a server

dry_once() {   # dry_once ROUND SIDE: one timed run with the dry-run options of SIDE
  local round=$1 side=$2 bin flag flag_note events total cpu eps ecpu
  if [ "$side" = ours ]; then bin=$sb; else bin=$ref; fi
  dry_flags "$side"
  bench_timed_run "$work/out" "$work/cpu" "$bin" "$case_test" "${flag[@]}" \
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
  printf '  round %-2s %-4s %8s events/s %8s events/CPU-s  (%s events, %s s, %s CPU-s%s)\n' \
      "$round" "$side" "$(bench_si "$eps")" "$(bench_si "$ecpu")" "$events" "$total" "$cpu" "$flag_note"
}

run_dry() {
  for case_test in oltp_read_only oltp_point_select; do
    for case_threads in 1 2; do
      ours_a=() ours_b=() ref_a=() ref_b=()
      printf '\n== dry run: %s threads=%s%s ==\n' "$case_test" "$case_threads" "$dry_title_note"
      bench_alternate "$rounds" dry_once
      dry_result "$(bench_median "${ours_a[@]}")" "$(bench_median "${ref_a[@]}")" \
                 "$(bench_median "${ours_b[@]}")" "$(bench_median "${ref_b[@]}")"
    done
  done
}

# ---------------------------------------------------------------------------------------------
# The server

load_table() {   # load_table: 1 table x $rows rows through the connection options conn
  bench_log "loading 1 table x $rows rows"
  "$sb" oltp_read_only "${conn[@]}" --threads=1 prepare >"$work/prepare.out" 2>&1 || {
    cat "$work/prepare.out" >&2
    bench_die "prepare failed"
  }
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
  local threads
  IFS=, read -r -a threads <<<"$thread_list"
  for case_test in oltp_point_select oltp_read_only; do
    for case_threads in "${threads[@]}"; do
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

# count_syscalls SIDE BIN TEST EVENTS: prints "side name per-query" lines, "all" first
count_syscalls() {
  local side=$1 bin=$2 test=$3 events=$4 queries
  if perf_works; then
    local ev=raw_syscalls:sys_enter name
    for name in $syscall_names; do
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
    awk -v q="$queries" -v side="$side" -v note="$strace_note" '
      $NF == "total" { printf "  %-4s %-16s %8.2f per query%s\n", side, "all", $(NF-2) / q, note; next }
      $1 ~ /^[0-9.]+$/ && NF >= 5 { if ($4 / q >= 0.01) printf "  %-4s %-16s %8.2f per query\n", side, $NF, $4 / q }' \
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

# ---------------------------------------------------------------------------------------------

client_main() {
  printf '%s: ours %s vs reference %s; %s CPUs; load average at start: %s\n' \
      "$(basename "$0" .sh)" "$sb" "$ref" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
  case $part in
    dry) run_dry ;;
    server) run_server ;;
    syscalls) run_syscalls ;;
    all) run_dry; run_syscalls; run_server ;;
  esac

  printf '\nload average at end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
  printf 'Summary (medians of %s alternating rounds; quote only these ratios, measured in this run):\n' "$rounds"
  printf '%s\n' "${summaries[@]}"
}
