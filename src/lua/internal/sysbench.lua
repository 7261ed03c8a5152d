-- sysbench: the event loop every worker runs, the hooks table, and the report formatters
-- scripts can install (sysbench.report_default / report_csv / report_json).

ffi = require("ffi")

ffi.cdef[[
void sb_event_start(int thread_id);
void sb_event_stop(int thread_id);
bool sb_more_events(int thread_id);
bool sb_event_next(int thread_id);
void sb_event_cancel(int thread_id);
]]

-- Events run inside one protected call rather than one pcall per event, so the loop stays a
-- compiled trace; an error thrown by event() ends the pcall and is handled below. After a
-- "restart event" error the same event runs again, its clock still running since its start.
local function run_events(thread_id, resume)
   local C = ffi.C
   if resume then
      if event(thread_id) then return true end
      if not C.sb_event_next(thread_id) then return false end
   else
      if not C.sb_more_events(thread_id) then return false end
      C.sb_event_start(thread_id)
   end
   repeat
      -- event() returning a true value ends this thread; that event is not counted.
      if event(thread_id) then return true end
   until not C.sb_event_next(thread_id)
   return false
end

function thread_run(thread_id)
   local resume = false
   while true do
      local ok, ret = pcall(run_events, thread_id, resume)
      if ok then
         if ret then ffi.C.sb_event_cancel(thread_id) end
         return
      end
      if type(ret) == "table" and ret.errcode == sysbench.error.RESTART_EVENT then
         if sysbench.hooks.before_restart_event then
            sysbench.hooks.before_restart_event(ret)
         end
         resume = true
      else
         error(ret, 0)
      end
   end
end

sysbench.hooks = {
   -- report_intermediate = function(stat) ... end,
   -- report_cumulative = function(stat) ... end,
   -- sql_error_ignorable = function(errdesc) ... end,
   -- before_restart_event = function(errdesc) ... end,
}

-- Per-second rate of a counter over the reported interval.
local function rate(n, seconds)
   return n / seconds
end

-- The default intermediate line of sysbench 1.0 (note: "err/s" has no colon here, as in 1.0).
function sysbench.report_default(stat)
   local seconds = stat.time_interval
   print(string.format("[ %.0fs ] thds: %u tps: %4.2f qps: %4.2f " ..
                          "(r/w/o: %4.2f/%4.2f/%4.2f) lat (ms,%u%%): %4.2f " ..
                          "err/s %4.2f reconn/s: %4.2f",
                       stat.time_total,
                       stat.threads_running,
                       rate(stat.events, seconds),
                       rate(stat.reads + stat.writes + stat.other, seconds),
                       rate(stat.reads, seconds),
                       rate(stat.writes, seconds),
                       rate(stat.other, seconds),
                       sysbench.opt.percentile,
                       stat.latency_pct * 1000,
                       rate(stat.errors, seconds),
                       rate(stat.reconnects, seconds)))
end

-- CSV: time,threads,tps,qps,reads/s,writes/s,other/s,latency_ms,errors/s,reconnects/s
function sysbench.report_csv(stat)
   local seconds = stat.time_interval
   print(string.format("%.0f,%u,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f",
                       stat.time_total,
                       stat.threads_running,
                       rate(stat.events, seconds),
                       rate(stat.reads + stat.writes + stat.other, seconds),
                       rate(stat.reads, seconds),
                       rate(stat.writes, seconds),
                       rate(stat.other, seconds),
                       stat.latency_pct * 1000,
                       rate(stat.errors, seconds),
                       rate(stat.reconnects, seconds)))
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
    "time": %4.0f,
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
  }]]):format(stat.time_total,
              stat.threads_running,
              rate(stat.events, seconds),
              rate(stat.reads + stat.writes + stat.other, seconds),
              rate(stat.reads, seconds),
              rate(stat.writes, seconds),
              rate(stat.other, seconds),
              stat.latency_pct * 1000,
              rate(stat.errors, seconds),
              rate(stat.reconnects, seconds)))
   io.stdout:flush()
end
