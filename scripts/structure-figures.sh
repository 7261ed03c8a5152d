#!/usr/bin/env bash
# structure-figures.sh: prints the structure figures of issue 24 ("Figures for the closing
# note") for the tree it stands in, to compare a tree before and after a restructuring.
#
#   bash scripts/structure-figures.sh [--no-build] [TREE]
#
# TREE is the checkout to measure (default: the one this script is in); the checkers are this
# script's own (tests/lib/include_cycles.py beside it).
#
# - mutable variables: static and global data objects of the sysbench binary's own object
#   files (the plain build, not the sanitizer ones) in .data, .bss, .data.rel,
#   .data.rel.local, .tbss and .tdata (not .rodata or .data.rel.ro), from objdump -t; of them
#   the static locals of functions ("name.N") and the extern ones (global symbols), by name
# - files of src/ (C and Lua, as git tracks them) over 850 lines
# - include cycles between modules (X.c + X.h) and between folders of src/
#   (tests/lib/include_cycles.py, as tests/cli/include_graph.t checks them)
# - the files under src/drivers/ that include src/db.h
# - option reads by string (opt_bool("..."), opt_int, opt_size, opt_double, opt_string,
#   opt_list, opt_is_set, opt_numbers), by file; those outside the options loaders, the files
#   whose name ends in options.c, settings.c or config.c (LOADERS, an extended regex on the
#   path, changes that)
# - pairs of places the `duplicates` command finds in src/, tests/, scripts/ and bench/
#
# The object files come from `make src/sysbench` in TREE's configured build (run
# scripts/setup.sh first); --no-build takes them as they are (and says so when make would
# rebuild any).
set -euo pipefail
tools=$(cd "$(dirname "$0")/.." && pwd)

build=1 tree=$tools
while [ $# -gt 0 ]; do
  case $1 in
    --no-build) build=0 ;;
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    -*) echo "structure-figures.sh: unknown argument '$1' (--no-build, --help, TREE)" >&2; exit 2 ;;
    *) tree=$1 ;;
  esac
  shift
done
cd "$tree" || exit 1
loaders=${LOADERS:-'(options|settings|config)\.c$'}

[ -f Makefile ] || { echo "structure-figures.sh: no configured build tree in $tree (run bash scripts/setup.sh)" >&2; exit 1; }
if [ "$build" = 1 ]; then
  make -s -j2 src/sysbench >/dev/null || { echo "structure-figures.sh: make src/sysbench failed" >&2; exit 1; }
elif ! make -s -q src/sysbench 2>/dev/null; then
  echo "note: make would rebuild some objects of src/sysbench: the variable counts are of the objects as built" >&2
fi
# automake's list of the binary's objects, read out of the Makefile
objects=$(make -s -f Makefile -f - print-objects <<'MK'
print-objects:
	@echo $(src_sysbench_OBJECTS)
MK
)
[ -n "$objects" ] || { echo "structure-figures.sh: the Makefile names no objects for src/sysbench" >&2; exit 1; }
for o in $objects; do
  [ -f "$o" ] || { echo "structure-figures.sh: $o is not built (make src/sysbench, or drop --no-build)" >&2; exit 1; }
done

echo "Structure figures (issue 24) of $tree at $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- src 2>/dev/null || echo ' with uncommitted changes in src/')"
echo

# ---- mutable variables -------------------------------------------------------------------
# shellcheck disable=SC2086
python3 - $objects <<'PY'
import collections, re, subprocess, sys

# objdump -t: VALUE FLAGS(7 characters) SECTION<tab>SIZE NAME
symbol = re.compile(r'^[0-9a-f]+ (.{7}) (\S+)\t[0-9a-f]+ +(.*)$')
mutable = (".data", ".bss", ".data.rel", ".data.rel.local", ".tbss", ".tdata")


def is_mutable(section):
    # -fdata-sections names them .bss.NAME, .data.NAME ...; .data.rel.ro is read-only
    if section.startswith(".data.rel.ro"):
        return False
    return any(section == s or section.startswith(s + ".") for s in mutable)


per_file = collections.Counter()
in_functions = []
extern = []
for obj in sys.argv[1:]:
    table = subprocess.run(["objdump", "-t", obj], capture_output=True, text=True,
                           check=True).stdout
    for line in table.splitlines():
        m = symbol.match(line)
        if not m or m.group(1)[6] != "O" or not is_mutable(m.group(2)):
            continue
        name = m.group(3)
        per_file[obj] += 1
        if m.group(1)[0] == "g":
            extern.append(name)
        elif "." in name:
            in_functions.append("%s (%s)" % (name.split(".")[0], obj.replace(".o", ".c")))

total = sum(per_file.values())
print("mutable variables (static storage, writable sections): %d   (goal <= 40)" % total)
print("  of them static locals in functions: %d%s" %
      (len(in_functions), (": " + ", ".join(sorted(in_functions))) if in_functions else ""))
print("  by object file: " + ", ".join("%s %d" % (f.replace(".o", ".c"), n)
                                       for f, n in per_file.most_common()))
print("extern mutable variables: %d   (goal 0)%s" %
      (len(extern), (": " + ", ".join(sorted(extern))) if extern else ""))
PY

# ---- big files ---------------------------------------------------------------------------
big=$(git ls-files src | grep -E '\.(c|h|lua)$' | while read -r f; do
        n=$(wc -l <"$f")
        [ "$n" -gt 850 ] && echo "$f $n"
      done | sort -k2,2 -rn || true)
printf 'files over 850 lines in src/: %d   (goal 0)%s\n' "$(printf '%s' "$big" | grep -c . || true)" \
  "$([ -z "$big" ] || printf ': %s' "$(printf '%s\n' "$big" | paste -sd, - | sed 's/,/, /g')")"

# ---- cycles ------------------------------------------------------------------------------
cycle_count() {   # cycle_count [--folders]: "N (the cycles)", from include_cycles.py
  local out cycles
  out=$(python3 "$tools/tests/lib/include_cycles.py" "$@" src || true)
  printf '%s' "$(printf '%s\n' "$out" | tail -1 | sed -E 's/.* ([0-9]+) cycles$/\1/')"
  cycles=$(printf '%s\n' "$out" | sed -n 's/^[a-z]* cycle: //p' | paste -sd';' - | sed 's/;/; /g')
  [ -z "$cycles" ] || printf ' (%s)' "$cycles"
}
echo "include cycles between files (modules): $(cycle_count)   (goal 0)"
echo "include cycles between folders: $(cycle_count --folders)   (goal 0)"

# ---- drivers above the database layer ---------------------------------------------------
# a quoted include of db.h resolves to src/db.h (no folder under src/drivers has its own)
including=$(grep -rlE '^\s*#\s*include\s+"(\.\./)*db\.h"' src/drivers --include='*.c' --include='*.h' | sort || true)
if find src/drivers -name db.h | grep -q .; then
  echo "warning: a db.h under src/drivers: the count below may name it" >&2
fi
echo "driver files that include db.h: $(printf '%s' "$including" | grep -c . || true)   (goal 0)"

# ---- option reads by string -------------------------------------------------------------
reads=$(git ls-files src | grep -E '\.(c|h)$' | xargs grep -oE '\bopt_(bool|int|size|double|string|list|is_set|numbers)\(\s*"' |
        cut -d: -f1 | sort | uniq -c | sort -k1,1rn -k2 || true)
all_reads=$(printf '%s\n' "$reads" | awk '{ n += $1 } END { print n + 0 }')
outside=$(printf '%s\n' "$reads" | LOADERS=$loaders awk 'NF == 2 && $2 !~ ENVIRON["LOADERS"]')
inside=$(printf '%s\n' "$reads" | LOADERS=$loaders awk 'NF == 2 && $2 ~ ENVIRON["LOADERS"]')
by_file() { awk '{ printf "%s%s %d", sep, $2, $1; sep = ", " }'; }
echo "option reads by string: $all_reads in $(printf '%s\n' "$reads" | grep -c . || true) files"
echo "  outside the loaders: $(printf '%s\n' "$outside" | awk '{ n += $1 } END { print n + 0 }') in $(printf '%s' "$outside" | grep -c . || true) files   (goal <= 10): $(printf '%s\n' "$outside" | grep . | by_file)"
echo "  in the loaders (/$loaders/): $(printf '%s\n' "$inside" | grep . | by_file)"

# ---- duplicates -------------------------------------------------------------------------
if command -v duplicates >/dev/null 2>&1; then
  line="duplicates pairs:"
  for d in src tests scripts bench; do
    first=$(duplicates --repo "$d" --seconds 120 | head -1)
    case $first in
      "no duplicates"*) n=0 ;;
      *" pair"*) n=${first%% pair*} ;;
      *) n="? ($first)" ;;
    esac
    line+=" $d/ $n,"
  done
  echo "${line%,}"
else
  echo "duplicates pairs: the duplicates command is not on PATH"
fi
