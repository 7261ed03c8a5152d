#!/usr/bin/env sysbench
-- oltp_read_only.lua: read-only OLTP. One event is a transaction of --point_selects primary
-- key lookups and, with --range_selects, --simple_ranges, --secondary_ranges, --sum_ranges,
-- --order_ranges and --distinct_ranges range queries (defaults: 10 + 1 + 0 + 1 + 1 + 1 reads
-- between BEGIN and COMMIT).

require("oltp_common")

function prepare_statements()
   prepare_point_selects()

   if not sysbench.opt.skip_trx then
      prepare_begin()
      prepare_commit()
   end

   if sysbench.opt.range_selects then
      prepare_simple_ranges()
      prepare_secondary_ranges()
      prepare_sum_ranges()
      prepare_order_ranges()
      prepare_distinct_ranges()
   end
end

function event()
   local explicit_trx = not sysbench.opt.skip_trx
   if explicit_trx then
      begin()
   end

   execute_point_selects()
   if sysbench.opt.range_selects then
      execute_simple_ranges()
      execute_secondary_ranges()
      execute_sum_ranges()
      execute_order_ranges()
      execute_distinct_ranges()
   end

   if explicit_trx then
      commit()
   end
   check_reconnect()
end
