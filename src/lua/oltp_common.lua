-- oltp_common.lua: what the bundled OLTP workloads share -- the sbtest schema and its data,
-- the options, the prepare/prewarm/cleanup commands, the per-thread statements and the
-- query groups an event() is made of. A workload requires this module, defines
-- prepare_statements() (which statements its threads need) and event() (one transaction).
--
-- The globals below keep sysbench 1.0.20's names (drv, con, stmt[t][kind], param[t][kind][i],
-- create_table, prepare_for_each_table, execute_point_selects, ...) because third-party
-- scripts require this module and call them.
--
-- Storage backends
--   Event functions never see SQL. They execute statement objects made by ONE function,
--   backend.statement(con, kind, table_num), and bind values through the interface every
--   backend's statements offer:
--      stmt:bind_create(type [, max_len]) -> param    param:set(v)   param:set_rand_str(fmt)
--      stmt:bind_param(param, ...)                    stmt:execute()  stmt:close()
--   kind is a key of statement_params (one statement per table), or "begin" / "commit"
--   (table_num nil). The rest of a backend's work is also one function each:
--      create_table(drv, con, table_num)          create sbtest<N>, load it, index k
--      drop_table(drv, con, table_num)
--      prewarm_session(drv, con)                  once per connection before prewarm_table
--      prewarm_table(drv, con, table_num)
--      insert_row(drv, con, table_num, id, k, c, pad)  one unprepared INSERT (oltp_insert;
--                                                      id nil lets the database pick it)
--   `prepare` and `verify` are sysbench.oltp_load's: every table's ids are split over the
--   threads, rows come from (--rand-seed, table, id) alone, and a backend only supplies the
--   DDL its driver needs (create_table_ddl, build_index, table_sizes: see that module).
--   sql_backend below serves every SQL driver, kv_backend every key-value driver (RocksDB);
--   a script may add its own as oltp_backends[<driver name>]; one that defines its own
--   create_table() is prepared table by table with it, as 1.0.20 did. All workloads run
--   unchanged.
--
-- What only the commands run (option checks, prepare, verify, prewarm, cleanup, and the
-- backends' create/drop/prewarm and TiDB's table work) is in sysbench.oltp_commands, loaded
-- the first time one of the globals below that need it is called: every worker of a run
-- loads this module, and a worker's Lua heap is what a thread costs (1,000 threads: 1,000
-- heaps). The globals keep their names here, as functions that load it when called.

function init()
   if event == nil then
      error("this script is meant to be included by other OLTP scripts and " ..
            "should not be called directly.", 0)
   end
   check_oltp_options(true)
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
   secondary_ranges = {"Number of secondary range SELECT queries per transaction", 0,
                       added = true},
   index_updates = {"Number of UPDATE index queries per transaction", 1},
   non_index_updates = {"Number of UPDATE non-index queries per transaction", 1},
   delete_inserts = {"Number of DELETE/INSERT combinations per transaction", 1},
   range_selects = {"Enable/disable all range SELECT queries", true},
   auto_inc = {"Use AUTO_INCREMENT column as Primary Key (for MySQL), or its " ..
               "alternatives in other DBMS. When disabled, use client-generated IDs", true},
   create_table_options = {"Extra CREATE TABLE options", "", added = true},
   skip_trx = {"Don't start explicit transactions and execute all queries in the " ..
               "AUTOCOMMIT mode", false},
   secondary = {"Use a secondary index in place of the PRIMARY KEY", false},
   create_secondary = {"Create a secondary index in addition to the PRIMARY KEY", true},
   reconnect = {"Reconnect after every N events. The default (0) is to not reconnect", 0,
                added = true},
   mysql_storage_engine = {"Storage engine, if MySQL is used", "innodb"},
   pgsql_variant = {"Use this PostgreSQL variant when running with the PostgreSQL driver. " ..
                    "The only currently supported variant is 'redshift'. When enabled, " ..
                    "create_secondary is automatically disabled, and delete_inserts is set " ..
                    "to 0"},
   prepare_method = {"How prepare sends rows: auto (the fastest the server takes), " ..
                     "load-data (LOAD DATA LOCAL INFILE; COPY on PostgreSQL) or insert " ..
                     "(multi-row INSERTs)", "auto", added = true},
   resume = {"prepare: keep the complete tables and finish those an interrupted prepare " ..
             "left incomplete", false, added = true},
}

-- Option checks -------------------------------------------------------------------------------

-- The commands' part of this module (sysbench.oltp_commands), attached on first use.
local oltp = {option_limits = {}}
local commands

local function command_part()
   if commands == nil then
      commands = sysbench.oltp_commands.attach(oltp)
   end
   return commands
end

-- Lets a workload narrow an option or add one of its own (select_random_*: --tables=1 only).
-- The accepted range of each option is sysbench.oltp_commands'; these come on top.
function set_oltp_option_limits(name, lowest, highest, note)
   oltp.option_limits[name] = {lowest, highest, note}
end

-- Raises one error naming the first bad option. running: the run command, where rows are
-- drawn from 1..--table_size, so an empty table cannot work.
function check_oltp_options(running)
   return command_part().check_oltp_options(running)
end

-- Row data --------------------------------------------------------------------------------------

-- Random digits in groups of 11 joined by '-': c has 10 groups (119 characters), pad 5 (59),
-- as 1.0.20's templates (and sysbench.oltp_load's, which loads the tables with the same).
local c_template = string.rep("###########", 10, "-")
local pad_template = string.rep("###########", 5, "-")

-- sysbench.load and sysbench.oltp_load are named where a command uses them, never kept in a
-- local here: sysbench loads a module the first time it is read, so the states of a run,
-- which never read them, do not carry them.
-- The connections of a prepare may load with LOAD DATA LOCAL INFILE (MySQL family).
if sysbench.cmdline.command == "prepare" then
   sysbench.load.want_stream()
end

function get_c_value()
   return sysbench.rand.string(c_template)
end

function get_pad_value()
   return sysbench.rand.string(pad_template)
end

-- Statements ----------------------------------------------------------------------------------

local sql_type = sysbench.sql.type
local INT = {sql_type.INT}
local C120 = {sql_type.CHAR, 120}
local C60 = {sql_type.CHAR, 60}

local function n_ints(n)
   local list = {}
   for i = 1, n do
      list[i] = INT
   end
   return list
end

-- Parameters each statement kind binds, in order ({type, max length}). The same for every
-- backend; a function when the count comes from an option.
local statement_params = {
   point_selects = {INT},
   simple_ranges = {INT, INT},
   sum_ranges = {INT, INT},
   order_ranges = {INT, INT},
   distinct_ranges = {INT, INT},
   secondary_ranges = {INT},
   index_updates = {INT},
   non_index_updates = {C120, INT},
   deletes = {INT},
   inserts = {INT, INT, C120, C60},
   random_points = function() return n_ints(sysbench.opt.random_points) end,
   random_ranges = function() return n_ints(2 * sysbench.opt.number_of_ranges) end,
   begin = {},
   commit = {},
}

-- The SQL backend ---------------------------------------------------------------------------

-- SQL text per statement kind; %u is the table number.
local statement_sql = {
   point_selects = "SELECT c FROM sbtest%u WHERE id=?",
   simple_ranges = "SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ?",
   sum_ranges = "SELECT SUM(k) FROM sbtest%u WHERE id BETWEEN ? AND ?",
   order_ranges = "SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
   distinct_ranges = "SELECT DISTINCT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
   index_updates = "UPDATE sbtest%u SET k=k+1 WHERE id=?",
   non_index_updates = "UPDATE sbtest%u SET c=? WHERE id=?",
   deletes = "DELETE FROM sbtest%u WHERE id=?",
   inserts = "INSERT INTO sbtest%u (id, k, c, pad) VALUES (?, ?, ?, ?)",
   begin = "BEGIN",
   commit = "COMMIT",
}

-- Kinds whose text depends on options; the values are fixed here, at prepare time.
local statement_sql_builders = {
   -- Terark's secondary-index scan; the LIMIT is part of the text, not a parameter
   secondary_ranges = function(table_num)
      return string.format("SELECT c FROM sbtest%u WHERE k >= ? LIMIT %u", table_num,
                           sysbench.opt.range_size)
   end,
   random_points = function(table_num)
      local list = string.rep("?", sysbench.opt.random_points, ", ")
      return string.format("        SELECT id, k, c, pad\n          FROM sbtest%u\n" ..
                           "          WHERE k IN (%s)\n        ", table_num, list)
   end,
   random_ranges = function(table_num)
      local list = string.rep("k BETWEEN ? AND ?", sysbench.opt.number_of_ranges, " OR ")
      return string.format("        SELECT count(k)\n          FROM sbtest%u\n" ..
                           "          WHERE %s", table_num, list)
   end,
}

local sql_backend = {}

function sql_backend.statement(con, kind, table_num)
   local build = statement_sql_builders[kind]
   local text = build and build(table_num) or string.format(statement_sql[kind], table_num)
   return con:prepare(text)
end

-- id nil: the database assigns it -- MySQL when given 0, PostgreSQL when id is left out.
function sql_backend.insert_row(drv, con, table_num, id, k, c, pad)
   if id == nil and drv:name() == "pgsql" then
      con:query(string.format("INSERT INTO sbtest%d (k, c, pad) VALUES (%d, '%s', '%s')",
                              table_num, k, c, pad))
   else
      con:query(string.format("INSERT INTO sbtest%d (id, k, c, pad) VALUES " ..
                              "(%d, %d, '%s', '%s')", table_num, id or 0, k, c, pad))
   end
end

-- The TiDB backend ---------------------------------------------------------------------------
-- The SQL backend with TiDB's prepare (sysbench.oltp_commands adds that part: the table made
-- with TiDB's options, pre-split into regions, and the regions reported). Any function it
-- lacks is sql_backend's; one of those sysbench.oltp_commands adds loads it.
local tidb_backend = setmetatable({}, {__index = function(backend, name)
   if commands == nil and sql_backend[name] == nil then
      command_part()
      local fn = rawget(backend, name)
      if fn ~= nil then
         return fn
      end
   end
   return sql_backend[name]
end})

-- The key-value backend ---------------------------------------------------------------------
-- For drivers of the key-value family (--db-driver=rocksdb). Each statement kind has a
-- key-value form doing the work its SQL form makes a server do -- a point read, a bounded
-- scan, an index entry moved, rows fetched through the secondary index (docs/rocksdb.md) --
-- and is counted as the SQL statement would be, so reports compare across drivers.

local kv_backend = {}

function kv_backend.statement(con, kind, table_num)
   if kind == "begin" then
      return con:prepare("BEGIN")
   elseif kind == "commit" then
      return con:prepare("COMMIT")
   end
   local limit = kind == "secondary_ranges" and sysbench.opt.range_size or 0
   return con:prepare_kv(kind, table_num, limit)
end

-- oltp_insert's INSERT: a prepared key-value insert per table, made on first use.
local kv_inserts = {}

function kv_backend.insert_row(drv, con, table_num, id, k, c, pad)
   local entry = kv_inserts[table_num]
   if entry == nil then
      local s = con:prepare_kv("inserts", table_num)
      local p = {s:bind_create(INT[1]), s:bind_create(INT[1]),
                 s:bind_create(C120[1], C120[2]), s:bind_create(C60[1], C60[2])}
      s:bind_param(unpack(p))
      entry = {s, p}
      kv_inserts[table_num] = entry
   end
   local p = entry[2]
   p[1]:set(id or 0)
   p[2]:set(k)
   p[3]:set(c)
   p[4]:set(pad)
   entry[1]:execute()
end

-- Backends by driver name; key-value drivers get kv_backend, every other driver sql_backend.
oltp_backends = oltp_backends or {}
oltp_backends.tidb = oltp_backends.tidb or tidb_backend

local function backend_for(drv)
   local named = oltp_backends[drv:driver_name()]
   if named ~= nil then
      return named
   end
   return drv:family() == "kv" and kv_backend or sql_backend
end

-- --pgsql_variant=redshift (PostgreSQL driver) does what its help says (1.0.20's
-- oltp_common.lua reads it through a global that is never set): ids are INTEGER
-- IDENTITY(1,1) (sysbench.oltp_load.create_statement), and as Redshift has no secondary indexes, no index on k
-- and no DELETE/INSERT pairs.
local function apply_pgsql_variant(drv)
   if drv:name() == "pgsql" and sysbench.opt.pgsql_variant == "redshift" then
      sysbench.opt.create_secondary = false
      sysbench.opt.delete_inserts = 0
   end
end

oltp.sql_backend, oltp.kv_backend, oltp.tidb_backend = sql_backend, kv_backend, tidb_backend
oltp.backend_for, oltp.apply_pgsql_variant = backend_for, apply_pgsql_variant

-- Commands --------------------------------------------------------------------------------------
-- Each is sysbench.oltp_commands' (see there), called through these globals of 1.0.20's names,
-- which scripts call, replace or keep under other names.

-- 1.0.20's name: scripts override it, or call it from their own prepare.
function create_table(drv, con, table_num)
   return command_part().create_table(drv, con, table_num)
end
oltp.create_table = create_table

-- Creates and loads the tables: every table's ids are split over the threads
-- (sysbench.oltp_load).
function cmd_prepare()
   return command_part().cmd_prepare()
end

-- Checks the tables as prepare left them: row count, ids 1..table_size without gaps, the
-- index on k against the rows, and with --rand-seed the rows themselves. Exits 1 when a
-- table is wrong.
function cmd_verify()
   return command_part().cmd_verify()
end

-- Loads the tables into the server's cache; parallel like prepare.
function cmd_prewarm()
   return command_part().cmd_prewarm()
end

-- master's name for prewarm
cmd_warmup = cmd_prewarm

sysbench.cmdline.commands = {
   prepare = {cmd_prepare, sysbench.cmdline.PARALLEL_COMMAND},
   verify = {cmd_verify, sysbench.cmdline.PARALLEL_COMMAND},
   prewarm = {cmd_prewarm, sysbench.cmdline.PARALLEL_COMMAND},
   warmup = {cmd_prewarm, sysbench.cmdline.PARALLEL_COMMAND},
}

function cleanup()
   return command_part().cleanup()
end

-- Per-thread statements -------------------------------------------------------------------

-- The thread's backend: set by thread_init, or found from the global drv on first use by
-- scripts that open their own connection in their own thread_init, as 1.0.20 allowed.
local backend

local function thread_backend()
   if backend == nil then
      backend = backend_for(drv)
   end
   return backend
end

-- The table whose statement is being prepared (for the hint when it does not exist).
local preparing_table

-- Prepares statement `kind` on every table, or on tables 1..last_table: stmt[t][kind], with
-- its parameters bound as param[t][kind][1..n].
function prepare_for_each_table(kind, last_table)
   local shape = statement_params[kind]
   if type(shape) == "function" then
      shape = shape()
   end
   for t = 1, last_table or sysbench.opt.tables do
      preparing_table = t
      local s = thread_backend().statement(con, kind, t)
      stmt[t][kind] = s
      if #shape > 0 then
         local params = {}
         for i, p in ipairs(shape) do
            if p[2] ~= nil then
               params[i] = s:bind_create(p[1], p[2])
            else
               params[i] = s:bind_create(p[1])
            end
         end
         param[t][kind] = params
         s:bind_param(unpack(params))
         -- PostgreSQL prepares a statement with parameters when they are bound, and a
         -- table that does not exist fails there (1.0.20 went on, and crashed): thread_init
         -- stops here, as it does on MySQL when preparing
         if con.error == sysbench.sql.error.FATAL and con.sql_state ~= nil and
            ffi.string(con.sql_state) == "42P01" then
            con:check_error(nil)
         end
      end
   end
end

function prepare_begin()
   stmt.begin = thread_backend().statement(con, "begin")
end

function prepare_commit()
   stmt.commit = thread_backend().statement(con, "commit")
end

function prepare_point_selects() prepare_for_each_table("point_selects") end
function prepare_simple_ranges() prepare_for_each_table("simple_ranges") end
function prepare_sum_ranges() prepare_for_each_table("sum_ranges") end
function prepare_order_ranges() prepare_for_each_table("order_ranges") end
function prepare_distinct_ranges() prepare_for_each_table("distinct_ranges") end
function prepare_index_updates() prepare_for_each_table("index_updates") end
function prepare_non_index_updates() prepare_for_each_table("non_index_updates") end

-- Only with --secondary_ranges > 0, so the stock mixes prepare exactly 1.0.20's statements.
function prepare_secondary_ranges()
   if sysbench.opt.secondary_ranges > 0 then
      prepare_for_each_table("secondary_ranges")
   end
end

function prepare_delete_inserts()
   prepare_for_each_table("deletes")
   prepare_for_each_table("inserts")
end

-- Does table `t` exist? Asked after a MySQL prepare failed, whose error the script does
-- not see (1.0.20's "SQL API error"); nil when that cannot be told.
local function mysql_table_exists(t)
   local ok, rs = pcall(con.query, con, string.format("SHOW TABLES LIKE 'sbtest%d'", t))
   if not ok or rs == nil then
      return nil
   end
   return rs.nrows > 0
end

-- After thread_init failed preparing statements on a table that does not exist (1146 on
-- MySQL, TiDB and RocksDB, 42P01 on PostgreSQL): a hint that the run's --tables may not be
-- the one prepare was given. nil for any other error, and in the exact-output mode (where no
-- hint is printed, so none is looked for with a query 1.0.20 does not make).
local function missing_table_hint(err)
   local t = preparing_table
   if t == nil or type(err) ~= "string" or sysbench.output_exact() then
      return nil
   end
   local missing = err:find("errno = 1146,", 1, true) or err:find("state = '42P01'", 1, true)
   if not missing and err:find("SQL API error", 1, true) and drv:name() == "mysql" then
      missing = mysql_table_exists(t) == false
   end
   if not missing then
      return nil
   end
   local n = sysbench.opt.tables
   return string.format("HINT: sbtest%d does not exist, and this run uses --tables=%d: run " ..
                        "prepare with --tables=%d first (sysbench %s --tables=%d ... prepare), " ..
                        "or run with the --tables prepare was given", t, n, n,
                        sysbench.cmdline.script_path or "<script>", n)
end

function thread_init()
   drv = sysbench.sql.driver()
   con = drv:connect()
   backend = backend_for(drv)
   apply_pgsql_variant(drv)

   -- stmt[t][kind] and param[t][kind][i]: one statement per table and kind per thread
   stmt = {}
   param = {}
   for t = 1, sysbench.opt.tables do
      stmt[t] = {}
      param[t] = {}
   end

   -- defined by the workload script; its error is kept as it is, a hint may follow (called
   -- from a function here, so that a script without one is told where it was called)
   local ok, err = pcall(function() prepare_statements() end)
   if not ok then
      local hint = missing_table_hint(err)
      if hint ~= nil then
         error(tostring(err) .. "\n" .. hint, 0)
      end
      error(err, 0)
   end
end

function close_statements()
   for t = 1, sysbench.opt.tables do
      for _, s in pairs(stmt[t]) do
         s:close()
      end
   end
   if stmt.begin ~= nil then
      stmt.begin:close()
   end
   if stmt.commit ~= nil then
      stmt.commit:close()
   end
end

function thread_done()
   close_statements()
   con:disconnect()
end

-- Statements die with their connection: after a reconnect they are prepared again.
local function reprepare_after(reconnect)
   close_statements()
   if reconnect then
      con:reconnect()
   end
   prepare_statements()
end

-- --reconnect=N: every workload's event() ends with this call.
local events_since_reconnect = 0

function check_reconnect()
   local every = sysbench.opt.reconnect
   if every > 0 then
      events_since_reconnect = events_since_reconnect + 1
      if events_since_reconnect >= every then
         events_since_reconnect = 0
         reprepare_after(true)
      end
   end
end

-- The driver reconnects by itself when a lost connection is in --mysql-ignore-errors; the
-- event is then retried, and needs its statements back.
local connection_lost = {
   [2006] = true,   -- CR_SERVER_GONE_ERROR
   [2011] = true,   -- CR_TCP_CONNECTION
   [2013] = true,   -- CR_SERVER_LOST
   [2055] = true,   -- CR_SERVER_LOST_EXTENDED
}

function sysbench.hooks.before_restart_event(errdesc)
   if connection_lost[errdesc.sql_errno] then
      reprepare_after(false)
   end
end

-- Query groups ----------------------------------------------------------------------------------
-- Each group picks one table, then runs its statement --<group> times with fresh values set
-- on the bound parameters. Random draws happen in 1.0.20's order, so a seeded run sends the
-- same queries.

local function get_table_num()
   return sysbench.rand.uniform(1, sysbench.opt.tables)
end

local function get_id()
   return sysbench.rand.default(1, sysbench.opt.table_size)
end

function begin()
   stmt.begin:execute()
end

function commit()
   stmt.commit:execute()
end

-- One group of statements keyed by a random id (point selects, index updates).
local function execute_by_id(kind)
   local t = get_table_num()
   local n = sysbench.opt[kind]
   if n < 1 then
      return
   end
   local s, id = stmt[t][kind], param[t][kind][1]
   for _ = 1, n do
      id:set(get_id())
      s:execute()
   end
end

function execute_point_selects() execute_by_id("point_selects") end

-- One range group: WHERE id BETWEEN first AND first + --range_size - 1.
local function execute_range(kind)
   local t = get_table_num()
   local n = sysbench.opt[kind]
   if n < 1 then
      return
   end
   local s, p = stmt[t][kind], param[t][kind]
   local first_param, last_param = p[1], p[2]
   local width = sysbench.opt.range_size - 1
   for _ = 1, n do
      local first = get_id()
      first_param:set(first)
      last_param:set(first + width)
      s:execute()
   end
end

function execute_simple_ranges() execute_range("simple_ranges") end
function execute_sum_ranges() execute_range("sum_ranges") end
function execute_order_ranges() execute_range("order_ranges") end
function execute_distinct_ranges() execute_range("distinct_ranges") end

-- Terark's query: WHERE k >= <random value> LIMIT --range_size. No table is drawn when the
-- group is off, so the stock mixes draw exactly 1.0.20's random numbers.
function execute_secondary_ranges()
   local n = sysbench.opt.secondary_ranges
   if n < 1 then
      return
   end
   local t = get_table_num()
   local s, k = stmt[t].secondary_ranges, param[t].secondary_ranges[1]
   for _ = 1, n do
      k:set(get_id())
      s:execute()
   end
end

function execute_index_updates() execute_by_id("index_updates") end

function execute_non_index_updates()
   local t = get_table_num()
   local n = sysbench.opt.non_index_updates
   if n < 1 then
      return
   end
   local s, p = stmt[t].non_index_updates, param[t].non_index_updates
   local c, id = p[1], p[2]
   for _ = 1, n do
      c:set_rand_str(c_template)
      id:set(get_id())
      s:execute()
   end
end

-- Deletes a random row and inserts it back with the same id and new k, c and pad.
function execute_delete_inserts()
   local t = get_table_num()
   local n = sysbench.opt.delete_inserts
   if n < 1 then
      return
   end
   local delete, insert = stmt[t].deletes, stmt[t].inserts
   local delete_id = param[t].deletes[1]
   local p = param[t].inserts
   local id, k, c, pad = p[1], p[2], p[3], p[4]
   for _ = 1, n do
      local row_id = get_id()
      local k_value = get_id()
      delete_id:set(row_id)
      id:set(row_id)
      k:set(k_value)
      c:set_rand_str(c_template)
      pad:set_rand_str(pad_template)
      delete:execute()
      insert:execute()
   end
end

-- One unprepared INSERT (oltp_insert). id nil: the database assigns it.
function execute_insert_row(table_num, id, k, c, pad)
   thread_backend().insert_row(drv, con, table_num, id, k, c, pad)
end
