#!/usr/bin/env bash
# results_sweep.t: --threads=1,2 runs the test once per thread count, each run with its own
# warm-up and its own "Running the test" block, then a summary table, one result file holding
# every run, an SVG chart and an HTML page. A failing or stopped run ends the sweep with what
# was measured so far.
. "$(dirname "$0")/../lib/tap.sh"

py() { python3 - "$@"; }

# A script that says which thread count each worker state sees.
cat <<'LUA' | write threads.lua
function thread_init(tid)
  if tid == 0 then print("opt.threads=" .. sysbench.opt.threads) end
end
function event() end
LUA

sb threads.lua --threads=1,3 --time=0.4 --warmup-time=0.2 --report-file=s.json run
is "$rc" 0 "a sweep of 1 and 3 threads"
is "$(printf '%s\n' "$out" | grep -c '^Running the test with following options:$')" 2 \
   "each run prints its own run mode"
is "$(printf '%s\n' "$out" | grep -E '^Number of threads: ' | tr '\n' '|')" \
   "Number of threads: 1|Number of threads: 3|" "... with its own thread count"
is "$(printf '%s\n' "$out" | grep -c '^Warming up for 0.2 seconds')" 2 "each run warms up"
is "$(printf '%s\n' "$out" | grep -E '^opt.threads=' | tr '\n' '|')" "opt.threads=1|opt.threads=3|" \
   "scripts see sysbench.opt.threads of their run"
is "$(printf '%s\n' "$out" | grep -c '^General statistics:$')" 2 "each run prints its final report"
like "$out" "Thread sweep: run 1 of 2, 1 threads" "the runs are announced"
like "$out" "Thread sweep summary:
    threads          tps          qps   p95 \(ms\)   p99 \(ms\)     errors
          1 +[0-9.]+ +0\.00 +[0-9.]+ +[0-9.]+ +0
          3 +[0-9.]+ +0\.00 +[0-9.]+ +[0-9.]+ +0
" "the summary table: threads, tps, qps, p95, p99, errors"
like "$out" "Result file: s.json
Chart:       s.svg
Page:        s.html" "it names the files it wrote"
for f in s.json s.svg s.html; do
  [ -s "$TEST_TMP/$f" ]; status_ok $? "$f is written"
done

check=$(py "$TEST_TMP/s.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
out = [len(runs) == 2, [r["threads"] for r in runs] == [1, 3],
       all(r["limits"]["warmup_time"] == 0.2 for r in runs),
       all(sum(c for _, c in r["final"]["histogram"]) == r["final"]["events"] for r in runs),
       [len(r["final"]["thread_events"]) for r in runs] == [1, 3],
       runs[0]["start_unix_ns"] < runs[1]["start_unix_ns"]]
print(" ".join("ok" if x else "FAIL%d" % n for n, x in enumerate(out)))
PY
)
is "$check" "ok ok ok ok ok ok" "one file holds both runs, in order, each complete"

svg=$(cat "$TEST_TMP/s.svg")
like "$svg" '<text class="chart-title"[^>]*>Throughput per thread count</text>' "the SVG charts throughput per thread count"
like "$svg" '<text class="axis-label x-label"[^>]*>threads</text>' "... with 'threads' on the x axis"
like "$svg" '<text class="axis-label y-label"[^>]*>transactions per second</text>' "... and tps on the y axis"
like "$svg" '<text class="tick-label x-tick"[^>]*>3</text>' "... a tick per thread count"
like "$svg" '<text class="chart-title"[^>]*>Latency per thread count</text>' "the SVG charts p95/p99 latency"
unlike "$(cat "$TEST_TMP/s.html")" '(src|href)="?(https?:)?//' "the page fetches nothing"
like "$(cat "$TEST_TMP/s.html")" "<th>threads</th>" "the page has the per-thread-count table"

# Without --report-file the files get a name of their own in the current directory.
sb cpu --threads=1,2 --events=20 --cpu-max-prime=500 run
is "$rc" 0 "a sweep without --report-file"
name=$(printf '%s\n' "$out" | sed -n 's/^Result file: //p')
like "$name" '^sysbench-cpu-[0-9]{8}-[0-9]{6}\.json$' "the result file is named after the test and the time"
[ -s "$TEST_TMP/$name" ] && [ -s "$TEST_TMP/${name%.json}.svg" ] && [ -s "$TEST_TMP/${name%.json}.html" ]
status_ok $? "... and written with its chart and page"

# The summary's latency columns follow --percentile. Events of 1 and 5 ms: p50 is not p95.
cat <<'LUA' | write slow.lua
ffi.cdef("int usleep(unsigned int);")
local n = 0
function event()
  n = n + 1
  ffi.C.usleep(n % 2 == 0 and 5000 or 1000)
end
LUA
sb slow.lua --threads=1,2 --events=40 --percentile=50,99.9 --report-file=p.json run
like "$out" "Thread sweep summary:
    threads          tps          qps   p50 \(ms\) p99.9 \(ms\)     errors
          1 +[0-9.]+ +0\.00 +[0-9.]+ +[0-9.]+ +0
          2 +[0-9.]+ +0\.00 +[0-9.]+ +[0-9.]+ +0
" "--percentile=50,99.9: the summary shows p50 and p99.9"
p50=$(printf '%s\n' "$out" | awk '$1 == 2 && NF == 6 {print $4}')
want=$(py "$TEST_TMP/p.json" <<'PY'
import json, sys
print("%.2f" % json.load(open(sys.argv[1]))["runs"][1]["summary"]["latency_ms"]["p50"])
PY
)
is "$p50" "$want" "... the file's p50 of the run with 2 threads"
like "$(cat "$TEST_TMP/p.html")" '<td>A</td><td>p.json</td><td>slow.lua</td>' "the page's file column names the result file"

# --report-format=json without --report-file: the document on standard output, no files.
mkdir -p "$TEST_TMP/quiet"
sb_in "$TEST_TMP/quiet" cpu --threads=1,2 --events=20 --cpu-max-prime=500 --report-format=json run
is "$rc" 0 "a sweep with --report-format=json and no --report-file"
is "$(ls -A "$TEST_TMP/quiet")" "" "... writes no file into the current directory"
printf '%s' "$out" > "$TEST_TMP/quiet.json"
is "$(py "$TEST_TMP/quiet.json" <<'PY'
import json, sys
print([r["threads"] for r in json.load(open(sys.argv[1]))["runs"]])
PY
)" "[1, 2]" "... standard output holds its document"
unlike "$err" "Result file:" "... and it names no file"
sb_in "$TEST_TMP/quiet" cpu --threads=1,2 --events=20 --cpu-max-prime=500 --report-format=csv run
is "$rc|$(ls -A "$TEST_TMP/quiet")" "0|" "--report-format=csv: no file either"

# Machine-readable sweeps: one CSV header, one document.
sb cpu --threads=1,2 --events=30 --cpu-max-prime=500 --report-format=csv --report-file=c.json run
is "$(printf '%s\n' "$out" | grep -c '^threads,kind,')" 1 "CSV: one header for the whole sweep"
is "$(printf '%s\n' "$out" | awk -F, '$2 == "final" {print $1 ":" $5}' | tr '\n' ' ')" "1:30 2:30 " \
   "CSV: a final row per run"
sb cpu --threads=2,1 --events=30 --cpu-max-prime=500 --report-format=json --report-file=j.json run
printf '%s' "$out" > "$TEST_TMP/stdout.json"
is "$(py "$TEST_TMP/stdout.json" <<'PY'
import json, sys
print([r["threads"] for r in json.load(open(sys.argv[1]))["runs"]])
PY
)" "[2, 1]" "JSON: standard output holds one document with the runs in the order given"

# Bad lists.
for bad in "1,0" "1,,2" "2,x"; do
  sb cpu --threads="$bad" --events=5 run
  is "$rc" 1 "--threads=$bad is refused"
  like "$out$err" "threads" "--threads=$bad: the message names the option"
done
sb cpu --threads=1,2 --events=5 --time=0 --start-at=+5 run
is "$rc" 1 "--start-at with a sweep needs --time"
like "$out" "--start-at with a thread sweep needs --time" "... and says so"

# A failing run ends the sweep; what ran before is kept.
cat <<'LUA' | write fail2.lua
function event()
  if sysbench.opt.threads == 2 then error("broken at 2 threads") end
end
LUA
sb fail2.lua --threads=1,2,3 --events=10 --report-file=f.json run
is "$rc" 1 "a run that fails ends the sweep with exit code 1"
unlike "$out" "Thread sweep: run 3 of 3" "the runs after it do not start"
is "$(py "$TEST_TMP/f.json" <<'PY'
import json, sys
print([(r["threads"], r["exit_code"]) for r in json.load(open(sys.argv[1]))["runs"]])
PY
)" "[(1, 0), (2, 1)]" "the result file keeps the good run and the failed one (exit code 1)"

# SIGTERM to the sweep: the running run reports, the sweep stops and writes what it has.
(cd "$TEST_TMP" && exec "$SB" cpu --threads=1,2 --time=30 --cpu-max-prime=500 \
   --report-file=t.json run >"$TEST_TMP/term.out" 2>&1) &
pid=$!
for _ in $(seq 100); do
  grep -q "Threads started" "$TEST_TMP/term.out" 2>/dev/null && break
  sleep 0.1
done
kill -TERM "$pid"
wait "$pid"
is "$?" 143 "SIGTERM: the sweep exits 128+15"
term=$(cat "$TEST_TMP/term.out")
like "$term" "General statistics:" "the running run still prints its report"
unlike "$term" "run 2 of 2" "no further run starts"
is "$(py "$TEST_TMP/t.json" <<'PY'
import json, sys
print([(r["threads"], r["exit_code"]) for r in json.load(open(sys.argv[1]))["runs"]])
PY
)" "[(1, 143)]" "the result file holds the interrupted run"

done_testing
