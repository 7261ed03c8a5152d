#!/usr/bin/env bash
# harness.t: the differential harness itself can fail. A stand-in "reference" that prints
# something else, exits otherwise or differs only in what legitimately varies must give
# "not ok", "not ok" and "ok"; an unknown --allow id stops the file.
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/compat.sh"

fake_ref() {   # fake_ref BODY: a stand-in reference binary running BODY
  printf '#!/bin/sh\n%s\n' "$1" > "$TEST_TMP/fake_ref"
  chmod +x "$TEST_TMP/fake_ref"
}

inner() {   # inner BODY ARGS...: runs `same` against a fake reference, prints its TAP line
  fake_ref "$1"; shift
  ( REF_SB="$TEST_TMP/fake_ref"; tap_n=0; same "inner" -- "$@" ) 2>&1
}

real=$("$SB" --version --compat=1.0.20)
got=$(inner "echo '$real'" --version)
like "$got" "^ok 1 - same as 1.0.20: inner" "identical output passes"
like "$got" "^ok 2 - same as 1.0.20 with --compat=1.0.20: inner" \
     "... in the exact-output mode too (a second TAP line)"

# The second run of ours is in the exact-output mode: a stand-in for ours shows its setting.
printf '#!/bin/sh\necho "mode=${SYSBENCH_COMPAT:-as is}"\n' > "$TEST_TMP/fake_ours"
chmod +x "$TEST_TMP/fake_ours"
got=$(SB="$TEST_TMP/fake_ours" inner "echo 'mode=as is'" --version)
like "$got" "^ok 1 - same as 1.0.20: inner" "ours runs as it is first ..."
like "$got" "^not ok 2 - same as 1.0.20 with --compat=1.0.20: inner" \
     "... then with SYSBENCH_COMPAT=1.0.20"
like "$got" "SYSBENCH_COMPAT=1.0.20 sysbench --version" "... which the diagnostics say"

got=$(inner "echo 'sysbench 1.0.19'" --version)
like "$got" "^not ok 1 " "different stdout fails"
like "$got" "stdout differs" "... and the diagnostics say which stream"

got=$(inner "echo '$real'; exit 3" --version)
like "$got" "^not ok 1 " "a different exit code fails"
like "$got" "exit code: 1.0.20 3, ours 0" "... and the diagnostics name both codes"

got=$(inner "echo '$real' >&2" --version)
like "$got" "^not ok 1 " "the same text on the other stream fails"

got=$(inner "printf '    total time:                          9.9999s\n'" cpu --events=1 run)
unlike "$got" "^ok" "a whole report against one line fails"


out=$(printf '    total time:                          1.0040s\n         95th percentile:                        0.30\n' |
      compat_normalise 0)
is "$out" "$(printf '    total time: N\n         95th percentile: N')" \
   "times and latencies are masked, labels kept"
out=$(printf '    transactions:                        1000   (353.72 per sec.)\n' | compat_normalise 0)
is "$out" "    transactions:                        1000   (N per sec.)" \
   "counts are kept, rates masked"
out=$(printf '    transactions:                        1000   (353.72 per sec.)\n' | compat_normalise 1)
like "$out" "transactions: N" "a timed case masks counts too"

got=$( ( same "bad" --allow no-such-difference -- --version ) 2>&1 )
like "$got" "does not declare" "an --allow of an undeclared difference is refused"

got=$(printf 'FATAL: x\nHINT: do y\n' | compat_apply_rules ours "")
is "$got" "FATAL: x" "the global hint rule drops our HINT line"
got=$(printf 'FATAL: x\nHINT: do y\n' | compat_apply_rules ref "")
is "$got" "$(printf 'FATAL: x\nHINT: do y')" "... but only from our side"
got=$(printf 'FATAL: x\nHINT: do y\n' | compat_apply_rules ours "" 1)
is "$got" "$(printf 'FATAL: x\nHINT: do y')" \
   "the exact-mode comparison applies no rule of an addition (a HINT there fails)"
got=$(printf 'Creating table '"'"'sbtest2'"'"'...Creating table '"'"'sbtest1'"'"'...\n' |
      compat_apply_rules ref "" 1)
is "$got" "$(printf "Creating table 'sbtest2'...\nCreating table 'sbtest1'...")" \
   "... but those of other differences (1.0.20's glued lines)"

done_testing
