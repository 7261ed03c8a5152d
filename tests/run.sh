#!/usr/bin/env bash
# run.sh: runs the test suite and prints one summary line "N passed, N failed[, N skipped]
# [, N todo]".
#
#   tests/run.sh [--sb PATH] [--unit-dir DIR] [--only unit|cli|compat|faults|live] [-j N]
#                [--also PATH:KIND[,KIND...]]... [PATTERN...]
#
# With patterns, only the tests whose path contains one of them run. Test files run N at a
# time (-j N, or $TEST_JOBS; default: the number of CPUs plus one, as most of a test's time is
# spent waiting for servers and for time-limited runs); the live and compat files, the longest,
# start first. Results are printed in start order, each file's line when it has finished.
# --also runs the files of the given kinds a second time, in the same pool, with the binary
# at PATH (scripts/test.sh: the sanitizer binary on cli and faults); their lines read
# "sysbench-asan:cli/runner".
#
# Every test prints TAP ("ok N - ...", "not ok N - ...", "ok N # SKIP why") and ends with its
# plan line "1..N", N being the number of checks it printed (tap.sh's done_testing, tap.h's
# tap_done). A test without it, or with another N, stopped half-way (an `exit`, a crash) and
# counts as one failure; so does a test program that exits non-zero without reporting a
# failure. "not ok N - ... # TODO why" is a known failure: counted as todo, not failed, and the
# summary says "N todo" (an "ok N - ... # TODO why" passes and is listed, to have its todo
# removed). The unit tests are
# the compiled tests/unit/test_* programs; the others are tests/{cli,compat,faults,live}/*.t
# (bash; faults: crashes, signals, full disks and bad directories, on private mounts).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
sb="$src/src/sysbench"
unit_dir="$src/tests/unit"
only=""
jobs=${TEST_JOBS:-$(( $(nproc 2>/dev/null || echo 1) + 1 ))}
timeout_s=${TEST_TIMEOUT:-900}
patterns=() also=()
while [ $# -gt 0 ]; do
  case $1 in
    --sb) sb=$2; shift 2 ;;
    --unit-dir) unit_dir=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --also) also+=("$2"); shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) patterns+=("$1"); shift ;;
  esac
done

case $sb in /*) ;; *) sb="$PWD/$sb" ;; esac
if [ ! -x "$sb" ]; then
  echo "run.sh: no sysbench binary at $sb (build first)" >&2
  exit 2
fi
if [ "$(readlink -f "$sb")" = "$(readlink -f /usr/bin/sysbench 2>/dev/null)" ]; then
  echo "run.sh: refusing to test the reference sysbench ($sb)" >&2
  exit 2
fi
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: -j wants a number of jobs >= 1, not '$jobs'" >&2; exit 2; }
export SB="$sb" SRCDIR="$src"

selected() {   # selected PATH: true when no pattern was given or PATH contains one
  [ ${#patterns[@]} -eq 0 ] && return 0
  local p
  for p in "${patterns[@]}"; do
    case $1 in *"$p"*) return 0 ;; esac
  done
  return 1
}

passed=0 failed=0 skipped=0 todos=0
failed_names=()
log_dir=$(mktemp -d "${TMPDIR:-/tmp}/sbrun.XXXXXX")

# --also PATH:KINDS: the binaries and the kinds each runs
also_sb=() also_kinds=()
for spec in "${also[@]}"; do
  path=${spec%%:*} kinds=${spec#*:}
  case $path in /*) ;; *) path="$PWD/$path" ;; esac
  if [ "$kinds" = "$spec" ] || [ ! -x "$path" ]; then
    echo "run.sh: --also wants PATH:KIND[,KIND...] with an executable PATH, not '$spec'" >&2
    exit 2
  fi
  also_sb+=("$path"); also_kinds+=(",$kinds,")
done

# The test files, in the order they start: names[i] is what the summary shows, commands[i]
# what runs (a unit test program, or a .t file for bash), binaries[i] the $SB it tests.
names=() commands=() binaries=()
for kind in live compat faults cli; do
  [ -n "$only" ] && [ "$only" != "$kind" ] && continue
  for t in "$src/tests/$kind"/*.t; do
    [ -f "$t" ] || continue
    selected "$t" || continue
    names+=("$kind/$(basename "$t" .t)"); commands+=("$t"); binaries+=("$sb")
  done
  for a in "${!also_sb[@]}"; do
    case ${also_kinds[$a]} in *",$kind,"*) ;; *) continue ;; esac
    for t in "$src/tests/$kind"/*.t; do
      [ -f "$t" ] || continue
      selected "$t" || continue
      names+=("$(basename "${also_sb[$a]}"):$kind/$(basename "$t" .t)")
      commands+=("$t"); binaries+=("${also_sb[$a]}")
    done
  done
done
if [ -z "$only" ] || [ "$only" = unit ]; then
  for t in "$unit_dir"/test_*; do
    [ -x "$t" ] || continue
    case $t in *.c|*.o) continue ;; esac
    selected "$t" || continue
    names+=("unit/$(basename "$t")"); commands+=("$t"); binaries+=("$sb")
  done
fi

# Runs test i in the background; its output goes to $log_dir/i.log, "status seconds" to i.done.
# The test gets SIGINT and SIGQUIT back: a background job of a non-interactive shell has them
# ignored, and the programs it starts would inherit that (sysbench keeps an ignored SIGINT
# ignored, as 1.0.20 does, so a test's Ctrl-C would never arrive).
start_one() {
  local i=$1 cmd=${commands[$1]}
  (
    export SB=${binaries[$i]}
    start=$(date +%s)
    # a test file that hangs is ended after $TEST_TIMEOUT seconds (default 900) and fails
    if [[ $cmd == *.t ]]; then
      env --default-signal=INT,QUIT timeout -k 10 "$timeout_s" bash "$cmd" >"$log_dir/$i.log" 2>&1
    else
      env --default-signal=INT,QUIT timeout -k 10 "$timeout_s" "$cmd" >"$log_dir/$i.log" 2>&1
    fi
    status=$?
    [ "$status" = 124 ] && echo "not ok - ended after $timeout_s s (TEST_TIMEOUT): a hang" >>"$log_dir/$i.log"
    (exit "$status")
    echo "$? $(( $(date +%s) - start ))" >"$log_dir/$i.tmp"
    mv "$log_dir/$i.tmp" "$log_dir/$i.done"
  ) &
}

# Prints the summary line of finished test i (and its failures, skips and todos) and adds its
# counts.
report_one() {
  local i=$1 name=${names[$1]} log="$log_dir/$1.log" status secs n p f s t plan
  read -r status secs <"$log_dir/$i.done"
  n=$(grep -cE '^(not )?ok [0-9]+( |$)' "$log")
  s=$(grep -cE '^ok [0-9]+ # SKIP' "$log")
  t=$(grep -cE '^not ok [0-9]+ .*# TODO( |$)' "$log")
  f=$(( $(grep -cE '^not ok [0-9]+( |$)' "$log") - t ))
  p=$((n - f - t - s))
  plan=$(grep -E '^1\.\.[0-9]+$' "$log")
  if [ "$plan" != "1..$n" ]; then
    f=$((f + 1))
    if [ -z "$plan" ]; then
      echo "not ok - $name stopped after $n checks without its plan line 1..N (exit status $status): an exit or a crash before done_testing" >>"$log"
    else
      echo "not ok - $name printed $n checks, but its plan says $(echo $plan)" >>"$log"
    fi
  elif [ "$status" != 0 ] && [ "$f" = 0 ]; then
    f=1
    echo "not ok - $name exited with status $status without reporting a failure" >>"$log"
  fi
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s)); todos=$((todos + t))
  printf '%-44s %4d passed %3d failed %3d skipped %4ss' "$name" "$p" "$f" "$s" "$secs"
  [ "$t" = 0 ] && echo || echo " ($t todo)"
  if [ "$f" != 0 ]; then
    failed_names+=("$name")
    # each failure with up to 8 lines after it (its diagnostics); a todo is no failure
    awk '/^not ok/ && !/^not ok [0-9]+ .*# TODO( |$)/ { left = 9 } left > 0 { print; left-- }' "$log" |
      sed 's/^/    /' | head -60
  fi
  grep -E '^ok [0-9]+ # SKIP' "$log" | sed 's/^/    /' | head -10
  grep -E '^not ok [0-9]+ .*# TODO( |$)' "$log" | sed 's/^/    /' | head -10
  grep -E '^ok [0-9]+ .*# TODO( |$)' "$log" | sed 's/^/    /; s/$/ (passes now: remove its todo)/' | head -10
}

next_start=0 next_report=0 running=0
while [ "$next_report" -lt ${#names[@]} ]; do
  while [ "$running" -lt "$jobs" ] && [ "$next_start" -lt ${#names[@]} ]; do
    start_one "$next_start"
    next_start=$((next_start + 1)); running=$((running + 1))
  done
  if [ -f "$log_dir/$next_report.done" ]; then
    report_one "$next_report"
    next_report=$((next_report + 1))
    continue
  fi
  # a finished job frees a slot; its report waits for the ones started before it
  if wait -n 2>/dev/null; then :; fi
  running=0
  for ((i = next_report; i < next_start; i++)); do
    [ -f "$log_dir/$i.done" ] || running=$((running + 1))
  done
done
wait

rm -rf "$log_dir"
[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]}"
summary="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && summary+=", $skipped skipped"
[ "$todos" -gt 0 ] && summary+=", $todos todo"
echo "$summary"
[ "$failed" = 0 ]
