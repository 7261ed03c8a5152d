-- sysbench.reporters: the report formatters scripts can install as report hooks
-- (sysbench.report_default / report_csv / report_json). Few scripts use them: this module is
-- loaded the first time a script reads one of the three, so the states of other scripts do
-- not carry it.

local ffi = require("ffi")

ffi.cdef[[
int log_timestamp_decimals(void);
int report_sql_line(char *buf, size_t len, unsigned threads, double seconds, double events,
                    double reads, double writes, double other, const char *percentile,
                    double latency_ms, double errors, double reconnects, bool lua_spelling);
]]

-- A report's time as the text reports print it: whole seconds as in 1.0 ("1"), with the
-- decimals a sub-second --report-interval needs otherwise ("0.5").
local function report_time(width, seconds)
   return string.format("%" .. width .. "." .. ffi.C.log_timestamp_decimals() .. "f", seconds)
end

-- Per-second rate of a counter over the reported interval.
local function rate(n, seconds)
   return n / seconds
end

-- --percentile as 1.0 prints it ("95"), or with its fraction (--percentile=99.9).
local function percentile_text()
   local p = sysbench.opt.percentile
   if p == math.floor(p) then return string.format("%u", p) end
   return tostring(p)
end

local line = ffi.new("char[?]", 512)

-- The default intermediate line of sysbench 1.0, formatted where the C report formats its
-- own (report.c), in 1.0's Lua spelling: "err/s" has no colon here, as in 1.0.
function sysbench.report_default(stat)
   local n = ffi.C.report_sql_line(line, 512, stat.threads_running, stat.time_interval,
                                   stat.events, stat.reads, stat.writes, stat.other,
                                   percentile_text(), stat.latency_pct * 1000, stat.errors,
                                   stat.reconnects, true)
   print("[ " .. report_time("", stat.time_total) .. "s ] " .. ffi.string(line, n))
end

-- What the CSV and JSON lines print, in their order: the time (`width` as report_time's),
-- threads, tps, qps, reads/s, writes/s, other/s, latency (ms), errors/s, reconnects/s.
local function interval_figures(stat, width, seconds)
   return report_time(width, stat.time_total),
          stat.threads_running,
          rate(stat.events, seconds),
          rate(stat.reads + stat.writes + stat.other, seconds),
          rate(stat.reads, seconds),
          rate(stat.writes, seconds),
          rate(stat.other, seconds),
          stat.latency_pct * 1000,
          rate(stat.errors, seconds),
          rate(stat.reconnects, seconds)
end

-- CSV: time,threads,tps,qps,reads/s,writes/s,other/s,latency_ms,errors/s,reconnects/s
function sysbench.report_csv(stat)
   local seconds = stat.time_interval
   print(string.format("%s,%u,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f",
                       interval_figures(stat, "", seconds)))
end

-- JSON: one object per report inside a JSON array; the closing bracket is written when the
-- reporting state closes (a finalizer on a sentinel object), as in 1.0.
function sysbench.report_json(stat)
   if not gobj then
      io.write('[\n')
      gobj = newproxy(true)
      getmetatable(gobj).__gc = function() io.write('\n]\n') end
   else
      io.write(',\n')
   end

   local seconds = stat.time_interval
   io.write(([[
  {
    "time": %s,
    "threads": %u,
    "tps": %4.2f,
    "qps": {
      "total": %4.2f,
      "reads": %4.2f,
      "writes": %4.2f,
      "other": %4.2f
    },
    "latency": %4.2f,
    "errors": %4.2f,
    "reconnects": %4.2f
  }]]):format(interval_figures(stat, "4", seconds)))
   io.stdout:flush()
end
