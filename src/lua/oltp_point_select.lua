#!/usr/bin/env sysbench
-- oltp_point_select.lua: one primary-key lookup (SELECT c ... WHERE id=?) per event, in
-- autocommit mode. --point_selects is ignored: it is always 1 here.

require("oltp_common")

function prepare_statements()
   sysbench.opt.point_selects = 1
   prepare_point_selects()
end

function event()
   execute_point_selects()
   check_reconnect()
end
