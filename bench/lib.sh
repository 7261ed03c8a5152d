# shellcheck shell=bash
# bench/lib.sh: shared helpers for the side-by-side bench scripts; source it, do not run it.
#
# Every bench script compares our binary with a reference on a noisy 2-core machine, so all of
# them need the same few things. Source this file from a script that uses `set -euo pipefail`:
#
#   . "$(dirname "$0")/lib.sh"
#
# Messages
#   bench_log MSG...               print "<script>: MSG" on stderr
#   bench_die MSG...               bench_log, then exit 1
#
# Command line
#   bench_options SPEC "$@"        set the script's variables from its arguments. SPEC is a
#                                  list of NAME=VAR (--NAME VALUE or --NAME=VALUE sets VAR) and
#                                  NAME:VAR=VALUE (the switch --NAME sets VAR to VALUE); -h and
#                                  --help print the script's header comment, anything else is
#                                  refused with the header on stderr (exit 2)
#   bench_usage STATUS             print the header comment (line 2 up to `set -euo`), exit
#
# Setup
#   bench_need_debs PKG...         install the Debian packages among PKG that are not installed
#                                  (apt-get, with sudo when not root; apt-get update only if the
#                                  first try fails). Safe to call again: installs only what lacks.
#   bench_need_time                make sure /usr/bin/time (Debian package `time`) is there
#   bench_check_pair OURS REF      refuse (exit 1) unless OURS and REF are executable files and
#                                  OURS is not the reference itself (same resolved path or the
#                                  same bytes)
#
# Measuring
#   bench_timed_run OUT CPU CMD... run CMD with stdout+stderr into file OUT and its CPU time into
#                                  file CPU (GNU time: "user sys" seconds); returns CMD's status
#   bench_cpu_seconds CPU          print user+sys seconds from a file written by bench_timed_run
#   bench_alternate ROUNDS FN      call `FN ROUND SIDE` for ROUND 1..ROUNDS and SIDE "ours"/"ref",
#                                  alternating the order: ours ref, ref ours, ours ref, ... so
#                                  that a slow phase of the machine hits both sides alike
#   bench_rotate ROUNDS FN SIDE... the same for any number of sides: every SIDE once per round,
#                                  each round starting one side later (a b c, b c a, c a b, ...)
#   bench_sysbench_field OUT NAME  print a number from a sysbench report, NAME being
#                                  "events" (total number of events) or "time" (total time, s)
#
# Arithmetic and formatting (numbers are plain decimals; awk does the maths)
#   bench_median NUM...            print the median (mean of the middle two for an even count)
#   bench_div A B                  print A / B (full precision; "nan" when B is 0)
#   bench_ratio A B                print A / B as a ratio: "3.91x"
#   bench_si NUM                   print NUM with a K/M/G suffix and one decimal: "34.5M"
#   bench_at_least A B             succeed when A >= B (both numbers)
#
# Rules the helpers follow, and that scripts using them should too: never assert on a timing
# (a bench prints, it does not fail on a slow figure), and quote results as ratios of ours to
# the reference measured in the same run, never as absolute figures or across runs.

export LC_ALL=C

bench_log() { printf '%s: %s\n' "$(basename "$0")" "$*" >&2; }
bench_die() { bench_log "$@"; exit 1; }

bench_usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  exit "${1:-0}"
}

bench_options() {
  local spec=$1 arg name value given entry var
  shift
  while [ $# -gt 0 ]; do
    arg=$1; shift
    case $arg in
      -h | --help) bench_usage 0 ;;
      --*=*) name=${arg%%=*}; name=${name#--}; value=${arg#*=}; given=1 ;;
      --*) name=${arg#--}; given=0 ;;
      *) bench_log "unknown argument '$arg'"; bench_usage 2 >&2 ;;
    esac
    var=""
    for entry in $spec; do
      case $entry in
        "$name="*)
          var=${entry#*=}
          if [ "$given" = 0 ]; then
            [ $# -ge 1 ] || bench_die "--$name needs a value"
            value=$1; shift
          fi ;;
        "$name:"*)
          [ "$given" = 0 ] || bench_die "--$name takes no value"
          entry=${entry#*:}; var=${entry%%=*}; value=${entry#*=} ;;
        *) continue ;;
      esac
      break
    done
    [ -n "$var" ] || { bench_log "unknown argument '$arg'"; bench_usage 2 >&2; }
    printf -v "$var" '%s' "$value"
  done
}

bench_need_debs() {
  local missing=() p sudo=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" = 0 ] || sudo="sudo"
  bench_log "installing Debian packages: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null 2>&1 || {
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
  } || bench_die "could not install ${missing[*]} with apt-get"
}

bench_need_time() {
  [ -x /usr/bin/time ] || bench_need_debs time
  [ -x /usr/bin/time ] || bench_die "/usr/bin/time is still missing after installing 'time'"
}

bench_check_pair() {
  local ours=$1 ref=$2
  { [ -f "$ours" ] && [ -x "$ours" ]; } ||
    bench_die "our binary '$ours' is missing or not executable (build it: make -j2, or bash scripts/setup.sh)"
  { [ -f "$ref" ] && [ -x "$ref" ]; } ||
    bench_die "reference binary '$ref' is missing or not executable (apt-get install sysbench, or pass --ref PATH)"
  if [ "$(readlink -f "$ours")" = "$(readlink -f "$ref")" ] || cmp -s "$ours" "$ref"; then
    bench_die "'$ours' is the reference binary '$ref' itself: comparing it with itself measures nothing"
  fi
}

bench_timed_run() {
  local out=$1 cpu=$2
  shift 2
  /usr/bin/time -o "$cpu" -f "%U %S" "$@" >"$out" 2>&1
}

bench_cpu_seconds() {
  # GNU time prints "Command exited with non-zero status N" above the figures on failure:
  # the figures are always the last line.
  tail -n 1 "$1" | awk 'NF == 2 { printf "%.2f\n", $1 + $2; ok = 1 } END { exit !ok }' ||
    bench_die "no CPU time in $1"
}

bench_alternate() {
  local rounds=$1 fn=$2 round
  for ((round = 1; round <= rounds; round++)); do
    if ((round % 2)); then
      "$fn" "$round" ours
      "$fn" "$round" ref
    else
      "$fn" "$round" ref
      "$fn" "$round" ours
    fi
  done
}

bench_rotate() {
  local rounds=$1 fn=$2 round i
  shift 2
  local sides=("$@")
  for ((round = 1; round <= rounds; round++)); do
    for ((i = 0; i < ${#sides[@]}; i++)); do
      "$fn" "$round" "${sides[$(((round - 1 + i) % ${#sides[@]}))]}"
    done
  done
}

bench_sysbench_field() {
  local out=$1 name=$2 pattern
  case $name in
    events) pattern='total number of events:' ;;
    time) pattern='total time:' ;;
    *) bench_die "bench_sysbench_field: unknown field '$name' (events or time)" ;;
  esac
  awk -v p="$pattern" 'index($0, p) { v = $NF; sub(/s$/, "", v); print v; found = 1; exit }
                       END { exit !found }' "$out" ||
    bench_die "no '$pattern' line in sysbench output $out"
}

bench_median() {
  [ $# -gt 0 ] || bench_die "bench_median: no numbers"
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
    END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.6g\n", m }'
}

bench_div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "nan"; else printf "%.6g\n", a / b }'; }

bench_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2fx\n", a / b }'; }

bench_si() {
  awk -v n="$1" 'BEGIN {
    a = n < 0 ? -n : n
    if (a >= 1e9) printf "%.1fG\n", n / 1e9
    else if (a >= 1e6) printf "%.1fM\n", n / 1e6
    else if (a >= 1e3) printf "%.1fK\n", n / 1e3
    else printf "%.1f\n", n }'
}

bench_at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }
