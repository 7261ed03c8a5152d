#!/usr/bin/env sysbench
-- oltp_delete.lua: one DELETE of a random id per event, in autocommit mode. Deleted rows are
-- not put back, so the table empties as the run goes on and later DELETEs count as "other".

require("oltp_common")

function prepare_statements()
   prepare_for_each_table("deletes")
end

function event()
   local t = sysbench.rand.uniform(1, sysbench.opt.tables)
   param[t].deletes[1]:set(sysbench.rand.default(1, sysbench.opt.table_size))
   stmt[t].deletes:execute()
   check_reconnect()
end
