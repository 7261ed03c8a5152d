#!/usr/bin/env bash
# include_graph.t: the modules of src/ depend on each other without a cycle (a module is a
# file pair X.c + X.h; X depends on Y when X.c or X.h includes Y.h). A cycle means two files
# that cannot be understood, tested or replaced one without the other.
. "$(dirname "$0")/../lib/tap.sh"

out=$(python3 "$SRCDIR/tests/lib/include_cycles.py" "$SRCDIR/src")
status=$?
like "$out" "^[0-9]+ modules, [0-9]+ dependencies, 0 cycles$" "src/ has no include cycle"
is "$status" 0 "... and the checker says so by its exit code"

# the checker finds a cycle when there is one
mkdir -p "$TEST_TMP/src"
printf '#include "b.h"\n' > "$TEST_TMP/src/a.h"
printf '#include "a.h"\n' > "$TEST_TMP/src/b.c"
: > "$TEST_TMP/src/b.h"
out=$(python3 "$SRCDIR/tests/lib/include_cycles.py" "$TEST_TMP/src")
is "$?" 1 "a made-up cycle a.h -> b.h, b.c -> a.h is found"
like "$out" "^include cycle: a <-> b$" "... and named"

done_testing
