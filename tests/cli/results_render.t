#!/usr/bin/env bash
# results_render.t: the charts as a person sees them. A sweep's SVG file and HTML page and a
# comparison page are rendered in headless Chromium; the screenshots must show, for every
# chart, the axis lines, the series colours inside the plot area and text where the title, the
# tick labels and the axis labels go (tests/lib/render_check.py reads the PNG with zlib). The
# SVG markup must hold the titles, labelled axes and points inside the plot area. A chart with
# its series removed must fail both checks. Without chromium the test is skipped, in CI
# (CI=true) it fails.
. "$(dirname "$0")/../lib/tap.sh"

CHECK="python3 $SRCDIR/tests/lib/render_check.py"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  if [ "${CI:-}" = true ]; then
    ok 1 "chromium is installed (scripts/setup.sh --test installs it; CI renders the charts)"
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
sb lat.lua --threads=1,2 --time=0.4 --report-interval=0.1 --report-file=t.json run
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
ok $? "Chromium renders the SVG file"
out=$($CHECK svg "$TEST_TMP/s.svg.png" 2 1f77b4 1f77b4,d62728 2>&1)
like "$out" "ok$" "the SVG screenshot: axes, the blue series, the blue and red latency series, labels"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'

shot "$TEST_TMP/s.html" 1400 2000 "$TEST_TMP/s.html.png"
ok $? "Chromium renders the sweep's page"
out=$($CHECK page "$TEST_TMP/s.html.png" 6 2>&1)
like "$out" "ok$" "the sweep's page shows 6 charts, each with axes and a series"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'

shot "$TEST_TMP/c.html" 1400 2000 "$TEST_TMP/c.html.png"
ok $? "Chromium renders the comparison page"
out=$($CHECK page "$TEST_TMP/c.html.png" 6 2>&1)
like "$out" "ok$" "the comparison page shows 6 charts, each with axes and a series"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'

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
sb lat.lua --threads=1,2 --time=0.4 --report-interval=0.1 --report-file=t.json run
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
ok $? "Chromium renders the SVG file"
out=$($CHECK svg "$TEST_TMP/s.svg.png" 2 1f77b4 1f77b4,d62728 2>&1)
like "$out" "ok$" "the SVG screenshot: axes, the blue series, the blue and red latency series, labels"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'

shot "$TEST_TMP/s.html" 1400 2000 "$TEST_TMP/s.html.png"
ok $? "Chromium renders the sweep's page"
out=$($CHECK page "$TEST_TMP/s.html.png" 6 2>&1)
like "$out" "ok$" "the sweep's page shows 6 charts, each with axes and a series"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'

shot "$TEST_TMP/c.html" 1400 2000 "$TEST_TMP/c.html.png"
ok $? "Chromium renders the comparison page"
out=$($CHECK page "$TEST_TMP/c.html.png" 6 2>&1)
like "$out" "ok$" "the comparison page shows 6 charts, each with axes and a series"
[ "$(printf '%s\n' "$out" | tail -1)" = ok ] || printf '%s\n' "$out" | sed 's/^/# /'

# ---- the checks can fail: a chart without its series ------------------------------------
awk '/<g class="series"/ {skip = 1} !skip {print} /<\/g>/ && skip {skip = 0}' \
    "$TEST_TMP/s.svg" > "$TEST_TMP/blank.svg"
unlike "$(cat "$TEST_TMP/blank.svg")" 'class="series"' "blank.svg: the same charts without their series"
shot "$TEST_TMP/blank.svg" 640 720 "$TEST_TMP/blank.png"
out=$($CHECK svg "$TEST_TMP/blank.png" 2 1f77b4 1f77b4,d62728 2>&1)
like "$out" "FAIL: chart 1: series colour #1f77b4 not in the plot area" \
     "the screenshot check fails on a chart without series"
out=$($CHECK structure "$TEST_TMP/blank.svg" 2 2>&1)
like "$out" "FAIL: chart 1 \(Throughput per thread count\): no series" \
     "the markup check fails on it too"
sed 's/class="axis x-axis"[^>]*>//' "$TEST_TMP/s.svg" > "$TEST_TMP/noaxis.svg"
shot "$TEST_TMP/noaxis.svg" 640 720 "$TEST_TMP/noaxis.png"
out=$($CHECK svg "$TEST_TMP/noaxis.png" 2 1f77b4 1f77b4,d62728 2>&1)
like "$out" "FAIL: chart 1: no x axis line" "... and on a chart without its x axis"

done_testing
