#!/usr/bin/env bash
# lua_hooks_reports.t: the life cycle of a Lua test and its hooks: init / thread_init / event /
# thread_done / done in order, one Lua state per thread (globals not shared), the event
# restart protocol, a truthy event() return ending the thread, an overridable thread_run,
# sysbench.report_default / report_csv / report_json as intermediate hooks (1.0.20's exact
# line formats, JSON's closing bracket) and the report_cumulative hook with its stat fields.
. "$(dirname "$0")/../lib/tap.sh"

write life.lua <<'LUA'
counter = 0
print("body tid=" .. sysbench.tid)
function init() counter = 1000; print("init tid=" .. sysbench.tid) end
function thread_init(tid) print("thread_init " .. tid .. " counter=" .. counter); counter = tid * 100 end
function event(tid) counter = counter + 1 end
function thread_done(tid) print("thread_done " .. tid .. " counter=" .. counter) end
function done() print("done counter=" .. counter) end
LUA
sb life.lua run --threads=2 --events=10 --time=0
is "$rc" 0 "a script with every callback runs"
order=$(printf '%s\n' "$out" | grep -E '^(body|init|thread_init|thread_done|done)' |
        sed -E 's/ .*//' | awk '!seen[$0]++' | tr '\n' ' ')
is "$order" "body init thread_init thread_done done " \
   "order: body (main state), init, thread_init (after each worker state ran the body), thread_done, done"
is "$(count "$out" '^body')" 3 "the script body runs once per state: main + 2 workers"
like "$out" "init tid=0" "init() runs in the main state, where sysbench.tid is 0"
is "$(printf '%s\n' "$out" | grep '^thread_init' | sort | tr '\n' ' ')" \
   "thread_init 0 counter=0 thread_init 1 counter=0 " \
   "each worker has its own globals: init()'s counter=1000 is not seen by thread_init"
is "$(printf '%s\n' "$out" | grep '^thread_done' | sed -E 's/ [0-9]+ counter=/ /' |
      awk '{s += $2 % 100} END {print s}')" 10 "the 10 events were counted in the workers' own states"
like "$out" "done counter=1000" "done() runs in the main state, untouched by the workers"
num_cmp "$(line_of "$out" '^init tid')" "<" "$(line_of "$out" '^Running the test with following options:')" \
        "init() runs before the run mode is printed"
num_cmp "$(line_of "$out" '^Threads started!')" "<" "$(line_of "$out" '^thread_done')" \
        "thread_done() runs after the threads started"

# ---- restarts, truthy return, thread_run --------------------------------------------------

write restart.lua <<'LUA'
local calls, restarts = 0, 0
function event()
  calls = calls + 1
  if calls % 3 == 1 then
    error({errcode = sysbench.error.RESTART_EVENT, tag = "retry me"})
  end
end
sysbench.hooks.before_restart_event = function(err)
  assert(err.tag == "retry me")
  restarts = restarts + 1
end
function thread_done() print("calls=" .. calls .. " restarts=" .. restarts) end
LUA
sb restart.lua run --events=20 --time=0
is "$rc" 0 "an event raising RESTART_EVENT does not fail the run"
like "$out" "calls=30 restarts=10" \
     "each RESTART_EVENT error re-runs the event after before_restart_event(err)"
like "$out" "total number of events: +20$" "a restarted event is counted once"

write stop.lua <<'LUA'
local calls = 0
function event()
  calls = calls + 1
  if calls == 5 then return true end
end
function thread_done(tid) print("thread " .. tid .. " calls=" .. calls) end
LUA
sb stop.lua run --threads=2 --time=0 --events=1000
is "$(printf '%s\n' "$out" | grep '^thread ' | sort | tr '\n' ' ')" "thread 0 calls=5 thread 1 calls=5 " \
   "an event() returning true ends its thread"
like "$out" "total number of events: +8$" "the event that returned true is not counted"

write own_run.lua <<'LUA'
function event() error("the built-in loop must not run") end
function thread_run(tid)
  local n = 0
  while ffi.C.sb_more_events(tid) do
    ffi.C.sb_event_start(tid)
    n = n + 1
    ffi.C.sb_event_stop(tid)
  end
  print("own thread_run " .. tid .. " ran " .. n)
end
LUA
sb own_run.lua run --events=50 --time=0
is "$rc" 0 "a script may replace thread_run"
like "$out" "own thread_run 0 ran 50" "... and drive the events itself through FFI"
like "$out" "total number of events: +50$" "... which are counted as usual"

# ---- report hooks -------------------------------------------------------------------------

write hooks.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
function event() ffi.C.usleep(2000) end
function init() set_in_init = "yes" end
sysbench.hooks.report_intermediate = sysbench[os.getenv("REPORTER") or "report_default"]
if os.getenv("CUMULATIVE") then
  function sysbench.hooks.report_cumulative(s)
    local keys = {}
    for k, v in pairs(s) do keys[#keys + 1] = k .. ":" .. type(v) end
    table.sort(keys)
    print("cumulative fields " .. table.concat(keys, " "))
    print("cumulative sees init's global: " .. tostring(set_in_init))
    print(string.format("latency min<=avg<=max: %s, sum/avg = events: %s, in seconds: %s",
      tostring(s.latency_min <= s.latency_avg and s.latency_avg <= s.latency_max),
      tostring(math.abs(s.latency_sum / s.latency_avg - s.events) < 0.5),
      tostring(s.latency_avg > 0.0015 and s.latency_avg < 0.5)))
    print(string.format("pct within [min,max]: %s",
      tostring(s.latency_pct >= s.latency_min and s.latency_pct <= s.latency_max)))
  end
end
LUA

sb hooks.lua run --threads=2 --time=2 --report-interval=1
is "$rc" 0 "sysbench.report_default as the intermediate hook"
like "$out" '^\[ 1s \] thds: 2 tps: [0-9]+\.[0-9]{2} qps: 0\.00 \(r/w/o: 0\.00/0\.00/0\.00\) lat \(ms,95%\): [0-9]+\.[0-9]{2} err/s 0\.00 reconn/s: 0\.00$' \
     "report_default prints 1.0.20's line, 'err/s' without a colon included"

# report_default formats its line where the C report formats its own (report.c): the bytes
# must stay those of the Lua formatter it replaced (1.0.20's, kept here verbatim), for
# fractional stamps and percentiles, big counts and an empty interval (1.0.20's Lua divides
# by it anyway: inf / nan).
write report_bytes.lua <<'LUA'
ffi.cdef "int log_timestamp_decimals(void);"
local function report_time(width, seconds)
   return string.format("%" .. width .. "." .. ffi.C.log_timestamp_decimals() .. "f", seconds)
end
local function rate(n, seconds) return n / seconds end
local function percentile_text()
   local p = sysbench.opt.percentile
   if p == math.floor(p) then return string.format("%u", p) end
   return tostring(p)
end
local function lua_1_0_line(stat)
   local seconds = stat.time_interval
   return string.format("[ %ss ] thds: %u tps: %4.2f qps: %4.2f " ..
                          "(r/w/o: %4.2f/%4.2f/%4.2f) lat (ms,%s%%): %4.2f " ..
                          "err/s %4.2f reconn/s: %4.2f",
                       report_time("", stat.time_total), stat.threads_running,
                       rate(stat.events, seconds),
                       rate(stat.reads + stat.writes + stat.other, seconds),
                       rate(stat.reads, seconds), rate(stat.writes, seconds),
                       rate(stat.other, seconds), percentile_text(),
                       stat.latency_pct * 1000, rate(stat.errors, seconds),
                       rate(stat.reconnects, seconds))
end
function event() end
function done()
  local stats = {
    {threads_running = 2, time_interval = 1, time_total = 1, events = 1234, reads = 17276,
     writes = 4936, other = 2468, latency_pct = 0.00123, errors = 3, reconnects = 1},
    {threads_running = 64, time_interval = 0.5, time_total = 10.5, events = 7, reads = 0,
     writes = 0, other = 0, latency_pct = 12.3456, errors = 0, reconnects = 0},
    {threads_running = 1, time_interval = 0.999999, time_total = 3600.25, events = 2^40,
     reads = 2^41, writes = 3, other = 1, latency_pct = 1e-7, errors = 2^33, reconnects = 5},
    {threads_running = 1, time_interval = 0, time_total = 0, events = 5, reads = 1,
     writes = 2, other = 3, latency_pct = 0, errors = 0, reconnects = 0},
    {threads_running = 3, time_interval = 0, time_total = 2, events = 0, reads = 0,
     writes = 0, other = 0, latency_pct = 0, errors = 0, reconnects = 0},
  }
  local real_print = print
  for i, s in ipairs(stats) do
    local got
    print = function(line) got = line end
    sysbench.report_default(s)
    print = real_print
    local want = lua_1_0_line(s)
    print(got == want and ("stat " .. i .. " same") or ("stat " .. i .. ": " .. got .. " | " .. want))
  end
end
LUA
for pct in 95 99.9 99.123456789012; do
  sb report_bytes.lua run --events=1 --time=0 --report-interval=0.5 --percentile=$pct
  is "$(printf '%s\n' "$out" | grep '^stat ' | tr '\n' ' ')" \
     "stat 1 same stat 2 same stat 3 same stat 4 same stat 5 same " \
     "report_default prints the bytes 1.0.20's Lua formatter printed (--percentile=$pct)"
done

REPORTER=report_csv sb hooks.lua run --threads=2 --time=2 --report-interval=1
like "$out" '^1,2,[0-9]+\.[0-9]{2},0\.00,0\.00,0\.00,0\.00,[0-9]+\.[0-9]{2},0\.00,0\.00$' \
     "report_csv prints time,threads,tps,qps,r,w,o,latency,err/s,reconn/s"

REPORTER=report_json sb hooks.lua run --threads=2 --time=2 --report-interval=1
json=$(printf '%s\n' "$out" | sed -n '/^\[$/,/^\]$/p')
is "$(mask "$json" | sed -n '1,14p')" '[
  {
    "time":    N,
    "threads": N,
    "tps": N,
    "qps": {
      "total": N,
      "reads": N,
      "writes": N,
      "other": N
    },
    "latency": N,
    "errors": N,
    "reconnects": N' "report_json prints 1.0.20's objects"
is "$(printf '%s\n' "$json" | grep -cE '^  \},?$')" "$(printf '%s\n' "$json" | grep -c '^  {$')" \
   "report_json writes one object per report, separated by commas"
is "$(printf '%s\n' "$json" | tail -1)" "]" "report_json closes the array"
num_cmp "$(line_of "$out" '^\]$')" "<" "$(line_of "$out" '^General statistics:')" \
        "... before the final report, as in 1.0.20"
if command -v python3 >/dev/null; then
  printf '%s\n' "$json" | python3 -m json.tool >/dev/null 2>&1
  status_ok $? "report_json output is valid JSON"
else
  skip "python3 not installed"
fi

write ihook.lua <<'LUA'
ffi.cdef "int usleep(unsigned int);"
function event() ffi.C.usleep(1000) end
function sysbench.hooks.report_intermediate(s)
  local keys = {}
  for k, v in pairs(s) do keys[#keys + 1] = k end
  table.sort(keys)
  print("intermediate fields " .. table.concat(keys, " "))
  print(string.format("intermediate tid=%d interval=%s total=%.0f threads=%d events>0=%s",
    sysbench.tid, tostring(s.time_interval > 0.5 and s.time_interval < 1.5), s.time_total,
    s.threads_running, tostring(s.events > 0)))
end
LUA
sb ihook.lua run --threads=2 --time=2 --report-interval=1
like "$out" "intermediate fields concurrency errors events latency_pct other queue_length reads reconnects( rows)? threads_running time_interval time_total writes" \
     "the intermediate stat table has 1.0.20's fields"
like "$out" "intermediate tid=2 interval=true total=1 threads=2 events>0=true" \
     "report_intermediate runs in a background state (tid = threads) with per-interval values"

CUMULATIVE=1 sb hooks.lua run --threads=2 --time=1
like "$out" "cumulative fields errors:number events:number latency_avg:number latency_max:number latency_min:number latency_pct:number latency_sum:number other:number reads:number reconnects:number( rows:number)? threads_running:number time_interval:number time_total:number writes:number" \
     "report_cumulative gets 1.0.20's fields, latency_min/max/avg/sum included"
like "$out" "cumulative sees init's global: yes" "report_cumulative runs in the main state"
like "$out" "latency min<=avg<=max: true, sum/avg = events: true, in seconds: true" \
     "latency_min <= latency_avg <= latency_max, latency_sum = avg * events, in seconds"
like "$out" "pct within \[min,max\]: true" "latency_pct lies within [latency_min, latency_max]"
unlike "$out" "General statistics" "a report_cumulative hook replaces the default report"

# Interval reports and a script's print() from worker threads share stdout: each line stays
# whole (the logger holds stdout's lock across its stdio calls; print writes a line at once).
write printer.lua <<'LUA'
function event() print("event line from a worker thread") end
LUA
sb printer.lua run --threads=2 --time=1 --report-interval=0.01
reports=$(count "$out" '^\[ [0-9.]+s \] thds: [0-9]+ eps: ')
num_cmp "$reports" ">" 10 "interval reports printed between the workers' lines ($reports)"
broken=$(printf '%s\n' "$out" | sed -n '/^Threads started!$/,/^General statistics:$/p' |
         grep -vE '^(|Threads started!|General statistics:|event line from a worker thread|\[ [0-9.]+s \] thds: [0-9]+ eps: .*)$' |
         head -3)
is "$broken" "" "no line of a report or of print() is cut by another thread's output"

done_testing
