#!/usr/bin/env sysbench
-- select_random_points.lua: secondary-index point lookups. One event is one
-- SELECT id, k, c, pad FROM sbtest1 WHERE k IN (--random_points values); each thread draws
-- its k values from its own slice of 1..--table_size, so threads do not overlap. Built for
-- MariaDB's segmented MyISAM key cache; works on any engine. Uses sbtest1 only: as in 1.0.20,
-- prepare creates --tables tables, run uses the first, and cleanup refuses --tables > 1.

require("oltp_common")

sysbench.cmdline.options.random_points =
   {"Number of random points in the IN() clause in generated SELECTs", 10}

set_oltp_option_limits("random_points", 1)

-- 1.0.20 keeps oltp_common's prepare and cleanup under these names, and its own cleanup
-- refuses a second table.
oltp_prepare = prepare
oltp_cleanup = cleanup

function cleanup()
   assert(sysbench.opt.tables == 1, "this benchmark does not support " ..
             "--tables > 1")
   oltp_cleanup()
end

-- This thread's slice of k values: [slice_low, slice_high], as fractions exactly like 1.0.20
-- (the random-number call truncates them).
local slice_low, slice_high

function prepare_statements()
   local width = sysbench.opt.table_size / sysbench.opt.threads
   slice_low = width * (sysbench.tid % sysbench.opt.threads)
   slice_high = slice_low + width
   if oltp_backends == nil then
      -- a 1.0-style oltp_common.lua is first on the path: its thread_init connected; the
      -- statement is made here, as 1.0.20's script makes it
      local list = string.rep("?", sysbench.opt.random_points, ", ")
      local s = con:prepare(string.format("SELECT id, k, c, pad FROM sbtest1 WHERE k IN (%s)",
                                          list))
      local params = {}
      for i = 1, sysbench.opt.random_points do
         params[i] = s:bind_create(sysbench.sql.type.INT)
      end
      s:bind_param(unpack(params))
      stmt[1].random_points, param[1].random_points = s, params
      return
   end
   prepare_for_each_table("random_points", 1)      -- sbtest1 only
end

function event()
   local points = param[1].random_points
   for i = 1, #points do
      points[i]:set(sysbench.rand.default(slice_low, slice_high))
   end
   stmt[1].random_points:execute()
   check_reconnect()
end
