#!/usr/bin/env bash
# version.t: the program names itself: --version keeps 1.0.20's line first and adds this
# program's name, version (configure.ac) and build commit; the header at --verbosity=4 says
# the same; result files record it (tool, tool_version, tool_commit) and compare shows it;
# the man page carries the version; the commit comes from git, from a tarball's
# .tarball-commit, or is "unknown". The exact-output mode (--compat=1.0.20) says none of it.
. "$(dirname "$0")/../lib/tap.sh"

version=$(sed -n 's/^AC_DEFINE(\[SB_TOOL_VERSION\], \["\([^"]*\)"\].*/\1/p' "$SRCDIR/configure.ac")
name=$(sed -n 's/^AC_DEFINE(\[SB_TOOL_NAME\], \["\([^"]*\)"\].*/\1/p' "$SRCDIR/configure.ac")
like "$name $version" "^[a-z][a-z-]* [0-9]+\.[0-9]+\.[0-9]+$" "configure.ac names the program and its version"

sb --version
is "$(printf '%s\n' "$out" | head -n 1)" "sysbench 1.0.20" "--version: 1.0.20's line first (scripts parse it)"
identity=$(printf '%s\n' "$out" | sed -n 2p)
like "$identity" "^$name $version \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)$" \
     "... then this program's name, version and commit"
is "$(printf '%s\n' "$out" | wc -l | tr -d ' '):$rc" "2:0" "... two lines, exit 0"
if git -C "$SRCDIR" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # (the binary's commit is the one it was built from: HEAD, or before a later commit that
  # changed no source, an earlier one with -dirty)
  built=$(printf '%s\n' "$identity" | sed -n 's/.*(commit \([0-9a-f]*\)\(-dirty\)\{0,1\})$/\1/p')
  git -C "$SRCDIR" merge-base --is-ancestor "$built" HEAD 2>/dev/null
  status_ok $? "... the commit is one of the source tree's history ($built)"
else
  skip "the source tree is not a git checkout"
fi
sb --version --compat=1.0.20
is "$out" "sysbench 1.0.20" "--version --compat=1.0.20: 1.0.20's line alone"
SYSBENCH_COMPAT=1.0.20 sb --version
is "$out" "sysbench 1.0.20" "... and with SYSBENCH_COMPAT=1.0.20"

# The header of a run: the program's line at --verbosity=4 and 5, not below
sb cpu --events=1 --cpu-max-prime=10 --verbosity=4 run
is "$(printf '%s\n' "$out" | sed -n 2p)" "$identity" "--verbosity=4: the identity after 1.0.20's header"
like "$(printf '%s\n' "$out" | head -n 1)" "^sysbench 1\.0\.20 \(using system LuaJIT" "... which stays first"
sb cpu --events=1 --cpu-max-prime=10 run
unlike "$out" "^$name " "--verbosity=3: 1.0.20's header alone"
sb cpu --events=1 --cpu-max-prime=10 --verbosity=5 --compat=1.0.20 run
unlike "$out" "^$name " "--verbosity=5 --compat=1.0.20: 1.0.20's header alone"

# Result files and compare
sb cpu --events=5 --cpu-max-prime=10 --report-file=r.json run
fields=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]
print(r["tool"], r["tool_version"], r["tool_commit"])' "$TEST_TMP/r.json" 2>&1)
is "$fields" "$(printf '%s\n' "$identity" | sed 's/ (commit \(.*\))$/ \1/')" \
   "the result file records tool, tool_version and tool_commit"
sb compare r.json
like "$out" "^  A +r\.json: cpu, .*, $name $version \(commit [^)]*\)$" "compare shows which program measured it"
sb cpu --events=5 --cpu-max-prime=10 --report-file=r2.json run
sb merge r.json r2.json --report-file=m.json
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["tool"])' "$TEST_TMP/m.json" 2>&1)" \
   "$name" "a merged file keeps it"
python3 - "$TEST_TMP/r.json" "$TEST_TMP/old.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for key in ("tool", "tool_version", "tool_commit"):
    del doc["runs"][0][key]
json.dump(doc, open(sys.argv[2], "w"))
PY
sb compare old.json
is "$rc" 0 "compare reads a file of an older build, without the fields"

# The man page names the same version
like "$(grep '^\.TH ' "$SRCDIR/doc/sysbench.1")" "\"$name $version\"" "the man page's .TH line has the version"

# Where the commit comes from: git, a tarball's .tarball-commit, or nothing known
script="$SRCDIR/build-aux/commit-id.sh"
mkdir -p "$TEST_TMP/tarball"
sh "$script" "$TEST_TMP/tarball" "$TEST_TMP/c1.h"
like "$(cat "$TEST_TMP/c1.h")" '#define SB_TOOL_COMMIT "unknown"' "commit-id.sh without git or .tarball-commit: unknown"
echo 0123456789ab > "$TEST_TMP/tarball/.tarball-commit"
sh "$script" "$TEST_TMP/tarball" "$TEST_TMP/c2.h"
like "$(cat "$TEST_TMP/c2.h")" '#define SB_TOOL_COMMIT "0123456789ab"' "... in a tarball: the commit make dist recorded"
if command -v git >/dev/null; then
  # a tarball unpacked inside another git checkout takes its own record, not that checkout's
  git -C "$TEST_TMP" init -q outer && mkdir -p "$TEST_TMP/outer/tarball" &&
    echo feedfacecafe > "$TEST_TMP/outer/tarball/.tarball-commit"
  sh "$script" "$TEST_TMP/outer/tarball" "$TEST_TMP/c3.h"
  like "$(cat "$TEST_TMP/c3.h")" '#define SB_TOOL_COMMIT "feedfacecafe"' \
       "... also when unpacked inside another git checkout"
  git -C "$TEST_TMP" init -q repo && git -C "$TEST_TMP/repo" -c user.email=t@t -c user.name=t \
    commit -q --allow-empty -m x
  sh "$script" "$TEST_TMP/repo" "$TEST_TMP/c4.h"
  like "$(cat "$TEST_TMP/c4.h")" "#define SB_TOOL_COMMIT \"$(git -C "$TEST_TMP/repo" rev-parse --short=12 HEAD)\"" \
       "... in a git checkout: its HEAD"
  echo x > "$TEST_TMP/repo/f" && git -C "$TEST_TMP/repo" add f
  sh "$script" "$TEST_TMP/repo" "$TEST_TMP/c4.h"
  like "$(cat "$TEST_TMP/c4.h")" '-dirty"$' "... with -dirty when files differ from it"
  before=$(stat -c %Y "$TEST_TMP/c4.h")
  touch -d '2000-01-01' "$TEST_TMP/c4.h"
  sh "$script" "$TEST_TMP/repo" "$TEST_TMP/c4.h"
  is "$(stat -c %Y "$TEST_TMP/c4.h")" "$(date -d '2000-01-01' +%s)" \
     "... and the header is left alone when the commit did not change (no rebuild)"
  : "$before"
else
  skip "git is not installed"
fi

done_testing
