#!/usr/bin/env sysbench
-- oltp_read_write.lua: the classic mixed OLTP transaction. One event runs the reads of
-- oltp_read_only, then --index_updates, --non_index_updates and --delete_inserts writes
-- (defaults: 14 reads, 4 writes and BEGIN/COMMIT, 20 queries).

require("oltp_common")

function prepare_statements()
   if not sysbench.opt.skip_trx then
      prepare_begin()
      prepare_commit()
   end

   prepare_point_selects()

   if sysbench.opt.range_selects then
      prepare_simple_ranges()
      prepare_secondary_ranges()
      prepare_sum_ranges()
      prepare_order_ranges()
      prepare_distinct_ranges()
   end

   prepare_index_updates()
   prepare_non_index_updates()
   prepare_delete_inserts()
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

   execute_index_updates()
   execute_non_index_updates()
   execute_delete_inserts()

   if explicit_trx then
      commit()
   end
   check_reconnect()
end
