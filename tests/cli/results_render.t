#!/usr/bin/env bash
# results_render.t: the charts as a person sees them. A sweep's SVG file and HTML page and a
# comparison page are rendered in headless Chromium; the screenshots must show, for every
# chart, the axis lines, the series colours inside the plot area and text where the title, the
# tick labels and the axis labels go (tests/lib/render_check.py reads the PNG with zlib). The
# SVG markup must hold the titles, labelled axes and points inside the plot area. A chart with
# its series removed must fail both checks. The pages' command lines, warnings and failed runs
# must show as their coloured boxes with text in them; an emptied box fails the check. Without
# chromium the test is skipped, in CI (CI=true) it fails.
. "$(dirname "$0")/../lib/tap.sh"

CHECK="python3 $SRCDIR/tests/lib/render_check.py"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  if [ "${CI:-}" = true ]; then
    fail "chromium is installed (scripts/setup.sh --test installs it; CI renders the charts)"
  else
    skip "chromium is not installed (apt-get install chromium): the charts are not rendered"
  fi
  done_testing
  exit
fi

# shot FILE WIDTH HEIGHT PNG: a screenshot of FILE, 1 CSS pixel = 1 pixel, no network.
shot() {
  rm -f "$4"
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-extensions --user-data-dir="$TEST_TMP/chrome-profile" --hide-scrollbars \
    --force-device-scale-factor=1 --window-size="$2,$3" --screenshot="$4" "file://$1" \
    >"$TEST_TMP/chrome.log" 2>&1
  [ -s "$4" ]
}

# Events of two speeds, so p95 and p99 differ and both latency series show.
cat <<'LUA' | write lat.lua
ffi.cdef("int usleep(unsigned int);")
local n = 0
function event()
  n = n + 1
  if n % 25 == 0 then ffi.C.usleep(2000) end
end
LUA
sb lat.lua --threads=1,2 --time=0.4 --report-interval=0.1 --report-file=s.json run
is "$rc" 0 "a sweep to draw"
sb lat.lua --threads=1,2 --time=0.4 --report-interval=0.1 --rand-type=uniform --report-file=t.json run
sb compare s.json t.json --html=c.html
is "$rc" 0 "a comparison page to draw"

# ---- the markup ---------------------------------------------------------------------------
for f in s.svg:2 s.html:6 c.html:6; do
  out=$($CHECK structure "$TEST_TMP/${f%%:*}" "${f##*:}" 2>&1)
  like "$out" "ok$" "${f%%:*}: ${f##*:} charts, each with a title, labelled axes, ticks and points in its plot area"
done
like "$($CHECK structure "$TEST_TMP/s.svg" 2)" \
     "chart 1 \(Throughput per thread count\): 1 series, labelled axes 'threads' / 'transactions per second'" \
     "the sweep's throughput chart: threads against transactions per second"
like "$($CHECK structure "$TEST_TMP/s.svg" 2)" \
     "chart 2 \(Latency per thread count\): 2 series, labelled axes 'threads' / 'latency \(ms\)'" \
     "the sweep's latency chart: p95 and p99 against threads"

# ---- what is on the screen ---------------------------------------------------------------------
shot "$TEST_TMP/s.svg" 640 720 "$TEST_TMP/s.svg.png"
status_ok $? "Chromium renders the SVG file"
out=$($CHECK svg "$TEST_TMP/s.svg.png" 2 1f77b4 1f77b4,d62728 2>&1)
like "$out" "ok$" "the SVG screenshot: axes, the blue series, the blue and red latency series, labels"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'

shot "$TEST_TMP/s.html" 1400 2000 "$TEST_TMP/s.html.png"
status_ok $? "Chromium renders the sweep's page"
out=$($CHECK page "$TEST_TMP/s.html.png" 6 2>&1)
like "$out" "ok$" "the sweep's page shows 6 charts, each with axes and a series"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'

shot "$TEST_TMP/c.html" 1400 2600 "$TEST_TMP/c.html.png"
status_ok $? "Chromium renders the comparison page"
out=$($CHECK page "$TEST_TMP/c.html.png" 6 2>&1)
like "$out" "ok$" "the comparison page shows 6 charts, each with axes and a series"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'

# ---- command lines, warnings and failed runs on the pages -------------------------------------
# box colours: src/results/html.c (command line, warnings, a failed run's row)
COMMAND=e3ebf6 WARNINGS=fff3cd FAILED=f8d7da
out=$($CHECK box "$TEST_TMP/s.html.png" 1 $COMMAND 2>&1)
like "$out" "ok$" "the sweep's page shows its command line, text in its box"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'
like "$(cat "$TEST_TMP/s.html")" '<pre class="command">sysbench[-a-z]* lat.lua --threads=1,2 --time=0.4 --report-interval=0.1 --report-file=s.json run</pre>' \
     "... the command line as typed"
like "$(cat "$TEST_TMP/s.html")" '<td>A</td><td>s.json</td><td>lat.lua</td>' \
     "its file column names the result file, not the test"
like "$(cat "$TEST_TMP/s.html")" '<th>exit code</th></tr>' "the per-thread table has an exit code column"
html=$(cat "$TEST_TMP/s.html")
like "$html" '^<tr><th>option</th><th>value</th><th>given</th></tr>$' "an options table"
like "$html" '^<tr><td>threads</td><td class="num">1</td><td>yes</td></tr>$' \
     "... with the options given (threads: the first run's count)"
like "$html" '^<tr><td>rand_type</td><td>special</td><td></td></tr>$' "... and the defaults"

out=$($CHECK box "$TEST_TMP/c.html.png" 2 $COMMAND 2>&1)
like "$out" "ok$" "the comparison page shows both command lines"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'
out=$($CHECK box "$TEST_TMP/c.html.png" 1 $WARNINGS 2>&1)
like "$out" "ok$" "the comparison page shows its warnings box (the runs' options differ)"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'
like "$(cat "$TEST_TMP/c.html")" '<p>WARNING: B differs from A in options: rand_type=uniform \(A: special\)</p>' \
     "... saying which option differs"
like "$(cat "$TEST_TMP/c.html")" '<td class="num">[0-9.]+x ±([0-9.]+|\?)</td>' "ratios come with their noise band"

# A sweep whose last run fails before its measurement: a red row, and a warning.
cat <<'LUA' | write fail3.lua
ffi.cdef("int usleep(unsigned int);")
local n = 0
function thread_init() if sysbench.opt.threads == 3 then error("no server for 3 threads") end end
function event()
  n = n + 1
  if n % 25 == 0 then ffi.C.usleep(2000) end
end
LUA
sb fail3.lua --threads=1,2,3 --time=0.4 --report-interval=0.1 --report-file=f.json run
is "$rc" 1 "a sweep whose run with 3 threads fails"
shot "$TEST_TMP/f.html" 1400 2000 "$TEST_TMP/f.html.png"
out=$($CHECK box "$TEST_TMP/f.html.png" 2 $FAILED 2>&1)
like "$out" "ok$" "its page shows the failed run in red twice (the file's exit codes, the run's row)"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'
out=$($CHECK box "$TEST_TMP/f.html.png" 1 $WARNINGS 2>&1)
like "$out" "ok$" "... and a warning"
like "$(cat "$TEST_TMP/f.html")" '<p>WARNING: A: the run with 3 threads failed before its measurement began \(exit code 1\), it has no figures: `thread_init&#39; function failed: fail3.lua:[0-9]+: no server for 3 threads</p>' \
     "... which says what failed"
out=$($CHECK page "$TEST_TMP/f.html.png" 6 2>&1)
like "$out" "ok$" "its 6 charts show the runs that ran (none is drawn empty for the failed one)"

# The box check can fail: a command line emptied, a page without warnings.
sed 's|<pre class="command">[^<]*</pre>|<pre class="command"></pre>|' "$TEST_TMP/s.html" > "$TEST_TMP/empty.html"
shot "$TEST_TMP/empty.html" 1400 2000 "$TEST_TMP/empty.png"
out=$($CHECK box "$TEST_TMP/empty.png" 1 $COMMAND 2>&1)
like "$out" "FAIL: #$COMMAND box 1 \([0-9]+x[0-9]+ at [0-9]+,[0-9]+\): no text inside" \
     "an empty command-line box fails the check"
out=$($CHECK box "$TEST_TMP/s.html.png" 1 $WARNINGS 2>&1)
like "$out" "FAIL: #$WARNINGS: 0 boxes of it on the screen, 1 expected" \
     "a page without warnings has no warnings box, and the check says so"

# ---- the checks can fail: a chart without its series, a chart without its x axis ----------
# broken.svg: chart 1 loses its series, chart 2 its x axis line.
awk '/<g class="series"/ && !done {skip = 1} !skip {print}
     /<\/g>/ && skip {skip = 0; done = 1}' "$TEST_TMP/s.svg" |
  awk '/class="axis x-axis"/ {n++; if (n == 2) next} {print}' > "$TEST_TMP/broken.svg"
is "$(grep -c 'class="series"' "$TEST_TMP/broken.svg")|$(grep -c 'class="axis x-axis"' "$TEST_TMP/broken.svg")" \
   "2|1" "broken.svg: chart 1 without its series, chart 2 without its x axis"
shot "$TEST_TMP/broken.svg" 640 720 "$TEST_TMP/broken.png"
out=$($CHECK --keep-going svg "$TEST_TMP/broken.png" 2 1f77b4 1f77b4,d62728 2>&1)
like "$out" "FAIL: chart 1: series colour #1f77b4 not in the plot area" \
     "the screenshot check fails on a chart without series"
like "$out" "FAIL: chart 2: no x axis line" "... and on a chart without its x axis"
out=$($CHECK structure "$TEST_TMP/broken.svg" 2 2>&1)
like "$out" "FAIL: chart 1 \(Throughput per thread count\): no series" \
     "the markup check fails on the chart without series"

done_testing
