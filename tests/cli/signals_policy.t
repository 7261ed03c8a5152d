#!/usr/bin/env bash
# signals_policy.t: the one SIGINT/SIGTERM policy (src/signals.h) in `run` and in thread
# sweeps, whether the signal goes to the pid or to the process group (prepare: tests/faults/
# mysql.t and rocksdb.t, tests/live/prepare_pgsql.t):
#   - SIGTERM to the process group of a sweep (the step and the sweep both get it, and the
#     sweep passes it on): the running step reports, the summary and the JSON/SVG/HTML files
#     are written, exit 143 -- five times over, as this failed now and then, and once with the
#     second copy forced to arrive after the step took the first;
#   - SIGINT to the sweep's pid alone (a supervisor): it reaches the running step, which
#     reports; no further step; exit 130; in the second step, the summary and the files hold
#     the first step and the interrupted second;
#   - two signals close together (the pid then the group, as `timeout` sends; INT then TERM)
#     are one request: a run reports and exits with the first signal's code; a run whose
#     event hangs is not killed by the copy;
#   - a second signal clearly later (2.5 s, past the one-second window) ends a hung run or a
#     hung sweep, its step included, at once: no report, the process dies of the signal.
# Nothing waits on a guess: signals go out once the output shows the threads started, and a
# second one once /proc shows the first was taken (tests/lib/signals.sh).
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/signals.sh"

py() { python3 - "$@"; }

until_line() { wait_for_line "$bg_out" "$bg_pid" "$1"; }
finish() {   # waits for the background process: $rc, $out
  wait "$bg_pid"
  rc=$?
  out=$(cat "$bg_out")
}
start() {    # start CMD...: CMD in a process group of its own, from a fresh directory ($dir)
  dir=$(mktemp -d "$TEST_TMP/case.XXXXXX")
  bg_out="$dir/out"
  start_in_group "$bg_out" "$dir" "$@"
}
step_of() {  # the pid of the sweep's running step
  pgrep -P "$bg_pid" | head -1
}
runs_in() {  # runs_in FILE: (threads, exit_code) of each run in a result file
  py "$1" <<'PY'
import json, sys
try:
    print([(r["threads"], r["exit_code"]) for r in json.load(open(sys.argv[1]))["runs"]])
except Exception as e:
    print("unreadable: %s" % e)
PY
}

write hang.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
function event() ffi.C.usleep(30000000) end
LUA
# Events of 2 s: a stopped run still takes up to 2 s to end, so a copy of the signal sent
# right after the first surely finds it running (a cpu run may be gone before the copy comes).
write slow.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
function event() ffi.C.usleep(2000000) end
LUA

sweep=(cpu --cpu-max-prime=500 --threads=1,2 --time=20 --report-file=s.json run)
slow_sweep=("$TEST_TMP/slow.lua" --threads=1,2 --time=20 --report-file=s.json run)

# ---- SIGTERM to the process group of a sweep ----------------------------------------------------

# what a stopped sweep must leave: the step's report and the summary, all three files, and
# the interrupted step in the result file
sweep_left() {   # sweep_left CODE SIGNAL: "ok" or what is missing
  local what=""
  [ "$rc" = "$1" ] || what+=" exit $rc"
  printf '%s\n' "$out" | grep -q "^General statistics:$" || what+=" no-step-report"
  printf '%s\n' "$out" | grep -q "^WARNING: The run was interrupted by signal $2; " ||
    what+=" no-interrupted-line"
  printf '%s\n' "$out" | grep -q "^Thread sweep summary:$" || what+=" no-summary"
  printf '%s\n' "$out" | grep -q "Thread sweep: run 2 of 2" && what+=" a-second-step"
  local f
  for f in s.json s.svg s.html; do [ -s "$dir/$f" ] || what+=" no-$f"; done
  [ "$(runs_in "$dir/s.json")" = "[(1, $1)]" ] || what+=" runs:$(runs_in "$dir/s.json")"
  echo "${what:-ok}"
}

good=0 report=""
for try in 1 2 3 4 5; do
  start "$SB" "${sweep[@]}"
  until_line "^Threads started!"
  [ "$(ps -o pgid= -p "$bg_pid" | tr -d ' ')" = "$bg_pid" ] || report+=" (not a group of its own)"
  kill -TERM -- "-$bg_pid"
  finish
  left=$(sweep_left 143 15)
  [ "$left" = ok ] && good=$((good + 1)) || report+=" try $try:$left;"
done
is "$good$report" 5 "SIGTERM to a sweep's process group, 5 tries: each exits 143 after the step's report, the summary, s.json/svg/html with the interrupted step"

start "$SB" "${slow_sweep[@]}"
until_line "^Threads started!"
step=$(step_of)
signal_twice close TERM "-$bg_pid" "$step" TERM "$step"
finish
is "$(sweep_left 143 15)" ok \
   "SIGTERM to the group, then the sweep's copy after the step took the first: one request, the same files and report"

# ---- SIGINT to the sweep's pid (a supervisor) ---------------------------------------------------

start "$SB" "${sweep[@]}"
until_line "^Threads started!"
kill -INT "$bg_pid" 2>/dev/null
finish
is "$(sweep_left 130 2)" ok \
   "SIGINT to the sweep's pid alone reaches the running step: its report, no second step, the summary and files, exit 130"

# Interrupted in its second step: the summary and the files hold the first, complete, and the
# second, interrupted. Events of the second step take 5 s, so it is still in its first when the
# signal comes, and --time=1 ends the first step by itself.
write second_slow.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
function event() if sysbench.opt.threads == 2 then ffi.C.usleep(5000000) end end
LUA
start "$SB" "$TEST_TMP/second_slow.lua" --threads=1,2 --time=1 --report-file=s.json run
until_line "Thread sweep: run 2 of 2"
for ((i = 0; i < 1200; i++)); do      # the second step's threads started (at most 60 s)
  [ "$(grep -c "^Threads started!" "$bg_out")" = 2 ] && break
  sleep 0.05
done
kill -INT "$bg_pid" 2>/dev/null
finish
is "$rc|$(runs_in "$dir/s.json")|$(count "$out" "^ +[12] +[0-9.]+ +[0-9.]+ ")" "130|[(1, 0), (2, 130)]|2" \
   "SIGINT to the sweep's pid in its second step: exit 130, the summary and the result file hold the first step and the interrupted second"

# A terminal's Ctrl-C goes to the group; the sweep passes its copy on.
start "$SB" "${slow_sweep[@]}"
until_line "^Threads started!"
step=$(step_of)
signal_twice close INT "-$bg_pid" "$step" INT "$step"
finish
is "$(sweep_left 130 2)" ok "Ctrl-C to the group with the sweep's copy arriving after: the same, exit 130"

# ---- two signals close together in a run ------------------------------------------------------

run_cmd=("$TEST_TMP/slow.lua" --threads=2 --time=20 --report-file=r.json run)
for pair in "INT INT" "INT TERM" "TERM TERM"; do
  set -- $pair
  start "$SB" "${run_cmd[@]}"
  until_line "^Threads started!"
  signal_twice close "$1" "$bg_pid" "$bg_pid" "$2" "-$bg_pid"
  finish
  code=$((128 + $(kill -l "$1")))
  is "$rc|$(count "$out" "^General statistics:$")|$(count "$out" "^WARNING: The run was interrupted by signal $(kill -l "$1"); ")|$(runs_in "$dir/r.json")" \
     "$code|1|1|[(2, $code)]" \
     "SIG$1 to a run's pid, then SIG$2 to its group at once (as timeout sends): one request -- exit $code, the report, the line, the result file"
done

# A run whose event hangs: the copy does not kill it, a signal clearly later does.
start "$SB" "$TEST_TMP/hang.lua" --threads=2 --time=0 run
until_line "^Threads started!"
signal_twice close INT "$bg_pid" "$bg_pid" INT "-$bg_pid"
signal_taken "$bg_pid" INT
sleep 0.2
kill -0 "$bg_pid" 2>/dev/null
ok $? "a hung run gets SIGINT and a copy at once: still stopping gracefully, not killed"
sleep "$SIGNAL_LATE_S"
kill -INT "$bg_pid" 2>/dev/null
finish
is "$rc|$(count "$out" "^General statistics:$")" "130|0" \
   "... and a SIGINT clearly later ends it at once: it dies of SIGINT (130), no report"

# ---- a second signal clearly later in a sweep ---------------------------------------------------

start "$SB" "$TEST_TMP/hang.lua" --threads=1,2 --time=0 --report-file=s.json run
until_line "^Threads started!"
step=$(step_of)
signal_twice late INT "-$bg_pid" "$step" INT "-$bg_pid"
finish
is "$rc|$(count "$out" "^General statistics:$")|$(count "$out" "^Thread sweep summary:$")" "130|0|0" \
   "a hung sweep: Ctrl-C, then Ctrl-C clearly later ends it at once (130, no report)"
gone() {   # gone PID: the process has ended (a zombie nobody reaped yet counts as ended)
  local i
  for ((i = 0; i < 100; i++)); do
    grep -q '^State:[[:space:]]*[^Z]' "/proc/$1/status" 2>/dev/null || return 0
    sleep 0.05
  done
  return 1
}
gone "$step"
ok $? "... its running step too"

done_testing
