#!/usr/bin/env sysbench
-- select_random_ranges.lua: secondary-index range scans. One event is one
-- SELECT count(k) FROM sbtest1 WHERE k BETWEEN ? AND ? OR ... with --number_of_ranges ranges
-- of width --delta; each thread draws range starts from its own slice of 1..--table_size.
-- Uses sbtest1 only: as in 1.0.20, prepare creates --tables tables, run uses the first, and
-- cleanup refuses --tables > 1.

require("oltp_common")

sysbench.cmdline.options.number_of_ranges =
   {"Number of random BETWEEN ranges per SELECT", 10}
sysbench.cmdline.options.delta =
   {"Size of BETWEEN ranges", 5}

set_oltp_option_limits("number_of_ranges", 1)
set_oltp_option_limits("delta", 0)

-- 1.0.20 keeps oltp_common's prepare and cleanup under these names, and its own cleanup
-- refuses a second table.
oltp_prepare = prepare
oltp_cleanup = cleanup

function cleanup()
   assert(sysbench.opt.tables == 1, "this benchmark does not support " ..
             "--tables > 1")
   oltp_cleanup()
end

-- This thread's slice of range starts, as in select_random_points.lua.
local slice_low, slice_high

function prepare_statements()
   local width = sysbench.opt.table_size / sysbench.opt.threads
   slice_low = width * (sysbench.tid % sysbench.opt.threads)
   slice_high = slice_low + width
   if oltp_backends == nil then
      -- a 1.0-style oltp_common.lua: see select_random_points.lua
      local list = string.rep("k BETWEEN ? AND ?", sysbench.opt.number_of_ranges, " OR ")
      local s = con:prepare("SELECT count(k) FROM sbtest1 WHERE " .. list)
      local params = {}
      for i = 1, 2 * sysbench.opt.number_of_ranges do
         params[i] = s:bind_create(sysbench.sql.type.INT)
      end
      s:bind_param(unpack(params))
      stmt[1].random_ranges, param[1].random_ranges = s, params
      return
   end
   prepare_for_each_table("random_ranges", 1)      -- sbtest1 only
end

function event()
   local bounds = param[1].random_ranges
   local delta = sysbench.opt.delta
   for i = 1, #bounds, 2 do
      local low = sysbench.rand.default(slice_low, slice_high)
      bounds[i]:set(low)
      bounds[i + 1]:set(low + delta)
   end
   stmt[1].random_ranges:execute()
   check_reconnect()
end
