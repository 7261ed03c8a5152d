#!/usr/bin/env sysbench
-- select_random_points.lua: secondary-index point lookups. One event is one
-- SELECT id, k, c, pad FROM sbtest1 WHERE k IN (--random_points values); each thread draws
-- its k values from its own slice of 1..--table_size, so threads do not overlap. Built for
-- MariaDB's segmented MyISAM key cache; works on any engine. Uses sbtest1 only.

require("oltp_common")

sysbench.cmdline.options.random_points =
   {"Number of random points in the IN() clause in generated SELECTs", 10}

set_oltp_option_limits("tables", 1, 1, "this workload uses sbtest1 only")
set_oltp_option_limits("random_points", 1)

-- This thread's slice of k values: [slice_low, slice_high], as fractions exactly like 1.0.20
-- (the random-number call truncates them).
local slice_low, slice_high

function prepare_statements()
   local width = sysbench.opt.table_size / sysbench.opt.threads
   slice_low = width * (sysbench.tid % sysbench.opt.threads)
   slice_high = slice_low + width
   prepare_for_each_table("random_points")
end

function event()
   local points = param[1].random_points
   for i = 1, #points do
      points[i]:set(sysbench.rand.default(slice_low, slice_high))
   end
   stmt[1].random_points:execute()
   check_reconnect()
end
