# compat.sh: differential cases: the same command line through sysbench 1.0.20 and through
# ours, outputs compared (sourced after tap.sh).
#
#   same NAME [CASE OPTIONS] -- ARGS...
#       Runs `sysbench ARGS...` with the reference ($REF_SB) and with ours ($SB) twice: as it
#       is, and in the exact-output mode (SYSBENCH_COMPAT=1.0.20), each in a fresh scratch
#       directory of its own, and compares exit code, stdout and stderr after normalisation
#       (compat_normalise). Two TAP lines per case, one per mode; a difference prints the diff.
#       The exact mode is held to 1.0.20's output with the additions' rules off (below).
#       Sets $ref_out/$ref_err/$ref_rc and $out/$err/$rc (ours, as it is), so a case can
#       assert more.
#   CASE OPTIONS
#       --stdin FILE     FILE (under $TEST_TMP) is the standard input of both runs
#       --file FILE      copy $TEST_TMP/FILE into both scratch directories (repeatable)
#       --dir DIR        run in DIR (both binaries, one after the other) instead of scratch dirs
#       --db             append the MariaDB sandbox's options ("${MYSQL_ARGS[@]}")
#       --before CMD     shell command run before each binary (e.g. drop leftover tables);
#                        $SB_FOR_SIDE is the binary about to run (to prepare with it)
#       --after CMD      shell command run after each binary; its output is compared too
#                        (e.g. SHOW CREATE TABLE, a checksum); $COMPAT_SIDE is "ref" or "ours"
#       --timed          a time-limited run: every number is masked, counts included
#       --sort           compare the lines sorted, empty ones left out (output of several
#                        threads, in any order)
#       --allow ID       the case-scoped deliberate difference ID applies (see below)
#       --files          also compare the names and sizes of the files left in the scratch dir
#
#   declared ID...
#       One check that deliberate differences a file tests on our binary alone are declared.
#   COMPAT_EXACT_ONLY=1 (environment)
#       run the exact-mode comparison alone (a quick check of the mode over the suite)
#
# Deliberate differences live in one place, tests/compat/differences.txt, each with its reason.
# Entries of scope "global" apply to every case; "case" entries only where a case names them
# with --allow. Anything else that differs fails. Rule kinds: ours-extra/ref-extra REGEX (such
# lines of one side are left out), ours-sub/ref-sub 'REGEX => TEXT', ours-block REGEX (a
# paragraph starting with such a line is left out), ref-once/ours-once REGEX (a line whose
# match of REGEX an earlier line of that side had is left out: what is printed once per
# thread),
# exit 'ref=N ours=M'. An entry with "kind: addition" is something we add to 1.0.20's output
# (a line, a block, a HINT, help text): the exact-mode comparison applies none of its rules, so
# our exact output must have none of it.
#
# The reference is only ever run from a scratch directory: 1.0.20 also loads modules from
# ./src/lua, and the source tree holds ours.

COMPAT_DIFFERENCES=${COMPAT_DIFFERENCES:-$SRCDIR/tests/compat/differences.txt}
compat_n=0

if [ "$(readlink -f "$SB")" = "$(readlink -f "$REF_SB" 2>/dev/null)" ]; then
  echo "compat.sh: \$SB and \$REF_SB are the same binary ($SB)" >&2
  exit 2
fi

# The rules of the deliberate differences, as parallel arrays.
compat_rule_id=() compat_rule_scope=() compat_rule_kind=() compat_rule_arg=()
compat_rule_addition=()

compat_load_differences() {
  local id="" scope="" addition=0 line key value why_seen=0
  [ -f "$COMPAT_DIFFERENCES" ] || { echo "compat.sh: missing $COMPAT_DIFFERENCES" >&2; exit 2; }
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in
      ''|'#'*) continue ;;
      '['*']')
        if [ -n "$id" ] && [ "$why_seen" = 0 ]; then
          echo "compat.sh: difference [$id] has no 'why:' line" >&2; exit 2
        fi
        id=${line#[}; id=${id%]}; scope=case; addition=0; why_seen=0; continue ;;
      ' '*) continue ;;                      # continuation of a why: line
    esac
    key=${line%%:*}; value=${line#*: }
    case $key in
      why) why_seen=1 ;;
      scope) scope=$value
             for i in "${!compat_rule_id[@]}"; do
               [ "${compat_rule_id[$i]}" = "$id" ] && compat_rule_scope[$i]=$scope
             done ;;
      kind) case $value in
              addition) addition=1 ;;
              *) echo "compat.sh: [$id] has kind '$value'; the only kind is 'addition'" >&2
                 exit 2 ;;
            esac
            for i in "${!compat_rule_id[@]}"; do
              [ "${compat_rule_id[$i]}" = "$id" ] && compat_rule_addition[$i]=1
            done ;;
      ours-extra|ref-extra|ours-sub|ref-sub|ours-block|ref-once|ours-once|exit)
        compat_rule_id+=("$id"); compat_rule_scope+=("$scope")
        compat_rule_kind+=("$key"); compat_rule_arg+=("$value")
        compat_rule_addition+=("$addition") ;;
      *) echo "compat.sh: unknown key '$key' in [$id] of $COMPAT_DIFFERENCES" >&2; exit 2 ;;
    esac
  done < "$COMPAT_DIFFERENCES"
  if [ -n "$id" ] && [ "$why_seen" = 0 ]; then
    echo "compat.sh: difference [$id] has no 'why:' line" >&2; exit 2
  fi
}
compat_load_differences

compat_has_difference() {   # compat_has_difference ID: is ID declared?
  grep -qxF "[$1]" "$COMPAT_DIFFERENCES"
}

# declared ID...: one check that each deliberate difference a file tests on our binary alone
# (where running 1.0.20 would take forever or cannot compare) is written down, with its why.
declared() {
  local id missing=""
  for id in "$@"; do compat_has_difference "$id" || missing="$missing $id"; done
  if [ -z "$missing" ]; then _tap_result 1 "differences.txt declares: $*"
  else _tap_result 0 "differences.txt declares: $*" "not declared:$missing"; fi
}

# What legitimately varies between two runs of the same command, masked in both outputs:
# times, rates, latencies, the thread-fairness spread and the histogram's rows (its total
# count is kept). Counts stay: a case that must compare them limits the run with --events.
# fileio's per-second rates keep whether they are zero ("reads/s: 0" in a write test).
compat_normalise() {   # compat_normalise TIMED < text
  local timed=$1
  awk -v timed="$timed" '
    function mask(s) { gsub(/[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/, "N", s); return s }
    function squeeze(s) { gsub(/ +N/, " N", s); return s }
    in_hist && /^ +[0-9.]+ \|\**/ { hist_rows++; hist_total += $NF; next }
    in_hist { print "<histogram: " (hist_rows > 0 ? "rows" : "empty") ", total " \
                    (timed ? "N" : hist_total) ">"; in_hist = 0 }
    /^       value  -+ distribution -+ count$/ { print; in_hist = 1; hist_rows = 0;
                                                 hist_total = 0; next }
    timed { s = squeeze(mask($0)); gsub(/N +\(/, "N (", s); print s; next }
    /^\[ [0-9.]+s \] / { ts = $0; sub(/\] .*/, "] ", ts); rest = substr($0, length(ts) + 1);
                         print ts mask(rest); next }
    /total time: +[0-9.]+s$/ || /events per second: / || /execution time \(avg\/stddev\)/ ||
    /^ +(min|avg|max|sum|[0-9]+th percentile): +[0-9.]+$/ {
      label = $0; sub(/: .*/, ":", label); print squeeze(label " N"); next }
    /per sec\.\)/ { sub(/\([0-9.]+ per sec\.\)/, "(N per sec.)"); print; next }
    /events \(avg\/stddev\):/ { sub(/\/[0-9.]+$/, "/N"); print; next }
    /^DEBUG: +(thread #|total time taken by event execution)/ {
      gsub(/[0-9]+\.[0-9]+s/, "Ns"); print; next }
    /MiB transferred \(/ { sub(/\([0-9.]+ MiB\/sec\)/, "(N MiB/sec)"); print; next }
    /^Total operations: / { sub(/\( *[0-9.]+ per second\)/, "(N per second)"); print; next }
    /^    (reads\/s|writes\/s|fsyncs\/s|read, MiB\/s|written, MiB\/s): +[0-9.]+$/ {
      label = $0; sub(/: .*/, ":", label); print label ($NF + 0 == 0 ? " 0" : " N"); next }
    /^[0-9]+ bytes written in [0-9.]+ seconds \([0-9.a-z]+ MiB\/sec\)\.$/ {
      sub(/ in [0-9.]+ seconds \([0-9.a-z]+ MiB\/sec\)/, " in N seconds (N MiB/sec)"); print; next }
    { print }
    END { if (in_hist) print "<histogram: " (hist_rows > 0 ? "rows" : "empty") ", total " \
                             (timed ? "N" : hist_total) ">" }'
}

# Apply the deliberate-difference rules for SIDE (ref|ours) to a stream, given the case's
# --allow list; with EXACT=1, those of additions are not applied. Prints the filtered text.
compat_apply_rules() {   # compat_apply_rules SIDE ALLOWED [EXACT] < text
  local side=$1 allowed=" $2 " exact=${3:-0} text i kind arg pat rep sep=$'\001'   # sed delimiter
  text=$(cat)
  for i in "${!compat_rule_id[@]}"; do
    [ "$exact" = 1 ] && [ "${compat_rule_addition[$i]}" = 1 ] && continue
    [ "${compat_rule_scope[$i]}" = global ] ||
      case $allowed in *" ${compat_rule_id[$i]} "*) ;; *) continue ;; esac
    kind=${compat_rule_kind[$i]} arg=${compat_rule_arg[$i]}
    case $kind in
      "$side-extra")
        text=$(printf '%s\n' "$text" | grep -Ev -- "$arg") ;;
      "$side-sub")
        pat=${arg%% => *} rep=${arg#* => }
        text=$(printf '%s\n' "$text" | sed -E "s$sep$pat$sep$rep${sep}g") ;;
      "$side-once")         # a line whose match was printed before (the rest may differ)
        text=$(printf '%s\n' "$text" |
               ONCE="$arg" awk 'match($0, ENVIRON["ONCE"]) && seen[substr($0, RSTART, RLENGTH)]++ { next }
                                { print }') ;;
      "$side-block")        # a paragraph (up to a blank line) that starts with a matching line
        text=$(printf '%s\n' "$text" | awk -v pat="$arg" '
          skipping && /^$/ { skipping = 0; next }
          skipping { next }
          $0 ~ pat { skipping = 1; next }
          { print }') ;;
    esac
  done
  printf '%s\n' "$text"
}

# The exit code we may return instead of the reference's under the allowed rules.
compat_exit_allowed() {   # compat_exit_allowed REF_RC OURS_RC ALLOWED [EXACT]
  local allowed=" $3 " i
  for i in "${!compat_rule_id[@]}"; do
    [ "${compat_rule_kind[$i]}" = exit ] || continue
    [ "${4:-0}" = 1 ] && [ "${compat_rule_addition[$i]}" = 1 ] && continue
    [ "${compat_rule_scope[$i]}" = global ] ||
      case $allowed in *" ${compat_rule_id[$i]} "*) ;; *) continue ;; esac
    [ "${compat_rule_arg[$i]}" = "ref=$1 ours=$2" ] && return 0
  done
  return 1
}

# SIDE: ref, ours, or exact (ours in the exact-output mode; its hooks see COMPAT_SIDE=ours)
_compat_run() {   # _compat_run SIDE BINARY DIR   (uses the case variables of `same`)
  local side=$1 bin=$2 dir=$3 o="$TEST_TMP/.compat.$1.out" e="$TEST_TMP/.compat.$1.err" f
  local mode=(-u SYSBENCH_COMPAT)
  [ "$side" = exact ] && mode=(SYSBENCH_COMPAT=1.0.20)
  for f in "${c_files[@]}"; do cp -r "$TEST_TMP/$f" "$dir/"; done
  export COMPAT_SIDE=${side/exact/ours} SB_FOR_SIDE=$bin
  if [ -n "$c_before" ]; then (cd "$dir" && eval "$c_before") >/dev/null 2>&1; fi
  if [ -n "$c_stdin" ]; then
    (cd "$dir" && env -u LUA_PATH -u LUA_CPATH "${mode[@]}" "$bin" "${c_args[@]}") \
      <"$TEST_TMP/$c_stdin" >"$o" 2>"$e"
  else
    (cd "$dir" && env -u LUA_PATH -u LUA_CPATH "${mode[@]}" "$bin" "${c_args[@]}") \
      </dev/null >"$o" 2>"$e"
  fi
  local status=$?
  if [ -n "$c_after" ]; then
    { echo "== after: $c_after"; (cd "$dir" && eval "$c_after") 2>&1; } >>"$o"
  fi
  if [ "$c_files_cmp" = 1 ]; then
    { echo "== files left:"
      (cd "$dir" && find . -type f ! -name '.*' -printf '%P %s\n' | sort) |
        while read -r f size; do
          case " ${c_files[*]} " in *" $f "*) ;; *) echo "$f $size" ;; esac
        done; } >>"$o"
  fi
  unset COMPAT_SIDE
  return $status
}

same() {
  local name=$1
  shift
  c_stdin="" c_before="" c_after="" c_timed=0 c_sort=0 c_allow="" c_dir="" c_files_cmp=0
  c_files=() c_args=()
  local db=0
  while [ $# -gt 0 ]; do
    case $1 in
      --stdin) c_stdin=$2; shift 2 ;;
      --file) c_files+=("$2"); shift 2 ;;
      --dir) c_dir=$2; shift 2 ;;
      --db) db=1; shift ;;
      --before) c_before=$2; shift 2 ;;
      --after) c_after=$2; shift 2 ;;
      --timed) c_timed=1; shift ;;
      --sort) c_sort=1; shift ;;
      --files) c_files_cmp=1; shift ;;
      --allow)
        compat_has_difference "$2" ||
          { echo "compat.sh: case '$name' allows [$2], which differences.txt does not declare" >&2
            exit 2; }
        c_allow="$c_allow $2"; shift 2 ;;
      --) shift; break ;;
      *) echo "compat.sh: unknown case option $1 in '$name'" >&2; exit 2 ;;
    esac
  done
  c_args=("$@")
  [ "$db" = 1 ] && c_args+=("${MYSQL_ARGS[@]}")

  compat_n=$((compat_n + 1))
  local base="$TEST_TMP/compat.$compat_n" ref_dir ours_dir exact_dir
  ref_dir=${c_dir:-$base/ref} ours_dir=${c_dir:-$base/ours} exact_dir=${c_dir:-$base/exact}
  mkdir -p "$ref_dir" "$ours_dir" "$exact_dir"

  _compat_run ref "$REF_SB" "$ref_dir"; ref_rc=$?
  ref_out=$(cat "$TEST_TMP/.compat.ref.out"); ref_err=$(cat "$TEST_TMP/.compat.ref.err")
  local mode modes=(ours exact)
  [ "${COMPAT_EXACT_ONLY:-0}" = 1 ] && modes=(exact)
  for mode in "${modes[@]}"; do
    local dir=$ours_dir
    [ "$mode" = exact ] && dir=$exact_dir
    _compat_run "$mode" "$SB" "$dir"; rc=$?
    out=$(cat "$TEST_TMP/.compat.$mode.out"); err=$(cat "$TEST_TMP/.compat.$mode.err")
    _compat_compare "$mode" "$name" "$base" "$dir"
  done
  # what a case asserts on further is ours as it is
  if [ "${COMPAT_EXACT_ONLY:-0}" != 1 ]; then
    rc=$_compat_ours_rc out=$_compat_ours_out err=$_compat_ours_err
  fi
}

# Compares the run of ours in MODE (ours|exact: $out, $err, $rc) with the reference's ($ref_*):
# one TAP line.
_compat_compare() {   # _compat_compare MODE NAME BASE OURS_DIR
  local mode=$1 name=$2 base=$3 dir=$4 exact=0 side stream text label="same as 1.0.20"
  if [ "$mode" = exact ]; then
    exact=1 label="same as 1.0.20 with --compat=1.0.20"
  else
    _compat_ours_rc=$rc _compat_ours_out=$out _compat_ours_err=$err
  fi
  for side in ref "$mode"; do
    for stream in out err; do
      if [ $side = ref ]; then eval "text=\$ref_$stream"; else eval "text=\$$stream"; fi
      text=${text//$ref_dir/<DIR>}; text=${text//$dir/<DIR>}
      text=$(printf '%s\n' "$text" | compat_normalise "$c_timed" |
             compat_apply_rules "${side/exact/ours}" "$c_allow" "$exact")
      [ "$c_sort" = 1 ] && text=$(printf '%s\n' "$text" | grep -v '^$' | LC_ALL=C sort)
      printf '%s\n' "$text" >"$base.$side.$stream"
    done
  done

  local diags=()
  if [ "$ref_rc" != "$rc" ] && ! compat_exit_allowed "$ref_rc" "$rc" "$c_allow" "$exact"; then
    diags+=("exit code: 1.0.20 $ref_rc, ours $rc")
  fi
  for stream in out err; do
    if ! cmp -s "$base.ref.$stream" "$base.$mode.$stream"; then
      diags+=("std$stream differs (- 1.0.20, + ours):"
              "$(diff -u "$base.ref.$stream" "$base.$mode.$stream" | tail -n +3 | head -40)")
    fi
  done
  if [ ${#diags[@]} = 0 ]; then
    _tap_result 1 "$label: $name"
  else
    local how=()
    [ "$exact" = 1 ] && how=(SYSBENCH_COMPAT=1.0.20)
    _tap_result 0 "$label: $name" "${how[*]}${how:+ }sysbench ${c_args[*]}" "${diags[@]}"
  fi
}
