# signals.sh: sending SIGINT and SIGTERM to a background sysbench the way a terminal, a
# supervisor or coreutils' `timeout` does, without guessing at timing (sourced after tap.sh).
# The policy under test is src/signals.h: the first signal stops gracefully, copies within a
# second of it are the same request, a later one ends the process at once.
#
#   signal_taken PID SIG        waits until SIG is no longer pending for process PID: the
#                               process has taken it (its handler ran) or has ended. False when
#                               it is still pending after 20 s.
#   signal_twice close|late SIG1 TARGET1 WATCH SIG2 TARGET2
#                               sends SIG1 to TARGET1 (a pid, or -PGID for a process group),
#                               waits until process WATCH took it, then sends SIG2 to TARGET2:
#                               close: at once, a few milliseconds after the first, as `timeout`
#                               (the child, then its group) or a terminal plus a supervisor
#                               send, and never merged with the first into one pending signal
#                               as two signals sent at once can be; late: SIGNAL_LATE_S seconds
#                               later, clearly after the policy's one-second window.
#   wait_for_line FILE PID REGEX  waits (at most 120 s) until FILE, the output of background
#                               process PID, matches REGEX or PID has ended; false when it
#                               never matched.
#   start_in_group OUT DIR CMD...  CMD in the background in a process group (and session) of
#                               its own, run from DIR, output in OUT; $bg_pid is its pid, which
#                               is also the group's id. SIGINT is not ignored (a background job
#                               of a script would ignore it).

SIGNAL_LATE_S=2.5

_signal_pending() {   # _signal_pending PID NUMBER: is signal NUMBER pending for the process?
  local mask
  mask=$(sed -n 's/^ShdPnd:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
  [ -n "$mask" ] && (( (16#$mask >> ($2 - 1)) & 1 ))
}

signal_taken() {
  local pid=$1 n i
  n=$(kill -l "$2")
  for ((i = 0; i < 400; i++)); do
    _signal_pending "$pid" "$n" || return 0
    sleep 0.05
  done
  return 1
}

signal_twice() {
  local gap=$1 sig1=$2 target1=$3 watch=$4 sig2=$5 target2=$6
  kill -"$sig1" -- "$target1" 2>/dev/null
  signal_taken "$watch" "$sig1"
  [ "$gap" = late ] && sleep "$SIGNAL_LATE_S"
  kill -"$sig2" -- "$target2" 2>/dev/null
}

wait_for_line() {
  local i
  for ((i = 0; i < 2400; i++)); do
    grep -Eq -- "$3" "$1" && return 0
    kill -0 "$2" 2>/dev/null || break
    sleep 0.05
  done
  grep -Eq -- "$3" "$1"
}

start_in_group() {
  local out=$1 dir=$2
  shift 2
  : >"$out"
  # not a group leader here (no job control), so setsid makes the group in this very process
  (cd "$dir" && exec setsid env --default-signal=INT "$@") >>"$out" 2>&1 &
  bg_pid=$!
}
