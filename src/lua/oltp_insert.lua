#!/usr/bin/env sysbench
-- oltp_insert.lua: one unprepared single-row INSERT into a random table per event, in
-- autocommit mode. With --auto_inc (default) the database assigns the id; with
-- --auto_inc=off ids come from sysbench.rand.unique(), and prepare creates empty tables so
-- they cannot collide with loaded rows.

require("oltp_common")

sysbench.cmdline.commands.prepare = {
   function()
      if not sysbench.opt.auto_inc then
         sysbench.opt.table_size = 0
      end
      return cmd_prepare()
   end,
   sysbench.cmdline.PARALLEL_COMMAND
}

function prepare_statements()
   -- plain queries only: nothing to prepare
end

-- rand.unique() is a uint32; shifted into SQL INT's signed range.
local INT_OFFSET = 2147483648

function event()
   local t = sysbench.rand.uniform(1, sysbench.opt.tables)
   local k = sysbench.rand.default(1, sysbench.opt.table_size)
   local c = get_c_value()
   local pad = get_pad_value()
   local id = nil
   if not sysbench.opt.auto_inc then
      id = sysbench.rand.unique() - INT_OFFSET
   end
   execute_insert_row(t, id, k, c, pad)
   check_reconnect()
end
