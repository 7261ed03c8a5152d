#!/usr/bin/env sysbench
-- oltp_update_non_index.lua: --non_index_updates (default 1) UPDATEs of the unindexed column c
-- (SET c=<new random text> WHERE id=?) per event, in autocommit mode.

require("oltp_common")

function prepare_statements()
   prepare_non_index_updates()
end

function event()
   execute_non_index_updates()
   check_reconnect()
end
