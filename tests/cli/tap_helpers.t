#!/usr/bin/env bash
# tap_helpers.t: the checks the other tests are made of can fail. A missing field or line must
# give "not ok", never a comparison that passes on nothing.
. "$(dirname "$0")/../lib/tap.sh"

inner() {   # inner COMMAND...: runs one check in a subshell of its own, prints its TAP line
  ( tap_n=0; tap_failed=0; "$@" ) 2>&1
}

like "$(inner num_cmp 1 "<" 2 "x")" "^ok 1 - x" "num_cmp: 1 < 2 passes"
like "$(inner num_cmp 2 "<" 1 "x")" "^not ok 1 - x" "num_cmp: 2 < 1 fails"
like "$(inner num_cmp "" "<" 2 "x")" "^not ok 1 - x" "num_cmp: a missing left side fails"
like "$(inner num_cmp 1 "<" "" "x")" "^not ok 1 - x" "num_cmp: a missing right side fails"
like "$(inner num_cmp "" "==" "" "x")" "^not ok 1 - x" "num_cmp: two missing sides are not equal"
like "$(inner num_cmp abc ">=" 0 "x")" "^not ok 1 - x" "num_cmp: a word is no number"
like "$(inner num_cmp 1.5e3 ">" -2 "x")" "^ok 1 - x" "num_cmp: exponents and signs are numbers"

text=$(printf 'first\nsecond\n')
is "$(line_of "$text" "^second$")" 2 "line_of: the number of the matching line"
is "$(line_of "$text" "^third$")" "" "line_of: nothing for a line that is not there"
like "$(inner num_cmp "$(line_of "$text" "^third$")" "<" "$(line_of "$text" "^second$")" "x")" \
     "^not ok 1 - x" "an order check on a missing line fails"

like "$(inner is "" "0" "x")" "^not ok 1 - x" "is: an empty value is not 0"
like "$(inner like "" "[0-9]" "x")" "^not ok 1 - x" "like: empty text matches no number"
like "$(inner status_ok 1 "x")" "^not ok 1 - x" "status_ok takes an exit status: 1 fails"
like "$(inner status_ok 0 "x")" "^ok 1 - x" "... and 0 passes"
like "$(inner fail "x" "why")" "^not ok 1 - x
#   why" "fail: a failing check with its diagnostic"
like "$(type ok 2>&1)" "not found" "there is no shell ok: the C tests' ok(cond) passes on true, status_ok on 0"

# todo: the next check is a known failure; it does not count as failed, and only it
like "$( (tap_n=0; tap_failed=0; todo "fixed later"; is 1 2 "x"; is 1 2 "y"; echo "failed=$tap_failed") 2>&1)" \
     "^not ok 1 - x # TODO fixed later
#   got:      '1'
#   expected: '2'
not ok 2 - y
#   got:      '1'
#   expected: '2'
failed=1" "todo: the known failure is marked TODO WHY, not counted as failed; the check after it is plain again"
like "$( (tap_n=0; tap_failed=0; todo "fixed later"; is 1 1 "x") 2>&1)" "^ok 1 - x # TODO fixed later$" \
     "todo: a known failure that passes says so"

# A pattern of several lines is a run of consecutive lines, not lines as alternatives.
lines=$(printf 'Head:\n    a: 1\n\n    b: 2\nNAME\nNAMES\n')
like "$(inner like "$lines" "Head:
    a: [0-9]+

    b: [0-9]+" "x")" "^ok 1 - x" "like: lines in order, with the empty line between, match"
like "$(inner like "$lines" "Head:
    b: [0-9]+" "x")" "^not ok 1 - x" "like: lines that do not follow one another do not match"
like "$(inner like "$lines" "    a: 1
    b: 2" "x")" "^not ok 1 - x" "like: an empty line of the text is not skipped"
like "$(inner like "$lines" "
NAMES
" "x")" "^ok 1 - x" "like: a first and a last empty line make a whole line: NAMES"
like "$(inner like "$lines" "
NAM
" "x")" "^not ok 1 - x" "... so NAM is no whole line"
like "$(inner like "nothing" "
NAME
" "x")" "^not ok 1 - x" "like: a pattern with empty lines does not match any text"
like "$(inner like "$lines" "" "x")" "^not ok 1 - x" "like: an empty pattern, which any text matches, fails"
like "$(inner like "$lines" "z*" "x")" "^not ok 1 - x" "like: so does one that matches any line (z*)"
like "$(inner like "$lines" "^$" "x")" "^ok 1 - x" "like: ^\$ is an empty line, not any text"
like "$(inner unlike "$lines" "Head:
    a: 1" "x")" "^not ok 1 - x" "unlike: consecutive lines that are there fail it"
is "$(field "total: 42 events" "total:")" 42 "field: the number after the label"
is "$(field "nothing here" "total:" | grep -c 'not found')" 1 "field: says so when the label is missing"
like "$(inner is "$(field "a" "total:")" "$(field "b" "total:")" "x")" "^not ok 1 - x" \
     "is: two fields that were not found are not equal"
like "$(inner is "1/$(field "a" "total:")" "1/$(field "b" "total:")" "x")" "^not ok 1 - x" \
     "is: ... nor are two texts holding them"
out="a=1"
like "$(inner is "$(optval b)" "" "x")" "^not ok 1 - x" "optval: an option the dump lacks is not ''"

done_testing
