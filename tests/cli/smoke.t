#!/usr/bin/env bash
# smoke.t: the binary under test is ours, prints the 1.0.20 banner, and runs a Lua and a
# compiled-in test end to end.
. "$(dirname "$0")/../lib/tap.sh"

[ "$(readlink -f "$SB")" != "$(readlink -f "$REF_SB" 2>/dev/null)" ]
status_ok $? "the binary under test is not the reference sysbench"

sb --version
is "$(printf '%s\n' "$out" | head -n 1)" "sysbench 1.0.20" "--version prints the 1.0.20 version line first"

sb --help
like "$out" "--warmup-time=N" "--help lists --warmup-time, which the reference 1.0.20 lacks"

printf 'function event() end\n' > "$TEST_TMP/empty.lua"
sb empty.lua run --events=1000 --time=0
is "$rc" 0 "an empty-event Lua script runs"
like "$out" "total number of events: +1000$" "exactly --events=1000 events ran"

sb cpu run --events=20 --time=0 --threads=2
is "$rc" 0 "cpu run succeeds"
like "$out" "events per second:" "cpu prints its CPU speed block"

done_testing
