#!/usr/bin/env bash
# test_files.t: the tests can be trusted to have run. Every shell file of the tree parses
# (bash -n: a syntax error after an early `exit` is otherwise never seen); tests/run.sh counts
# a test file that stops before done_testing (a stray `exit`, a crash) as failed, and a todo
# (a known failure) as no failure; and no test calls a shell `ok`, which would mean the
# opposite of the C tests' ok(cond).
. "$(dirname "$0")/../lib/tap.sh"

# the shell files git tracks (every .t and .sh), or, outside a checkout, those in the tree
shell_files() {
  if git -C "$SRCDIR" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$SRCDIR" ls-files -- '*.t' '*.sh' | sed "s|^|$SRCDIR/|"
  else
    find "$SRCDIR/tests" "$SRCDIR/scripts" "$SRCDIR/bench" -name '*.t' -o -name '*.sh'
  fi
}

unparsable() {   # unparsable FILE...: "FILE: bash's complaint" for each that does not parse
  local f
  for f in "$@"; do
    [ -f "$f" ] || continue
    bash -n "$f" 2>&1 | head -1 | sed "s|^$f: ||; s|^|${f#"$SRCDIR"/}: |"
  done
}

mapfile -t files < <(shell_files)
num_cmp "$(printf '%s\n' "${files[@]}" | grep -c '\.t$')" ">=" 30 "the tracked test files are found"
is "$(unparsable "${files[@]}")" "" "every tracked .t and .sh file parses (bash -n)"

# ... a file that does not parse is named: a stray `fi` after an early exit, never reached
printf '. tap.sh\nis 1 1 "a"\ndone_testing\n  exit\nfi\n' > "$TEST_TMP/stray.t"
like "$(unparsable "$TEST_TMP/stray.t")" "stray\.t: line 5: syntax error near unexpected token .fi'" \
     "... and one with a stray fi after an exit is named with its line"

# ---- tests/run.sh on made-up test files ----------------------------------------------------
tree="$TEST_TMP/tree"
mkdir -p "$tree/tests/cli" "$tree/tests/lib"
cp "$SRCDIR/tests/run.sh" "$tree/tests/"
cp "$SRCDIR/tests/lib/tap.sh" "$tree/tests/lib/"
made_up() {   # made_up NAME BODY: a test file of the made-up tree
  printf '. "$(dirname "$0")/../lib/tap.sh"\n%s\n' "$2" > "$tree/tests/cli/$1.t"
}
made_up whole 'is 1 1 "one"; is 2 2 "two"; done_testing'
made_up stray_exit 'is 1 1 "one"; exit; is 2 2 "two"; done_testing'
made_up dies 'is 1 1 "one"; kill -KILL $$; done_testing'
made_up after_plan 'is 1 1 "one"; done_testing; is 2 2 "two"'
made_up known 'is 1 1 "one"; todo "fixed later"; is 1 2 "two"; done_testing'
made_up known_passes 'todo "fixed later"; is 1 1 "one"; done_testing'
harness() { out=$(bash "$tree/tests/run.sh" --sb "$SB" --only cli -j 2 "$@" 2>&1); rc=$?; }

harness
like "$out" "^cli/whole +2 passed +0 failed +0 skipped +[0-9]+s$" "run.sh: a whole file passes"
like "$out" "^cli/stray_exit +1 passed +1 failed" "run.sh: a file that exits before done_testing fails"
like "$out" "not ok - cli/stray_exit stopped after 1 checks without its plan line 1\.\.N \(exit status 0\)" \
     "... saying it stopped after its first check, without its plan"
like "$out" "^cli/dies +1 passed +1 failed" "run.sh: a file that dies half-way fails"
like "$out" "^cli/after_plan +2 passed +1 failed" "run.sh: a check after the plan line fails the file"
like "$out" "not ok - cli/after_plan printed 2 checks, but its plan says 1\.\.1" "... saying so"
like "$out" "^cli/known +1 passed +0 failed +0 skipped +[0-9]+s \(1 todo\)$" \
     "run.sh: a todo that fails is counted as todo, not failed"
like "$out" "^    not ok 2 - two # TODO fixed later$" "... and listed"
like "$out" "^    ok 1 - one # TODO fixed later \(passes now: remove its todo\)$" \
     "run.sh: a todo that passes is listed, to have its todo removed"
like "$out" "^failed: cli/after_plan cli/dies cli/stray_exit$" "run.sh: the failed files, and only they"
is "$rc|$(printf '%s\n' "$out" | tail -1)" "1|8 passed, 3 failed, 1 todo" "run.sh: the summary and exit status"
harness whole.t known.t
is "$rc|$(printf '%s\n' "$out" | tail -1)" "0|3 passed, 0 failed, 1 todo" "run.sh: a todo does not fail the suite"

# ---- no shell ok ----------------------------------------------------------------------------
# A shell check on an exit status is status_ok; `ok` is the C tests' ok(cond), true = pass.
ok_calls() {   # ok_calls FILE...: the lines that call a shell ok with an argument
  grep -nE '(^|[;&|{(]|then|else|do)[[:space:]]*ok[[:space:]]+[$"0-9]' "$@" /dev/null
}
mapfile -t test_shell < <(printf '%s\n' "${files[@]}" | grep -E '/tests/.*\.(t|sh)$')
is "$(ok_calls "${test_shell[@]}")" "" "no test calls a shell ok (status_ok takes an exit status)"
o=ok   # not spelled out here, or this file would hold the calls it looks for
printf '[ -f x ]; %s $? "x"\nif true; then %s 1 "y"; fi\nlocal ok = true\nprint(ok and "OK")\n' "$o" "$o" > "$TEST_TMP/ok.t"
is "$(ok_calls "$TEST_TMP/ok.t" | cut -d: -f2 | tr '\n' ' ')" "1 2 " \
   "... the check finds 'ok \$?' and 'ok 1', not a Lua variable named ok"

done_testing
