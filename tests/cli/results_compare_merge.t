#!/usr/bin/env bash
# results_compare_merge.t: `sysbench compare` (text and HTML with ratios to the first file) and
# `sysbench merge` (several clients as one run: counts added, histograms merged exactly,
# intervals aligned on the wall clock, --start-at to start clients together), their error
# cases (bad files, mismatched runs), and how the commands are told apart from tests.
. "$(dirname "$0")/../lib/tap.sh"

py() { python3 - "$@"; }

sb cpu --events=300 --cpu-max-prime=1500 --report-file=a.json run
sb cpu --events=500 --threads=2 --cpu-max-prime=1500 --report-file=b.json run
sb cpu --events=400 --cpu-max-prime=1500 --report-file=c.json run

# ---- compare ----------------------------------------------------------------------------------
sb compare a.json c.json
is "$rc" 0 "compare two result files"
like "$out" "^Comparing 2 result files \(ratios to A, each with its noise band\):
  A   a.json: cpu, threads 1, " "it names the files and what they ran"
like "$out" "1 thread:
 +A +B +B/A
  tps +[0-9.]+ +[0-9.]+ +[0-9.]+x ±\?
  latency avg \(ms\) +[0-9.]+ +[0-9.]+ +[0-9.]+x ±\?
  latency p50 \(ms\)" "per thread count: each figure of each file and the ratio to the first (no intervals: noise unknown)"
like "$out" "  latency p95 \(ms\) .*
  latency p99 \(ms\) .*
  latency max \(ms\) .*
  errors/s +0\.00 +0\.00 +-" "percentiles, maximum and errors; no ratio to a zero"
tps_a=$(printf '%s\n' "$out" | awk '$1 == "tps" {print $2}')
tps_c=$(printf '%s\n' "$out" | awk '$1 == "tps" {print $3}')
ratio=$(printf '%s\n' "$out" | awk '$1 == "tps" {sub(/x$/, "", $4); print $4}')
num_cmp "$(awk -v a="$tps_a" -v c="$tps_c" -v r="$ratio" 'BEGIN {d = c / a - r; print (d < 0 ? -d : d)}')" "<" 0.002 \
        "the ratio is B's value over A's"

# ---- compare: what differs, what failed, and the noise of each ratio -------------------------
sb oltp_point_select --mysql-dry-run --events=50 --report-file=ps.json run
sb oltp_point_select --mysql-dry-run --events=50 --table-size=1000 --report-file=ps1k.json run
sb compare a.json ps.json
like "$out" "^WARNING: B ran oltp_point_select, A ran cpu: their figures measure different work$" \
     "a cpu run against oltp_point_select: a warning"
like "$out" "^WARNING: B used the mysql driver, A no database driver$" "... and one for the driver"
sb compare ps.json ps1k.json
is "$(printf '%s\n' "$out" | grep -c '^WARNING:')" 1 "the same test with another table size: one warning"
like "$out" "^WARNING: B differs from A in options: table_size=1000 \(A: 10000\)$" \
     "... naming the option and both values, though A never typed it"
sb compare ps.json ps.json
unlike "$out" "WARNING" "a file against itself: nothing to warn about"

cat <<'LUA' | write fails.lua
function event() error("broken") end
LUA
sb fails.lua --events=5 --report-file=failed.json run
cat <<'LUA' | write initfails.lua
function thread_init() error("no server") end
function event() end
LUA
sb initfails.lua --events=5 --report-file=notstarted.json run
sb compare a.json failed.json notstarted.json
like "$out" "^WARNING: B: the run with 1 threads failed \(exit code 1\): its figures cover what ran until then: " \
     "a run that failed: a warning"
like "$out" "^WARNING: C: the run with 1 threads failed before its measurement began \(exit code 1\), it has no figures: .*no server" \
     "a run that never started: a warning with its error"
like "$out" "^  tps +[0-9.]+ +[0-9.]+ +- +[0-9.]+x ±\? +-$" "... and '-' for its figures and ratio"

# The noise band: ratio x sqrt(cvA^2 + cvB^2), cv the spread of each run's interval figures.
sb cpu --time=2 --report-interval=0.2 --cpu-max-prime=1500 --report-file=n1.json run
sb cpu --time=2 --report-interval=0.2 --cpu-max-prime=1500 --report-file=n2.json run
sb compare n1.json n2.json
band=$(printf '%s\n' "$out" | awk '$1 == "tps" {print $4 " " $5}')
want=$(py "$TEST_TMP/n1.json" "$TEST_TMP/n2.json" <<'PY'
import json, math, statistics, sys
def tps(path):
    r = json.load(open(path))["runs"][0]
    f = r["final"]
    v = [i["events"] / i["duration"] for i in r["intervals"] if i["duration"] > 0]
    cv = statistics.stdev(v) / statistics.mean(v) if len(v) >= 3 else None
    return f["events"] / f["duration"], cv
(a, ca), (b, cb) = tps(sys.argv[1]), tps(sys.argv[2])
q = b / a
if ca is None or cb is None:           # a loaded machine skipped ticks: fewer than 3
    print("%.3fx ±?" % q)
else:
    print("%.3fx ±%.3f" % (q, q * math.sqrt(ca * ca + cb * cb)))
PY
)
is "$band" "$want" "the tps ratio's band is recomputed from the files' intervals by the documented rule"
like "$out" "^±: the noise band of a ratio" "a line says what the band is"

sb compare a.json b.json --html=ab.html
is "$rc" 0 "compare runs of different thread counts, with --html"
like "$out" "Runs:
 +A +B +B/A
  threads +1 +2" "single runs of different thread counts are compared side by side"
like "$out" "HTML page: ab.html" "it names the page"
html=$(cat "$TEST_TMP/ab.html")
like "$html" "<svg class=\"chart\"" "the page holds SVG charts"
like "$html" ">Latency percentiles</text>" "... latency percentiles"
like "$html" ">Throughput per thread count</text>" "... throughput per thread count"
unlike "$html" "<script|(src|href)=\"?(https?:)?//" "... and no scripts or links to fetch"

sb compare a.json
is "$rc" 0 "compare one file: its figures"
like "$out" "^Result file:" "... shown alone"

# ---- merge: exact sums --------------------------------------------------------------------
sb merge a.json b.json c.json
is "$rc" 0 "merge three result files"
printf '%s' "$out" > "$TEST_TMP/total.json"
check=$(py "$TEST_TMP/a.json" "$TEST_TMP/b.json" "$TEST_TMP/c.json" "$TEST_TMP/total.json" <<'PY'
import json, sys
from collections import Counter
parts = [json.load(open(p))["runs"][0] for p in sys.argv[1:4]]
t = json.load(open(sys.argv[4]))["runs"][0]
f, fs = t["final"], [p["final"] for p in parts]
out = []
for key in ("events", "reads", "writes", "other", "errors", "reconnects", "rows", "latency_sum_ns"):
    out.append(f[key] == sum(x[key] for x in fs))
h = Counter()
for x in fs:
    for i, c in x["histogram"]:
        h[i] += c
out.append(dict((i, c) for i, c in f["histogram"]) == dict(h))
out.append([i for i, _ in f["histogram"]] == sorted(h))
out.append(f["thread_events"] == sum((x["thread_events"] for x in fs), []))
out.append(f["latency_min_ns"] == min(x["latency_min_ns"] for x in fs))
out.append(f["latency_max_ns"] == max(x["latency_max_ns"] for x in fs))
out.append(t["threads"] == 4 and len(t["clients"]) == 3)
out.append([c["source"] for c in t["clients"]] == ["a.json", "b.json", "c.json"])
print(" ".join("ok" if x else "FAIL%d" % n for n, x in enumerate(out)))
PY
)
is "$check" "ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok" \
   "merged = the sums: every count, every histogram bucket, per-thread events, min and max"

# The merged percentiles are those of the merged histogram, by the documented rule.
sb compare total.json
p99=$(printf '%s\n' "$out" | awk '$1 == "latency" && $2 == "p99" {print $4}')
want=$(py "$TEST_TMP/total.json" <<'PY'
import json, math, sys
f = json.load(open(sys.argv[1]))["runs"][0]["final"]
total = sum(c for _, c in f["histogram"])
rank = max(1, min(total, math.floor(total * 99 / 100 + 0.5)))
def value(i):                      # docs/results.md: the bucket's representative value
    if i < 256: return i
    shift = (i - 256) // 128 + 1
    low = (128 + (i - 256) % 128) << shift
    return low + (1 << (shift - 1))
seen = 0
for i, c in f["histogram"]:
    seen += c
    if seen >= rank: break
v = min(max(value(i), f["latency_min_ns"]), f["latency_max_ns"])
print("%.3f" % (v / 1e6))
PY
)
num_cmp "$p99" == "$want" "p99 of the merged file is recomputed from its histogram by the documented rule"

sb merge a.json c.json --report-file=ac.json
is "$rc|$out" "0|" "merge --report-file writes the file, nothing on standard output"
[ -s "$TEST_TMP/ac.json" ]; status_ok $? "... the file is there"

# ---- merge: one run is never counted twice ---------------------------------------------------
sb merge a.json a.json
is "$rc|$out" "1|" "the same file twice: refused, nothing on standard output"
like "$err" "^FATAL: a.json and a.json hold the same run \(cpu, 1 threads, started [0-9-]+ [0-9:]+ UTC on [^,]+, run id [0-9a-f]{32}\): merging would count it twice" \
     "... naming the files and the run"
cp "$TEST_TMP/a.json" "$TEST_TMP/a-copy.json"
sb merge a.json c.json a-copy.json
like "$rc|$err" "^1\|FATAL: a.json and a-copy.json hold the same run" "a copy under another name: refused"
sb merge total.json b.json
like "$rc|$err" "^1\|FATAL: total.json and b.json hold the same run" \
     "a client's file beside a merge that already holds it: refused"
py "$TEST_TMP/a.json" > "$TEST_TMP/a-v1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["version"] = 1
for r in d["runs"]:
    for c in r["clients"]:
        del c["run_id"], c["pid"]
print(json.dumps(d))
PY
sb merge a-v1.json c.json a-v1.json
like "$rc|$err" "^1\|FATAL: a-v1.json and a-v1.json hold the same run \(cpu, 1 threads, started [^)]* on [^,)]+\)" \
     "version 1 files (no run id): the same host and start time is the same run"
sb merge a-v1.json a.json
is "$rc" 1 "... also beside its version 2 original"

# ---- merge: clients started together with --start-at, intervals aligned -----------------------
start=$(( $(date +%s) + 3 ))
for c in 1 2; do
  # 2 s runs: merge tolerates clients starting 0.1 s apart, room for a busy machine's scheduling
  (cd "$TEST_TMP" && "$SB" cpu --time=2 --report-interval=0.5 --cpu-max-prime=1500 \
      --start-at="$start" --report-file=client$c.json run >"$TEST_TMP/client$c.out" 2>&1) &
done
wait
like "$(cat "$TEST_TMP/client1.out")" "Waiting [0-9.]+ seconds for the start time \(--start-at\)" \
     "--start-at: the client waits for the start time"
sb merge client1.json client2.json
is "$rc" 0 "merge two clients started with the same --start-at"
unlike "$err" "WARNING" "no warning: their windows line up"
printf '%s' "$out" > "$TEST_TMP/clients.json"
check=$(py "$TEST_TMP/client1.json" "$TEST_TMP/client2.json" "$TEST_TMP/clients.json" "$start" <<'PY'
import json, sys
a, b, t = (json.load(open(p))["runs"][0] for p in sys.argv[1:4])
start_ns = int(sys.argv[4]) * 10**9
# never before the start time; after it by no more than a loaded machine's scheduling delay
out = [0 <= r["start_unix_ns"] - start_ns < 2_000_000_000 for r in (a, b)]
n = max(len(a["intervals"]), len(b["intervals"]))
out.append(len(t["intervals"]) == n)
out.append(all(t["intervals"][k]["events"] ==
               sum(r["intervals"][k]["events"] for r in (a, b) if k < len(r["intervals"]))
               for k in range(n)))
out.append(t["start_unix_ns"] == min(a["start_unix_ns"], b["start_unix_ns"]))
print(" ".join("ok" if x else "FAIL%d" % n for n, x in enumerate(out)))
PY
)
is "$check" "ok ok ok ok ok" "both started at --start-at; merged interval k = the sum of each client's interval k"

sb merge a.json b.json
like "$err" "^WARNING: the cpu runs started up to [0-9.]+ seconds apart \(start the clients with --start-at\)" \
     "clients that ran one after the other: a warning, on standard error"

# ---- errors ---------------------------------------------------------------------------------
expect_fail() {   # expect_fail NAME REGEX ARGS...
  local name=$1 re=$2
  shift 2
  sb "$@"
  is "$rc" 1 "$name: exit code 1"
  like "$err" "$re" "$name: one clear line"
}
printf '{"format": "sysbench-result", "version": 1,' | write truncated.json
printf 'hello\n' | write text.json
printf '{"format": "other"}\n' | write other.json
sed 's/"version": 2/"version": 99/' "$TEST_TMP/a.json" | write v99.json
sed 's/"sub_bucket_bits": 7/"sub_bucket_bits": 5/' "$TEST_TMP/a.json" | write layout.json
py "$TEST_TMP/a.json" > "$TEST_TMP/nohist.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["runs"][0]["final"]["histogram"] = d["runs"][0]["final"]["histogram"][1:]
print(json.dumps(d))
PY
py "$TEST_TMP/a.json" > "$TEST_TMP/noevents.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); del d["runs"][0]["final"]["events"]
print(json.dumps(d))
PY
py "$TEST_TMP/a.json" > "$TEST_TMP/negative.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["runs"][0]["final"]["reads"] = -3
print(json.dumps(d))
PY
sb memory --memory-total-size=64K --report-file=mem.json run
sb cpu --threads=1,2 --events=20 --cpu-max-prime=500 --report-file=sweep.json run
sb cpu --time=0.3 --cpu-max-prime=1500 --report-interval=0.1 --report-file=i1.json run   # ticks at 0.1 s and 0.2 s, whatever the speed

expect_fail "merge of one file" "^FATAL: sysbench merge needs at least two result files" merge a.json
expect_fail "a missing file" "^FATAL: nosuch.json: cannot open: No such file or directory" merge a.json nosuch.json
expect_fail "a truncated file" "^FATAL: truncated.json: not JSON: line 1, column [0-9]+: " compare truncated.json
expect_fail "not JSON at all" "^FATAL: text.json: not JSON: line 1, column 1: " compare text.json
expect_fail "another JSON document" "^FATAL: other.json: not a sysbench result file" compare other.json
expect_fail "a newer format version" "^FATAL: v99.json: result format version 99; this sysbench reads versions 1 to 2" merge a.json v99.json
expect_fail "another histogram layout" "^FATAL: layout.json: histogram_layout: the histograms have another bucket layout" merge a.json layout.json
expect_fail "a histogram that does not hold the events" "^FATAL: nohist.json: runs\[0\]\.final\.histogram: holds [0-9]+ latencies, but the period has 300 events" compare nohist.json
expect_fail "a missing count" "^FATAL: noevents.json: runs\[0\]\.final\.events: missing" compare noevents.json
expect_fail "a negative count" "^FATAL: negative.json: runs\[0\]\.final\.reads: expected a non-negative integer, found -3" compare negative.json
expect_fail "different tests" "^FATAL: mismatched runs: a.json ran 'cpu', mem.json ran 'memory'" merge a.json mem.json
expect_fail "a sweep and a single run" "^FATAL: mismatched runs: a.json has 1 runs, sweep.json has 2" merge a.json sweep.json
expect_fail "intervals in one file only" "^FATAL: mismatched runs: i1.json has intervals, a.json has none" merge a.json i1.json
expect_fail "an unknown option" "^invalid option: --bogus" compare --bogus a.json
expect_fail "compare without files" "^FATAL: sysbench compare needs at least one result file" compare
sb compare help
is "$rc" 0 "sysbench compare help"
like "$out" "sysbench compare \[--html=PAGE\] RESULT.json" "... prints its usage"
sb merge help
like "$out" "sysbench merge \[--report-file=TOTAL.json\] RESULT.json RESULT.json" "sysbench merge help too"
sb compare --help
like "$out" "^Usage:
  sysbench \[options\]... \[testname\] \[command\]" "--help is 1.0.20's general help, before any test name"
sb --version merge a.json
is "$rc|$(printf '%s\n' "$out" | head -n 1)" "0|sysbench 1.0.20" "--version too"

# ---- telling the commands from tests -----------------------------------------------------
printf 'print("compare.lua ran: " .. tostring(sysbench.cmdline.command))\n' | write compare.lua
sb compare run
like "$out" "compare.lua ran: run
FATAL: cannot find the event\(\) function in compare" \
     "with ./compare.lua, 'sysbench compare run' runs the script (as 1.0.20: no event())"
sb compare
is "$rc|$(printf '%s\n' "$out" | tail -1)" "0|compare.lua ran: nil" \
   "... and 'sysbench compare' runs its body, exit 0"
printf 'print("merge script ran")\n' | write merge
sb merge a.json
like "$out$err" "merge script ran|Unrecognized|requires" "a file named 'merge' is a test, as in 1.0.20"
unlike "$err" "needs at least two result files" "... not the merge command"

done_testing
