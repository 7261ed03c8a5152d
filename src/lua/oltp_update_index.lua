#!/usr/bin/env sysbench
-- oltp_update_index.lua: --index_updates (default 1) UPDATEs of the indexed column k
-- (SET k=k+1 WHERE id=?) per event, in autocommit mode.

require("oltp_common")

function prepare_statements()
   prepare_index_updates()
end

function event()
   execute_index_updates()
   check_reconnect()
end
