-- oltp_common.lua as TiDB's benchmark repository (pingcap/tidb-bench, sysbench/sysbench-patch)
-- ships it for sysbench 1.0: users drop it over the installed oltp_common.lua (or into the
-- directory they run sysbench from) to load TiDB faster. Written for these tests from what
-- that file changes, not copied from it. Against sysbench 1.0.20's own module it:
--   * creates the index k_<N> right after CREATE TABLE, before the rows are loaded (TiDB
--     fills an index faster row by row than by a backfill afterwards);
--   * makes the primary key NONCLUSTERED and adds AUTO_ID_CACHE=100000 SHARD_ROW_ID_BITS=5
--     PRE_SPLIT_REGIONS=4 to the table, for the MySQL driver;
--   * otherwise keeps 1.0's interface: the globals the bundled oltp_*.lua scripts call
--     (prepare_* / execute_* / begin / commit, stmt, param, con ...), the options, and the
--     `drv:name() == "mysql"` test that picks the MySQL dialect.
-- A test marker: prepare prints "tidb-bench oltp_common" once, so a test can see this file
-- was the one loaded.

function init()
   assert(event ~= nil, "this script is meant to be included by other OLTP scripts")
end

if sysbench.cmdline.command == nil then
   error("Command is required. Supported commands: prepare, prewarm, run, cleanup, help")
end

sysbench.cmdline.options = {
   table_size = {"Number of rows per table", 10000},
   range_size = {"Range size for range SELECT queries", 100},
   tables = {"Number of tables", 1},
   point_selects = {"Number of point SELECT queries per transaction", 10},
   simple_ranges = {"Number of simple range SELECT queries per transaction", 1},
   sum_ranges = {"Number of SELECT SUM() queries per transaction", 1},
   order_ranges = {"Number of SELECT ORDER BY queries per transaction", 1},
   distinct_ranges = {"Number of SELECT DISTINCT queries per transaction", 1},
   index_updates = {"Number of UPDATE index queries per transaction", 1},
   non_index_updates = {"Number of UPDATE non-index queries per transaction", 1},
   delete_inserts = {"Number of DELETE/INSERT combinations per transaction", 1},
   range_selects = {"Enable/disable all range SELECT queries", true},
   auto_inc = {"Use AUTO_INCREMENT column as Primary Key", true},
   skip_trx = {"Don't start explicit transactions", false},
   secondary = {"Use a secondary index in place of the PRIMARY KEY", false},
   create_secondary = {"Create a secondary index in addition to the PRIMARY KEY", true},
   mysql_storage_engine = {"Storage engine, if MySQL is used", "innodb"},
   pgsql_variant = {"PostgreSQL variant"},
}

local c_template = string.rep("###########-", 9) .. "###########"
local pad_template = string.rep("###########-", 4) .. "###########"

function get_c_value() return sysbench.rand.string(c_template) end
function get_pad_value() return sysbench.rand.string(pad_template) end

function create_table(drv, con, table_num)
   local opt = sysbench.opt
   if drv:name() ~= "mysql" then
      error("Unsupported database driver:" .. drv:name())
   end
   local id_def = "BIGINT UNSIGNED NOT NULL" .. (opt.auto_inc and " AUTO_INCREMENT" or "")
   local key_def = opt.secondary and "KEY xid" or "PRIMARY KEY"
   if table_num == 1 then
      print("tidb-bench oltp_common")
   end
   print(string.format("Creating table 'sbtest%d'...", table_num))
   con:query(string.format("CREATE TABLE sbtest%d(id %s, k INTEGER DEFAULT '0' NOT NULL, " ..
                           "c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, " ..
                           "%s (id) /*T![clustered_index] NONCLUSTERED */) " ..
                           "/*! ENGINE = %s */ AUTO_ID_CACHE=100000 SHARD_ROW_ID_BITS=5 " ..
                           "PRE_SPLIT_REGIONS=4",
                           table_num, id_def, key_def, opt.mysql_storage_engine))
   -- the change that matters: the index exists before the first row goes in
   if opt.create_secondary then
      print(string.format("Creating a secondary index on 'sbtest%d'...", table_num))
      con:query(string.format("CREATE INDEX k_%d ON sbtest%d(k)", table_num, table_num))
   end
   if opt.table_size > 0 then
      print(string.format("Inserting %d records into 'sbtest%d'", opt.table_size, table_num))
   end
   local columns = opt.auto_inc and "(k, c, pad)" or "(id, k, c, pad)"
   con:bulk_insert_init("INSERT INTO sbtest" .. table_num .. columns .. " VALUES")
   for i = 1, opt.table_size do
      local k = sb_rand(1, opt.table_size)
      if opt.auto_inc then
         con:bulk_insert_next(string.format("(%d, '%s', '%s')", k, get_c_value(),
                                            get_pad_value()))
      else
         con:bulk_insert_next(string.format("(%d, %d, '%s', '%s')", i, k, get_c_value(),
                                            get_pad_value()))
      end
   end
   con:bulk_insert_done()
end

function cmd_prepare()
   local drv = sysbench.sql.driver()
   local con = drv:connect()
   for i = sysbench.tid % sysbench.opt.threads + 1, sysbench.opt.tables, sysbench.opt.threads do
      create_table(drv, con, i)
   end
end

function cmd_prewarm()
   local drv = sysbench.sql.driver()
   local con = drv:connect()
   assert(drv:name() == "mysql", "prewarm is currently MySQL only")
   for i = sysbench.tid % sysbench.opt.threads + 1, sysbench.opt.tables, sysbench.opt.threads do
      print("Prewarming table sbtest" .. i)
      con:query("SELECT COUNT(*) FROM sbtest" .. i)
   end
end

sysbench.cmdline.commands = {
   prepare = {cmd_prepare, sysbench.cmdline.PARALLEL_COMMAND},
   prewarm = {cmd_prewarm, sysbench.cmdline.PARALLEL_COMMAND},
}

local T = sysbench.sql.type
-- statement kind: SQL, then the parameter types ({type, length} for strings)
local statements = {
   point_selects = {"SELECT c FROM sbtest%u WHERE id=?", T.INT},
   simple_ranges = {"SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ?", T.INT, T.INT},
   sum_ranges = {"SELECT SUM(k) FROM sbtest%u WHERE id BETWEEN ? AND ?", T.INT, T.INT},
   order_ranges = {"SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c", T.INT, T.INT},
   distinct_ranges = {"SELECT DISTINCT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
                      T.INT, T.INT},
   index_updates = {"UPDATE sbtest%u SET k=k+1 WHERE id=?", T.INT},
   non_index_updates = {"UPDATE sbtest%u SET c=? WHERE id=?", {T.CHAR, 120}, T.INT},
   deletes = {"DELETE FROM sbtest%u WHERE id=?", T.INT},
   inserts = {"INSERT INTO sbtest%u (id, k, c, pad) VALUES (?, ?, ?, ?)",
              T.INT, T.INT, {T.CHAR, 120}, {T.CHAR, 60}},
}

function prepare_begin() stmt.begin = con:prepare("BEGIN") end
function prepare_commit() stmt.commit = con:prepare("COMMIT") end

function prepare_for_each_table(kind)
   local def = statements[kind]
   for t = 1, sysbench.opt.tables do
      local s = con:prepare(string.format(def[1], t))
      stmt[t][kind] = s
      if #def > 1 then
         local params = {}
         for p = 2, #def do
            local ty = def[p]
            if type(ty) == "table" then
               params[p - 1] = s:bind_create(ty[1], ty[2])
            else
               params[p - 1] = s:bind_create(ty)
            end
         end
         param[t][kind] = params
         s:bind_param(unpack(params))
      end
   end
end

function prepare_point_selects() prepare_for_each_table("point_selects") end
function prepare_simple_ranges() prepare_for_each_table("simple_ranges") end
function prepare_sum_ranges() prepare_for_each_table("sum_ranges") end
function prepare_order_ranges() prepare_for_each_table("order_ranges") end
function prepare_distinct_ranges() prepare_for_each_table("distinct_ranges") end
function prepare_index_updates() prepare_for_each_table("index_updates") end
function prepare_non_index_updates() prepare_for_each_table("non_index_updates") end
function prepare_delete_inserts()
   prepare_for_each_table("deletes")
   prepare_for_each_table("inserts")
end

function thread_init()
   drv = sysbench.sql.driver()
   con = drv:connect()
   stmt, param = {}, {}
   for t = 1, sysbench.opt.tables do
      stmt[t], param[t] = {}, {}
   end
   prepare_statements()
end

function close_statements()
   for t = 1, sysbench.opt.tables do
      for _, s in pairs(stmt[t]) do s:close() end
   end
   if stmt.begin ~= nil then stmt.begin:close() end
   if stmt.commit ~= nil then stmt.commit:close() end
end

function thread_done()
   close_statements()
   con:disconnect()
end

function cleanup()
   local con = sysbench.sql.driver():connect()
   for i = 1, sysbench.opt.tables do
      print(string.format("Dropping table 'sbtest%d'...", i))
      con:query("DROP TABLE IF EXISTS sbtest" .. i)
   end
end

local function table_num() return sysbench.rand.uniform(1, sysbench.opt.tables) end
local function row_id() return sysbench.rand.default(1, sysbench.opt.table_size) end

function begin() stmt.begin:execute() end
function commit() stmt.commit:execute() end

local function repeat_statement(kind, count, bind)
   local t = table_num()
   for _ = 1, count do
      bind(param[t][kind])
      stmt[t][kind]:execute()
   end
end

function execute_point_selects()
   repeat_statement("point_selects", sysbench.opt.point_selects,
                    function(p) p[1]:set(row_id()) end)
end

local function execute_range(kind)
   repeat_statement(kind, sysbench.opt[kind], function(p)
      local id = row_id()
      p[1]:set(id)
      p[2]:set(id + sysbench.opt.range_size - 1)
   end)
end

function execute_simple_ranges() execute_range("simple_ranges") end
function execute_sum_ranges() execute_range("sum_ranges") end
function execute_order_ranges() execute_range("order_ranges") end
function execute_distinct_ranges() execute_range("distinct_ranges") end

function execute_index_updates()
   repeat_statement("index_updates", sysbench.opt.index_updates,
                    function(p) p[1]:set(row_id()) end)
end

function execute_non_index_updates()
   repeat_statement("non_index_updates", sysbench.opt.non_index_updates, function(p)
      p[1]:set_rand_str(c_template)
      p[2]:set(row_id())
   end)
end

function execute_delete_inserts()
   local t = table_num()
   for _ = 1, sysbench.opt.delete_inserts do
      local id, k = row_id(), row_id()
      param[t].deletes[1]:set(id)
      local ins = param[t].inserts
      ins[1]:set(id)
      ins[2]:set(k)
      ins[3]:set_rand_str(c_template)
      ins[4]:set_rand_str(pad_template)
      stmt[t].deletes:execute()
      stmt[t].inserts:execute()
   end
end

-- after a lost connection (ignored with --mysql-ignore-errors) the statements are prepared
-- again on the new one
function sysbench.hooks.before_restart_event(errdesc)
   local lost = {[2013] = true, [2055] = true, [2006] = true, [2011] = true}
   if lost[errdesc.sql_errno] then
      close_statements()
      prepare_statements()
   end
end
