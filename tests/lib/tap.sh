# tap.sh: helpers for the shell tests (sourced). Each check prints one TAP line; tests/run.sh
# counts them. $SB is the sysbench binary under test (never /usr/bin/sysbench), $REF_SB the
# reference sysbench 1.0.20 for side-by-side checks, $SRCDIR the source tree.

: "${SB:?SB must point at the sysbench binary under test}"
: "${SRCDIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
REF_SB=${REF_SB:-/usr/bin/sysbench}

tap_n=0
tap_failed=0

# A scratch directory per test file, removed at exit.
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/sbtest.XXXXXX")
trap 'rm -rf "$TEST_TMP"' EXIT

_tap_result() {   # _tap_result OK NAME [DIAG...]
  local good=$1 name=$2
  shift 2
  tap_n=$((tap_n + 1))
  if [ "$good" = 1 ]; then
    echo "ok $tap_n - $name"
  else
    tap_failed=$((tap_failed + 1))
    echo "not ok $tap_n - $name"
    local d
    for d in "$@"; do printf '%s\n' "$d" | sed 's/^/#   /'; done
  fi
}

# ok CONDITION_STATUS NAME  -- use as: [ ... ]; ok $? "name"
ok() {
  if [ "$1" = 0 ]; then _tap_result 1 "$2"; else _tap_result 0 "$2"; fi
}

# Printed by the helpers that read a value out of a text (field, optval, the drivers' stat)
# when it is not there: `is` refuses it on either side, num_cmp takes it for no number, so a
# value that was not found never compares equal to another one that was not found either.
TAP_NOT_FOUND="<not found: "

# is GOT WANT NAME
is() {
  case "$1$2" in
    *"$TAP_NOT_FOUND"*) _tap_result 0 "$3" "a value was not found:" "got:      '$1'" \
                          "expected: '$2'"; return ;;
  esac
  if [ "$1" = "$2" ]; then _tap_result 1 "$3"
  else _tap_result 0 "$3" "got:      '$1'" "expected: '$2'"; fi
}

# _tap_match TEXT REGEX: whether TEXT matches REGEX (extended, as grep -E). A one-line REGEX
# matches when one line of TEXT does. A REGEX of several lines matches as many consecutive
# lines of TEXT, each line of the REGEX one line of the text, in order; an empty line of the
# REGEX is an empty line of the text, except a first or last one, which only says that the
# REGEX's next (or previous) line is a whole line ("\nNAME\n": a line that is NAME). grep
# alone would take each line of such a REGEX as an alternative, and its empty lines match any
# text: the check could not fail.
_tap_match() {
  local text=$1 regex=$2 j p lists=""
  local -a pat
  case $regex in
    *$'\n'*) ;;
    *) printf '%s\n' "$text" | grep -Eq -- "$regex"; return ;;
  esac
  mapfile -t pat <<< "$regex"
  if [ -z "${pat[0]}" ]; then
    pat=("${pat[@]:1}")
    case ${pat[0]} in ^*) ;; *) pat[0]="^${pat[0]}" ;; esac
  fi
  j=$((${#pat[@]} - 1))
  if [ "$j" -gt 0 ] && [ -z "${pat[$j]}" ]; then
    unset "pat[$j]"
    j=$((j - 1))
    case ${pat[$j]} in *\$) ;; *) pat[$j]="${pat[$j]}\$" ;; esac
  fi
  # For each line of the REGEX the numbers of the text lines it matches, then a start line
  # from which all of them follow one another.
  for j in "${!pat[@]}"; do
    p=${pat[$j]}
    [ -z "$p" ] && p='^$'
    lists+=$(printf '%s\n' "$text" | grep -nE -- "$p" | sed "s/:.*//; s/^/$j /")$'\n'
  done
  printf '%s' "$lists" | awk -v k="${#pat[@]}" '
    NF == 2 { hit[$1, $2] = 1; if ($1 == 0) start[$2] = 1 }
    END {
      for (i in start) {
        all = 1
        for (j = 1; j < k && all; j++) all = ((j, i + j) in hit)
        if (all) exit 0
      }
      exit 1
    }'
}

# _tap_matches_anything REGEX: a one-line REGEX that matches an empty line and a line of
# other text alike ("", "x*") matches every text: a check with it could not fail.
_tap_matches_anything() {
  case $1 in *$'\n'*) return 1 ;; esac
  printf '\n' | grep -Eq -- "$1" && printf '#%%~\n' | grep -Eq -- "$1"
}

# like TEXT REGEX NAME: TEXT matches REGEX (see _tap_match)
like() {
  if _tap_matches_anything "$2"; then
    _tap_result 0 "$3" "/$2/ matches any text: the check could not fail"
  elif _tap_match "$1" "$2"; then _tap_result 1 "$3"
  else _tap_result 0 "$3" "text did not match /$2/:" "$(printf '%s' "$1" | head -20)"; fi
}

# unlike TEXT REGEX NAME: TEXT does not match REGEX (see _tap_match)
unlike() {
  if _tap_match "$1" "$2"; then
    _tap_result 0 "$3" "text matched /$2/:" "$(printf '%s' "$1" | head -20)"
  else _tap_result 1 "$3"; fi
}

# num_cmp A OP B NAME   (awk numeric comparison, OP one of < <= > >= == !=). A or B that is
# not a number (a field or line that was not found: "") fails the check.
num_cmp() {
  local number='^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$'
  if ! [[ $1 =~ $number && $3 =~ $number ]]; then
    _tap_result 0 "$4" "not a number: '$1' $2 '$3'"
  elif awk -v a="$1" -v b="$3" "BEGIN { exit !(a $2 b) }"; then _tap_result 1 "$4"
  else _tap_result 0 "$4" "got $1, expected $2 $3"; fi
}

skip() {
  tap_n=$((tap_n + 1))
  echo "ok $tap_n # SKIP $1"
}

# sb ARGS... : runs our binary; sets $out (stdout), $err (stderr), $rc. Runs in $TEST_TMP.
sb() {
  local o="$TEST_TMP/.out" e="$TEST_TMP/.err"
  (cd "$TEST_TMP" && "$SB" "$@") >"$o" 2>"$e"
  rc=$?
  out=$(cat "$o")
  err=$(cat "$e")
}

# sb_in DIR ARGS... : like sb, run from DIR
sb_in() {
  local dir=$1 o="$TEST_TMP/.out" e="$TEST_TMP/.err"
  shift
  (cd "$dir" && "$SB" "$@") >"$o" 2>"$e"
  rc=$?
  out=$(cat "$o")
  err=$(cat "$e")
}

# ref ARGS... : the reference sysbench 1.0.20, same conventions ($out, $err, $rc)
ref() {
  local o="$TEST_TMP/.out" e="$TEST_TMP/.err"
  (cd "$TEST_TMP" && "$REF_SB" "$@") >"$o" 2>"$e"
  rc=$?
  out=$(cat "$o")
  err=$(cat "$e")
}

have_ref() { [ -x "$REF_SB" ]; }

# interrupt_when REGEX ARGS...: our binary with ARGS in the background from $TEST_TMP (output
# in $TEST_TMP/bg.out), sent SIGINT once its output matches REGEX (a bound of two minutes, not
# a time anything must take); sets $rc and $out when it has ended.
interrupt_when() {
  local regex=$1 pid i
  shift
  : >"$TEST_TMP/bg.out"   # emptied before the job starts: no earlier run's text to match
  (cd "$TEST_TMP" && exec "$SB" "$@") >>"$TEST_TMP/bg.out" 2>&1 &
  pid=$!
  for i in $(seq 1 2400); do
    grep -Eq -- "$regex" "$TEST_TMP/bg.out" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  out=$(cat "$TEST_TMP/bg.out")
}

# need_driver NAME PACKAGE: the test file ends here unless the binary under test lists driver
# NAME in --help: as a failure in CI (CI builds every driver), as a skip elsewhere.
need_driver() {
  "$SB" --help | grep -q "^  $1 - " && return 0
  if [ "${CI:-}" = true ]; then
    ok 1 "this build has the $1 driver (configure did not find $2)"
  else
    skip "this build has no $1 driver (install $2 and rebuild)"
  fi
  done_testing
  exit
}

# field TEXT REGEX : prints the first number after REGEX in TEXT ("<not found: REGEX>" if no
# line has REGEX)
field() {
  local line
  line=$(printf '%s\n' "$1" | grep -E -- "$2" | head -1)
  if [ -z "$line" ]; then printf '%s%s>\n' "$TAP_NOT_FOUND" "$2"; return; fi
  printf '%s\n' "$line" | sed -E "s/.*$2[^0-9-]*([-0-9.]+).*/\1/"
}

done_testing() {
  echo "1..$tap_n"
  [ "$tap_failed" = 0 ]
}

# ---- helpers for the black-box tests ----

# write FILE : stores standard input as $TEST_TMP/FILE (a Lua script, a config file ...)
write() {
  cat > "$TEST_TMP/$1"
}

# opt_dump_script FILE [LUA] : writes a script whose `dump` command prints every sysbench.opt
# entry as "name=value" (lists joined with ","), sorted by name. LUA, if given, goes first
# (typically a sysbench.cmdline.options declaration).
opt_dump_script() {
  {
    [ $# -gt 1 ] && printf '%s\n' "$2"
    cat <<'LUA'
function event() end
local function show(v)
  if type(v) == "table" then return table.concat(v, ",") end
  return tostring(v)
end
sysbench.cmdline.commands = { dump = { function()
  local names = {}
  for name in pairs(sysbench.opt) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do print(name .. "=" .. show(sysbench.opt[name])) end
end } }
LUA
  } > "$TEST_TMP/$1"
}

# optval NAME : the value "dump" printed for NAME (from $out; "<not found: NAME>" if none)
optval() {
  if printf '%s\n' "$out" | grep -q "^$1="; then
    printf '%s\n' "$out" | sed -n "s/^$1=//p" | head -1
  else
    printf '%s%s>\n' "$TAP_NOT_FOUND" "$1"
  fi
}

# mask TEXT : the text with every number replaced by N, and the padding in front of the
# right-aligned numbers (latency lines, cpu's events per second) squeezed to one space, so two
# reports compare by layout only
mask() {
  printf '%s\n' "$1" | sed -E 's/[0-9]+(\.[0-9]+)?/N/g
    s/^( +(min|avg|max|sum|Nth percentile|events per second):) +N$/\1 N/'
}

# count TEXT REGEX : number of lines of TEXT matching REGEX
count() {
  printf '%s\n' "$1" | grep -cE -- "$2"
}

# line_of TEXT REGEX : number of the first line of TEXT matching REGEX (nothing if none, so a
# num_cmp on an absent line fails)
line_of() {
  printf '%s\n' "$1" | grep -nE -m1 -- "$2" | cut -d: -f1
}
