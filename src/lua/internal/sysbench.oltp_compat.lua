-- sysbench.oltp_compat: lets the bundled oltp_*.lua workloads run on an oltp_common.lua
-- written for sysbench 1.0 -- the copies benchmark guides hand out (TiDB's tidb-bench, for
-- one) are dropped over the installed module or into the working directory, where
-- require("oltp_common") finds them before the bundled one. Such a module lacks what the
-- bundled workloads call beyond 1.0's interface; after it is loaded, each missing function
-- gets what 1.0.20's own workloads did in its place:
--   check_reconnect()                      nothing (1.0.20 has no --reconnect)
--   prepare_secondary_ranges(),
--   execute_secondary_ranges()             nothing (1.0.20 has no secondary range queries)
--   execute_insert_row(t, id, k, c, pad)   1.0.20 oltp_insert's unprepared INSERT
--   set_oltp_option_limits(...)            nothing (1.0's module checks no option ranges)
-- and the commands it lacks of ours, from the built-in modules (they need only the options
-- 1.0's module declares):
--   verify                                 sysbench.oltp_load's (docs/prepare.md)

local format = string.format

local fill_ins = {
   check_reconnect = function() end,
   prepare_secondary_ranges = function() end,
   execute_secondary_ranges = function() end,
   set_oltp_option_limits = function() end,
   execute_insert_row = function(table_num, id, k, c, pad)
      if id == nil and drv:name() == "pgsql" then
         con:query(format("INSERT INTO sbtest%d (k, c, pad) VALUES (%d, '%s', '%s')",
                          table_num, k, c, pad))
      else
         con:query(format("INSERT INTO sbtest%d (id, k, c, pad) VALUES (%d, %d, '%s', '%s')",
                          table_num, id or 0, k, c, pad))
      end
   end,
}

local plain_require = require

function require(name, ...)
   local module = plain_require(name, ...)
   if name == "oltp_common" then
      for global, fn in pairs(fill_ins) do
         if _G[global] == nil then
            _G[global] = fn
         end
      end
      local commands = sysbench.cmdline.commands
      if type(commands) == "table" and commands.verify == nil then
         commands.verify = {function()
            return sysbench.oltp_load.run(sysbench.load.VERIFY, sysbench.sql.driver(), nil)
         end, sysbench.cmdline.PARALLEL_COMMAND}
      end
   end
   return module
end
