#!/usr/bin/env sysbench
-- select_random_ranges.lua: secondary-index range scans. One event is one
-- SELECT count(k) FROM sbtest1 WHERE k BETWEEN ? AND ? OR ... with --number_of_ranges ranges
-- of width --delta; each thread draws range starts from its own slice of 1..--table_size.
-- Uses sbtest1 only.

require("oltp_common")

sysbench.cmdline.options.number_of_ranges =
   {"Number of random BETWEEN ranges per SELECT", 10}
sysbench.cmdline.options.delta =
   {"Size of BETWEEN ranges", 5}

set_oltp_option_limits("tables", 1, 1, "this workload uses sbtest1 only")
set_oltp_option_limits("number_of_ranges", 1)
set_oltp_option_limits("delta", 0)

-- This thread's slice of range starts, as in select_random_points.lua.
local slice_low, slice_high

function prepare_statements()
   local width = sysbench.opt.table_size / sysbench.opt.threads
   slice_low = width * (sysbench.tid % sysbench.opt.threads)
   slice_high = slice_low + width
   prepare_for_each_table("random_ranges")
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
