#!/usr/bin/env bash
# run.sh: runs the test suite and prints one summary line "N passed, N failed[, N skipped]".
#
#   tests/run.sh [--sb PATH] [--unit-dir DIR] [--only unit|cli|compat|live|faults] [PATTERN...]
#
# With patterns, only the tests whose path contains one of them run.
#
# Every test prints TAP ("ok N - ...", "not ok N - ...", "ok N # SKIP why"); a test program
# that exits non-zero without reporting a failure counts as one failure. The unit tests are
# the compiled tests/unit/test_* programs; cli and live tests are tests/{cli,compat,live}/*.t (bash).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
sb="$src/src/sysbench"
unit_dir="$src/tests/unit"
only=""
patterns=()
while [ $# -gt 0 ]; do
  case $1 in
    --sb) sb=$2; shift 2 ;;
    --unit-dir) unit_dir=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
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
export SB="$sb" SRCDIR="$src"

selected() {   # selected PATH: true when no pattern was given or PATH contains one
  [ ${#patterns[@]} -eq 0 ] && return 0
  local p
  for p in "${patterns[@]}"; do
    case $1 in *"$p"*) return 0 ;; esac
  done
  return 1
}

passed=0 failed=0 skipped=0
failed_names=()
log_dir=$(mktemp -d "${TMPDIR:-/tmp}/sbrun.XXXXXX")

run_one() {   # run_one NAME COMMAND...
  local name=$1 log="$log_dir/$(echo "$1" | tr '/' '_').log"
  shift
  local start=$(date +%s)
  "$@" >"$log" 2>&1
  local status=$? secs=$(( $(date +%s) - start ))
  local p f s
  p=$(grep -cE '^ok [0-9]+( |$)' "$log" | tr -d ' ')
  s=$(grep -cE '^ok [0-9]+ # SKIP' "$log" | tr -d ' ')
  f=$(grep -cE '^not ok [0-9]+' "$log" | tr -d ' ')
  p=$((p - s))
  if [ "$status" != 0 ] && [ "$f" = 0 ]; then
    f=1
    echo "not ok - $name exited with status $status without reporting a failure" >>"$log"
  fi
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  printf '%-44s %4d passed %3d failed %3d skipped %4ss\n' "$name" "$p" "$f" "$s" "$secs"
  if [ "$f" != 0 ]; then
    failed_names+=("$name")
    grep -E -A8 '^not ok' "$log" | sed 's/^/    /' | head -60
  fi
  grep -E '^ok [0-9]+ # SKIP' "$log" | sed 's/^/    /' | head -10
}

if [ -z "$only" ] || [ "$only" = unit ]; then
  for t in "$unit_dir"/test_*; do
    [ -x "$t" ] || continue
    case $t in *.c|*.o) continue ;; esac
    selected "$t" || continue
    run_one "unit/$(basename "$t")" "$t"
  done
fi
for kind in cli compat live faults; do
  [ -n "$only" ] && [ "$only" != "$kind" ] && continue
  for t in "$src/tests/$kind"/*.t; do
    [ -f "$t" ] || continue
    selected "$t" || continue
    run_one "$kind/$(basename "$t" .t)" bash "$t"
  done
done

rm -rf "$log_dir"
[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]}"
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" = 0 ]
