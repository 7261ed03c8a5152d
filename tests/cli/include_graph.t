#!/usr/bin/env bash
# include_graph.t: the modules of src/ depend on each other without a cycle (a module is a
# file pair X.c + X.h; X depends on Y when X.c or X.h includes Y.h), and so do its folders (a
# folder depends on another when a file in it includes a header from the other). A cycle means
# two files, or two folders, that cannot be understood, tested or replaced one without the other.
. "$(dirname "$0")/../lib/tap.sh"

cycles() { python3 "$SRCDIR/tests/lib/include_cycles.py" "$@"; }

out=$(cycles "$SRCDIR/src")
status=$?
like "$out" "^[0-9]+ modules, [0-9]+ dependencies, 0 cycles$" "src/ has no include cycle"
is "$status" 0 "... and the checker says so by its exit code"

out=$(cycles --folders "$SRCDIR/src")
todo "runner <-> results (src <-> src/results): issue 24 makes results/ a leaf and moves the sweep beside the runner"
like "$out" "^[0-9]+ folders, [0-9]+ dependencies, 0 cycles$" "the folders of src/ have no include cycle"

# the checker finds a cycle when there is one
mkdir -p "$TEST_TMP/src"
printf '#include "b.h"\n' > "$TEST_TMP/src/a.h"
printf '#include "a.h"\n' > "$TEST_TMP/src/b.c"
: > "$TEST_TMP/src/b.h"
out=$(cycles "$TEST_TMP/src")
is "$?" 1 "a made-up cycle a.h -> b.h, b.c -> a.h is found"
like "$out" "^include cycle: a <-> b$" "... and named"

# ... and one between folders: each file of up/ and down/ is a module of its own, no module
# cycle, but up/ includes down/ and down/ includes up/
mkdir -p "$TEST_TMP/tree/src/up" "$TEST_TMP/tree/src/down" "$TEST_TMP/tree/src/leaf"
printf '#include "down/d1.h"\n#include "leaf/l.h"\n' > "$TEST_TMP/tree/src/up/u1.c"
: > "$TEST_TMP/tree/src/up/u2.h"
printf '#include "up/u2.h"\n' > "$TEST_TMP/tree/src/down/d2.c"
: > "$TEST_TMP/tree/src/down/d1.h"
: > "$TEST_TMP/tree/src/leaf/l.h"
printf '#include "leaf/l.h"\n' > "$TEST_TMP/tree/src/main.c"
out=$(cycles "$TEST_TMP/tree/src")
is "$?|$(printf '%s\n' "$out" | tail -1)" "0|6 modules, 4 dependencies, 0 cycles" \
   "made-up folders up/ <-> down/: no cycle between modules"
out=$(cycles --folders "$TEST_TMP/tree/src")
is "$?" 1 "... but --folders finds the one between the folders"
is "$out" "folder cycle: src/down <-> src/up
  src/down -> src/up (1): down/d2.c -> up/u2.h
  src/up -> src/down (1): up/u1.c -> down/d1.h
4 folders, 4 dependencies, 1 cycles" "... names it, with the includes that make it, and leaves src and leaf/ out of it"

done_testing
