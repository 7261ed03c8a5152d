#!/usr/bin/env bash
# man_page.t: doc/sysbench.1 is valid roff, `make install` installs it, and `man sysbench`
# shows it after install (ahead of Debian's 1.0.20 page in /usr/share/man), covering the
# command line, the drivers, the result file, the compare/merge/verify commands, the
# exact-output mode (--compat, SYSBENCH_COMPAT) and the program's own name.
. "$(dirname "$0")/../lib/tap.sh"

page="$SRCDIR/doc/sysbench.1"
[ -f "$page" ]; status_ok $? "doc/sysbench.1 exists"

if command -v groff >/dev/null; then
  warnings=$(groff -man -ww -z "$page" 2>&1)
  is "$warnings" "" "groff reads it without a warning"
else
  skip "groff is not installed"
fi

if ! command -v man >/dev/null; then
  if [ "${CI:-}" = true ]; then fail "man is installed (scripts/setup.sh --test installs man-db)"
  else skip "man is not installed (apt-get install man-db)"; fi
  done_testing
  exit
fi
if [ ! -f "$SRCDIR/Makefile" ]; then
  skip "no configured build tree in $SRCDIR to install from"
  done_testing
  exit
fi

dest="$TEST_TMP/dest"
make -s -C "$SRCDIR" install DESTDIR="$dest" >"$TEST_TMP/install.log" 2>&1
status_ok $? "make install DESTDIR=... succeeds"
installed=$(find "$dest" -path '*/man1/sysbench.1' | head -1)
[ -n "$installed" ]; status_ok $? "make install puts the page in man1 under the man directory"
cmp -s "$installed" "$page"; status_ok $? "... unchanged"
mandir=${installed%/man1/sysbench.1}

found=$(MANPATH="$mandir:/usr/share/man" man -w sysbench 2>/dev/null | head -1)
is "$found" "$installed" "man finds the installed page first (ahead of /usr/share/man)"
text=$(MANPATH="$mandir" MANWIDTH=100 man -P cat sysbench 2>&1)
like "$text" "^SYSBENCH\(1\) +User Commands" "man sysbench shows it"
for section in NAME SYNOPSIS DESCRIPTION COMMANDS TESTS OPTIONS DRIVERS OUTPUT "RESULT FILES" \
               "THREAD SWEEP" "SEVERAL CLIENTS" "EXIT STATUS" EXAMPLES; do
  like "$text" "
$section
" "section $section"
done
for item in "--threads=N" "--percentile=P" "--report-format=\{text\|json\|csv\}" "--report-file=PATH" \
            "--start-at=TIME" "--db-driver=NAME" "--mysql-host" "--pgsql-sslmode" "--tidb-retry-errors" \
            "--rocksdb-path" "compare RESULT.json" "merge RESULT.json RESULT.json" "sysbench-result" \
            "sysbench merge c1.json c2.json > total.json" "verify" "prewarm" "--resume" \
            "--prepare-method" "--compat=RELEASE" "SYSBENCH_COMPAT" "sysbench-rebuilt" \
            "tool_commit"; do
  like "$text" "$item" "it covers $item"
done

done_testing
