#!/usr/bin/env sysbench
-- oltp_write_only.lua: the write half of oltp_read_write. One event is a transaction of
-- --index_updates, --non_index_updates and --delete_inserts statements (defaults: 4 writes
-- between BEGIN and COMMIT).

require("oltp_common")

function prepare_statements()
   if not sysbench.opt.skip_trx then
      prepare_begin()
      prepare_commit()
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

   execute_index_updates()
   execute_non_index_updates()
   execute_delete_inserts()

   if explicit_trx then
      commit()
   end
   check_reconnect()
end
