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

# is GOT WANT NAME
is() {
  if [ "$1" = "$2" ]; then _tap_result 1 "$3"
  else _tap_result 0 "$3" "got:      '$1'" "expected: '$2'"; fi
}

# like TEXT REGEX NAME (extended regex, matched against the whole text)
like() {
  if printf '%s' "$1" | grep -Eq -- "$2"; then _tap_result 1 "$3"
  else _tap_result 0 "$3" "text did not match /$2/:" "$(printf '%s' "$1" | head -20)"; fi
}

# unlike TEXT REGEX NAME
unlike() {
  if printf '%s' "$1" | grep -Eq -- "$2"; then
    _tap_result 0 "$3" "text matched /$2/:" "$(printf '%s' "$1" | grep -E -- "$2" | head -5)"
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

# field TEXT REGEX : prints the first number after REGEX in TEXT
field() {
  printf '%s\n' "$1" | grep -E -- "$2" | head -1 | sed -E "s/.*$2[^0-9-]*([-0-9.]+).*/\1/"
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

# optval NAME : the value "dump" printed for NAME (from $out)
optval() {
  printf '%s\n' "$out" | sed -n "s/^$1=//p" | head -1
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
