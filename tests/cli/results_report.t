#!/usr/bin/env bash
# results_report.t: what a run reports beyond 1.0.20's text: several percentiles at once, the
# SQL additions after 1.0.20's blocks (queries by statement kind, errors by code), and the
# machine-readable forms: --report-file (the JSON result document, lossless) and
# --report-format=json|csv on standard output with the text moved to standard error.
. "$(dirname "$0")/../lib/tap.sh"

py() { python3 - "$@"; }

# ---- several percentiles ----------------------------------------------------------------------
sb cpu --events=200 --cpu-max-prime=1000 --percentile=50,95,99.9 --report-interval=0.05 run
is "$rc" 0 "--percentile=50,95,99.9 runs"
is "$(printf '%s\n' "$out" | grep -cE '^ +[0-9.]+th percentile: +[0-9.]+$')" 3 \
   "one percentile line per value"
like "$out" "
         50th percentile: +[0-9.]+
         95th percentile: +[0-9.]+
       99.9th percentile: +[0-9.]+
         sum:" "in the order given, between max and sum, 99.9 right-aligned with the others"
widths=$(printf '%s\n' "$out" | grep -E '^ +(min|avg|max|sum|[0-9.]+th percentile):' |
         awk '{print length($0)}' | sort -u)
is "$widths" 53 "every latency line keeps 1.0.20's width (53 columns)"

sb cpu --events=50 --cpu-max-prime=1000 --percentile=95 run
is "$(printf '%s\n' "$out" | grep -E 'percentile:' | sed -E 's/[0-9]+\.[0-9]+$/N/')" \
   "         95th percentile:                        N" "--percentile=95 alone: 1.0.20's line"

printf 'function event() end\nsysbench.hooks.report_intermediate = function(s) end\n' | write e.lua
sb cpu --time=0.3 --cpu-max-prime=1000 --percentile=99,50 --report-interval=0.1 run
like "$out" "\[ 0\.1s \] thds: 1 eps: [0-9.]+ lat \(ms,99%\): [0-9.]+" \
     "the intermediate line shows the first percentile of the list"

for bad in "0,95" "50,101" "50,abc" "50,,95" "95,"; do
  sb cpu --events=5 --percentile="$bad" run
  is "$rc" 1 "--percentile=$bad is refused (exit 1)"
  like "$out$err" "percentile" "--percentile=$bad: the message names the option"
done

# ---- SQL additions after 1.0.20's blocks ---------------------------------------------------
sb oltp_read_write --mysql-dry-run --events=10 --report-file=sql.json run
is "$rc" 0 "a dry-run OLTP run with --report-file"
block=$(printf '%s\n' "$out" | sed -n '/^Queries by statement kind:/,$p')
is "$block" "Queries by statement kind:
    SELECT:                              140    ($(printf '%s\n' "$block" | sed -nE 's/^    SELECT: +140 +\(([0-9.]+) per sec\.\)$/\1/p') per sec.)
    INSERT:                              10     ($(printf '%s\n' "$block" | sed -nE 's/^    INSERT: +10 +\(([0-9.]+) per sec\.\)$/\1/p') per sec.)
    UPDATE:                              20     ($(printf '%s\n' "$block" | sed -nE 's/^    UPDATE: +20 +\(([0-9.]+) per sec\.\)$/\1/p') per sec.)
    DELETE:                              10     ($(printf '%s\n' "$block" | sed -nE 's/^    DELETE: +10 +\(([0-9.]+) per sec\.\)$/\1/p') per sec.)
    BEGIN:                               10     ($(printf '%s\n' "$block" | sed -nE 's/^    BEGIN: +10 +\(([0-9.]+) per sec\.\)$/\1/p') per sec.)
    COMMIT:                              10     ($(printf '%s\n' "$block" | sed -nE 's/^    COMMIT: +10 +\(([0-9.]+) per sec\.\)$/\1/p') per sec.)
    other statements:                    0      (0.00 per sec.)" \
   "oltp_read_write, 10 events: 140 select, 10 insert, 20 update, 10 delete, 10 begin, 10 commit"
like "$out" "Threads fairness:
    events \(avg/stddev\): +[0-9./]+
    execution time \(avg/stddev\): +[0-9./]+

Queries by statement kind:" "the block comes after 1.0.20's fairness block and its blank line"
unlike "$out" "Rows returned by reads:|Ignored errors by code" \
       "no rows line (a dry run reads no rows) and no error block (no errors)"
# $out loses the final newlines; the file keeps them
ends_blank() { tail -c 2 "$TEST_TMP/.out" | od -An -c | tr -d ' '; }
is "$(ends_blank)" '\n\n' "the block ends with a blank line, as each of 1.0.20's does"

# A script counting errors itself (no code): reported as "other".
cat <<'LUA' | write errs.lua
function thread_init() drv = sysbench.sql.driver(); con = drv:connect() end
function event()
  con:query("SELECT 1")
  ffi.C.sb_counter_inc(sysbench.tid, ffi.C.SB_CNT_ERROR)
end
LUA
sb errs.lua --mysql-dry-run --events=7 --report-file=errs.json run
like "$out" "Ignored errors by code:
    other codes:                         7      \([0-9.]+ per sec\.\)" \
     "errors without a code are listed as 'other codes' under Ignored errors by code"
is "$(ends_blank)" '\n\n' "... and a blank line closes the block after them too"
is "$(printf '%s\n' "$out" | grep -cE '^ +other: ')" 1 \
   "'other:' appears once, in 1.0.20's queries performed: ours never uses its labels"
is "$(py "$TEST_TMP/errs.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["runs"][0]["final"]
print(f["errors"], f["errors_by_code"], f["statements"]["select"])
PY
)" "7 {'other': 7} 7" "the result file has the same errors by code and statement counts"

# ---- the result file ------------------------------------------------------------------------
sb cpu --threads=2 --time=0.6 --cpu-max-prime=2000 --report-interval=0.2 \
   --percentile=50,99 --report-file=r.json run
is "$rc" 0 "cpu with --report-file"
events=$(field "$out" "total number of events:")
check=$(py "$TEST_TMP/r.json" "$events" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); events = int(sys.argv[2])
assert d["format"] == "sysbench-result" and d["version"] == 1, "format and version"
lay = d["histogram_layout"]
assert (lay["unit"], lay["exact_below"], lay["sub_bucket_bits"], lay["max_bits"],
        lay["buckets"]) == ("ns", 256, 7, 48, 5376), "layout"
r = d["runs"][0]
f = r["final"]
out = []
out.append(r["test"] == "cpu" and r["threads"] == 2)
out.append(f["events"] == events)
out.append(sum(c for _, c in f["histogram"]) == events)
out.append(sum(f["thread_events"]) == events and len(f["thread_events"]) == 2)
out.append(f["latency_sum_ns"] == sum(f["thread_time_ns"]))
out.append(f["latency_min_ns"] <= f["latency_max_ns"])
idx = [i for i, _ in f["histogram"]]
out.append(idx == sorted(set(idx)))
# what the code decides, whatever the machine's load: ticks at 0.2 s steps, each interval's
# rate its events over its measured duration
ivs = r["intervals"]
out.append(len(ivs) >= 2 and [round(i["time"], 6) for i in ivs] ==
           [round(0.2 * (k + 1), 6) for k in range(len(ivs))] and
           all(i["duration"] > 0 and abs(i["tps"] - i["events"] / i["duration"]) <=
               0.001 * i["tps"] + 0.1 for i in ivs))
out.append(r["percentiles"] == [50, 99] and set(r["summary"]["latency_ms"]) >= {"p50", "p99"})
out.append(r["report_interval"] == 0.2 and r["limits"]["time"] == 0.6)
out.append(r["clients"][0]["threads"] == 2 and r["clients"][0]["cpus"] >= 1)
out.append(r["command_line"][1:] == ["cpu", "--threads=2", "--time=0.6", "--cpu-max-prime=2000",
           "--report-interval=0.2", "--percentile=50,99", "--report-file=r.json", "run"])
print(" ".join("ok" if x else "FAIL%d" % n for n, x in enumerate(out)))
PY
)
is "$check" "ok ok ok ok ok ok ok ok ok ok ok ok" \
   "the document: test, events = text's = histogram total = per-thread sum, intervals, percentiles, command line"

# Without --report-interval a recorded run still keeps an interval each second, silently.
sb cpu --time=1.3 --cpu-max-prime=2000 --report-file=quiet.json run
unlike "$out" "^\[ " "no intermediate lines without --report-interval"
is "$(py "$TEST_TMP/quiet.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(len(r["intervals"]), r["report_interval"])
PY
)" "1 1" "... but the file has one interval per second"

# Passwords never reach the file.
sb oltp_point_select --mysql-dry-run --events=3 --mysql-password=s3cr3t-pw --report-file=pw.json run
is "$rc" 0 "a run with --mysql-password and --report-file"
unlike "$(cat "$TEST_TMP/pw.json")" "s3cr3t-pw" "the password is in neither the options nor the command line"
like "$(cat "$TEST_TMP/pw.json")" '"--mysql-password=\*\*\*\*\*"' "the command line shows it masked"

sb cpu --events=5 --report-file="$TEST_TMP/no/such/dir/r.json" run
is "$rc" 1 "a result file in a missing directory is refused before the run"
like "$out" "^FATAL: Cannot write the result file '.*/no/such/dir/r.json': No such file or directory" \
     "... with the file and the reason"
unlike "$out" "Threads started" "... and nothing runs"

# ---- --report-format=json / csv -------------------------------------------------------------
sb cpu --events=100 --cpu-max-prime=1000 --report-format=json run
is "$rc" 0 "--report-format=json"
printf '%s' "$out" > "$TEST_TMP/stdout.json"
is "$(py "$TEST_TMP/stdout.json" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
print(d["format"], d["runs"][0]["final"]["events"])
PY
)" "sysbench-result 100" "standard output is the JSON document alone"
like "$err" "General statistics:" "the text report goes to standard error"

sb cpu --time=0.5 --cpu-max-prime=1000 --report-interval=0.1 --report-format=csv --percentile=95,99 run
is "$rc" 0 "--report-format=csv"
header=$(printf '%s\n' "$out" | head -1)
is "$header" "threads,kind,time,duration,events,tps,qps,reads_per_sec,writes_per_sec,other_per_sec,errors_per_sec,reconnects_per_sec,rows_per_sec,latency_avg_ms,latency_min_ms,latency_max_ms,latency_p95_ms,latency_p99_ms" \
   "the CSV header names every column, one per percentile"
is "$(printf '%s\n' "$out" | awk -F, '{print NF}' | sort -u)" 18 "every row has as many fields as the header"
num_cmp "$(printf '%s\n' "$out" | grep -c ',interval,')" ">=" 4 "a row per interval"
final_events=$(printf '%s\n' "$out" | awk -F, '$2 == "final" {print $5}')
is "$final_events" "$(field "$err" "total number of events:")" "the final row's events are the text report's"
unlike "$out" "General statistics" "standard output holds the CSV only"

sb cpu --events=5 --report-format=xml run
is "$rc" 1 "--report-format=xml is refused"
like "$out$err" "report-format" "... naming the option"

done_testing
