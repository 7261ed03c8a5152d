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
   secondary_ranges = {"Number of secondary range SELECT queries per transaction", 0},
   index_updates = {"Number of UPDATE index queries per transaction", 1},
   non_index_updates = {"Number of UPDATE non-index queries per transaction", 1},
   delete_inserts = {"Number of DELETE/INSERT combinations per transaction", 1},
   range_selects = {"Enable/disable all range SELECT queries", true},
   auto_inc = {"Use AUTO_INCREMENT column as Primary Key (for MySQL), or its " ..
               "alternatives in other DBMS. When disabled, use client-generated IDs", true},
   create_table_options = {"Extra CREATE TABLE options", ""},
   skip_trx = {"Don't start explicit transactions and execute all queries in the " ..
               "AUTOCOMMIT mode", false},
   secondary = {"Use a secondary index in place of the PRIMARY KEY", false},
   create_secondary = {"Create a secondary index in addition to the PRIMARY KEY", true},
   reconnect = {"Reconnect after every N events. The default (0) is to not reconnect", 0},
   mysql_storage_engine = {"Storage engine, if MySQL is used", "innodb"},
   pgsql_variant = {"Use this PostgreSQL variant when running with the PostgreSQL driver. " ..
                    "The only currently supported variant is 'redshift'. When enabled, " ..
                    "create_secondary is automatically disabled, and delete_inserts is set " ..
                    "to 0"},
   prepare_method = {"How prepare sends rows: auto (the fastest the server takes), " ..
                     "load-data (LOAD DATA LOCAL INFILE; COPY on PostgreSQL) or insert " ..
                     "(multi-row INSERTs)", "auto"},
   resume = {"prepare: keep the complete tables and finish those an interrupted prepare " ..
             "left incomplete", false},
}

-- Option checks -------------------------------------------------------------------------------

-- Accepted range of each numeric option: {lowest, highest or nil, note or nil}.
local option_limits = {
   tables = {1},
   table_size = {0},
   range_size = {1},
   point_selects = {0},
   simple_ranges = {0},
   sum_ranges = {0},
   order_ranges = {0},
   distinct_ranges = {0},
   secondary_ranges = {0},
   index_updates = {0},
   non_index_updates = {0},
   delete_inserts = {0},
   reconnect = {0},
}

-- Lets a workload narrow an option or add one of its own (select_random_*: --tables=1 only).
function set_oltp_option_limits(name, lowest, highest, note)
   option_limits[name] = {lowest, highest, note}
end

local function option_error(name, value, expected, note)
   error(string.format("invalid value for --%s: %s (expected %s%s)", name, tostring(value),
                       expected, note and ("; " .. note) or ""), 0)
end

-- Raises one error naming the first bad option. running: the run command, where rows are
-- drawn from 1..--table_size, so an empty table cannot work.
function check_oltp_options(running)
   local names = {}
   for name in pairs(option_limits) do
      names[#names + 1] = name
   end
   table.sort(names)
   for _, name in ipairs(names) do
      local limits = option_limits[name]
      local lowest, highest, note = limits[1], limits[2], limits[3]
      if name == "table_size" and running then
         lowest = math.max(lowest, 1)
      end
      local value = sysbench.opt[name]
      local expected
      if highest == lowest then
         expected = tostring(lowest)
      elseif highest ~= nil then
         expected = string.format("a whole number from %d to %d", lowest, highest)
      else
         expected = string.format("a whole number >= %d", lowest)
      end
      if type(value) ~= "number" or value ~= math.floor(value) or value < lowest or
         (highest ~= nil and value > highest) then
         option_error(name, value, expected, note)
      end
   end
end

local prepare_methods = {auto = true, insert = true, ["load-data"] = true}

-- The options that are words, not numbers.
local function check_word_options()
   local method = sysbench.opt.prepare_method
   if method ~= nil and not prepare_methods[method] then
      error(string.format("invalid value for --prepare-method: %s (expected auto, insert or " ..
                          "load-data)", tostring(method)), 0)
   end
end

-- For the parallel commands: every thread checks, only the first one reports, so a bad
-- value gives one message however many threads run. False means "stop, do nothing".
local function options_ok_for_command()
   local ok, message = pcall(function()
      check_oltp_options(false)
      check_word_options()
   end)
   if ok then
      return true
   end
   if sysbench.tid == 0 then
      error(message, 0)
   end
   return false
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

-- Driver names that speak MySQL's SQL dialect.
local mysql_family = {mysql = true, tidb = true, attachsql = true, drizzle = true}

local sql_backend = {}

function sql_backend.statement(con, kind, table_num)
   local build = statement_sql_builders[kind]
   local text = build and build(table_num) or string.format(statement_sql[kind], table_num)
   return con:prepare(text)
end

-- 1.0.20's create_table(): creates and loads one table on the caller's connection.
function sql_backend.create_table(drv, con, table_num)
   sysbench.oltp_load.create_single(drv, con, sql_backend, table_num)
end

function sql_backend.drop_table(drv, con, table_num)
   print(string.format("Dropping table 'sbtest%d'...", table_num))
   con:query("DROP TABLE IF EXISTS sbtest" .. table_num)
end

-- Reads the table through its primary key, then through a filter no index can serve, so its
-- pages are in the server's cache before a run.
function sql_backend.prewarm_table(drv, con, table_num)
   local name = "sbtest" .. table_num
   print("Prewarming table " .. name)
   con:query("ANALYZE TABLE " .. name)
   con:query(string.format("SELECT AVG(id) FROM (SELECT * FROM %s FORCE KEY (PRIMARY) " ..
                           "LIMIT %u) t", name, sysbench.opt.table_size))
   con:query(string.format("SELECT COUNT(*) FROM (SELECT * FROM %s WHERE k LIKE '%%0%%' " ..
                           "LIMIT %u) t", name, sysbench.opt.table_size))
end

function sql_backend.prewarm_session(drv, con)
   if not mysql_family[drv:name()] then
      error("prewarm is currently MySQL only", 0)
   end
   -- keep the derived tables of the queries above in memory
   con:query("SET tmp_table_size=2*1024*1024*1024")
   con:query("SET max_heap_table_size=2*1024*1024*1024")
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
-- The SQL backend with TiDB's prepare: the table made with --tidb-clustered-index,
-- --tidb-shard-row-id-bits or --tidb-auto-random, its index on k created with it (TiDB fills
-- an index faster row by row than by backfilling it), rows and index pre-split into
-- --tidb-split-regions regions before loading so the load has no write hotspot, and the
-- region count printed at the end.

local tidb_backend = setmetatable({}, {__index = sql_backend})

local function tidb_table_spec()
   local opt = sysbench.opt
   local extra = opt.create_table_options
   if extra == nil or extra == "" then
      extra = mysql_table_options or ""
   end
   return {
      clustered = opt.tidb_clustered_index,
      shard_row_id_bits = opt.tidb_shard_row_id_bits,
      auto_random = opt.tidb_auto_random,
      auto_inc = opt.auto_inc,
      secondary_pk = opt.secondary,
      index_k = opt.create_secondary,
      engine = opt.mysql_storage_engine,
      extra = extra,
   }
end

-- Pre-splits the rows and the index on k into --tidb-split-regions regions each. TiDB wants
-- at least 1000 ids per region of an id range: a table too small for that many gets the
-- most it accepts (none below 2), said in one line, and the load goes on.
local function split_regions(con, table_num, rows, spec)
   local asked = sysbench.opt.tidb_split_regions
   if asked < 2 or rows == 0 then
      return
   end
   local row_regions = sysbench.tidb.split_regions_accepted(rows, asked, spec)
   local note = ""
   if row_regions < asked then
      note = string.format(" (its %d rows %s: TiDB needs at least %d rows per region)", rows,
                           row_regions < 2 and "stay in 1 region" or
                              "into " .. row_regions .. " only",
                           sysbench.tidb.MIN_KEYS_PER_REGION)
   end
   sysbench.load.say(string.format("Splitting 'sbtest%d' into %d regions...%s", table_num,
                                   asked, note))
   if row_regions >= 2 then
      con:query(sysbench.tidb.split_table_sql(table_num, rows, row_regions, spec))
   end
   if spec.index_k then
      con:query(sysbench.tidb.split_index_sql(table_num, rows, asked))
   end
end

-- The regions of sbtest<N> holding its rows and those holding its index on k (nil when
-- not created), or nil where the server cannot say. SHOW TABLE ... REGIONS also lists the
-- index regions, told apart by their end keys.
local function region_counts(con, table_num, with_index)
   local ok, id = pcall(con.query_row, con, string.format(
      "SELECT TIDB_TABLE_ID FROM information_schema.tables " ..
      "WHERE table_schema = DATABASE() AND table_name = 'sbtest%d'", table_num))
   local rs
   if ok and id ~= nil then
      ok, rs = pcall(con.query, con, sysbench.tidb.show_regions_sql(table_num))
   end
   if not ok or rs == nil or id == nil then
      return nil
   end
   local data = 0
   for _ = 1, rs.nrows do
      local row = rs:fetch_row()
      if sysbench.tidb.region_holds_rows(row[3] or "", tonumber(id)) then
         data = data + 1
      end
   end
   if not with_index then
      return data
   end
   local index
   ok, rs = pcall(con.query, con, string.format("SHOW TABLE sbtest%d INDEX k_%d REGIONS",
                                                table_num, table_num))
   if ok and rs ~= nil then
      index = rs.nrows
   end
   return data, index
end

-- The table with TiDB's options (and the marker of an incomplete table as its comment), its
-- index on k made with it, the regions split; then the rows are loaded as on any SQL server.
function tidb_backend.create_table_ddl(ctx, table_num, marker)
   local opt = sysbench.opt
   local spec = tidb_table_spec()
   local rows = opt.table_size
   local sql = sysbench.tidb.create_table_sql(table_num, spec)
   if marker ~= nil then
      sql = sql .. string.format(" COMMENT='%s'", marker)
   end

   sysbench.load.say(string.format("Creating table 'sbtest%d'...", table_num))
   ctx.con:query(sql)
   if opt.create_secondary then
      sysbench.load.say(string.format("Creating a secondary index on 'sbtest%d'...", table_num))
   end
   split_regions(ctx.con, table_num, rows, spec)
   if rows > 0 then
      sysbench.load.say(string.format("Inserting %d records into 'sbtest%d'", rows, table_num))
   end
end

-- The index on k was made with the table.
function tidb_backend.build_index(ctx, table_num)
end

-- The regions the table ended up in, and its size as TiDB's storage statistics (PD) give it:
-- rows and index together.
function tidb_backend.table_sizes(ctx, table_num)
   local con = ctx.con
   local data, index = region_counts(con, table_num, sysbench.opt.create_secondary)
   if data ~= nil and index then
      sysbench.load.say(string.format(
         "Table 'sbtest%d': %d regions of rows, %d of its index on k", table_num, data, index))
   elseif data ~= nil then
      sysbench.load.say(string.format("Table 'sbtest%d': %d regions of rows", table_num, data))
   end
   local ok, mib = pcall(con.query_row, con, string.format(
      "SELECT TABLE_SIZE FROM information_schema.TABLE_STORAGE_STATS " ..
      "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'sbtest%d'", table_num))
   if ok and tonumber(mib) ~= nil then
      return tonumber(mib) * 1048576, nil
   end
   local why = tostring(mib)
   why = why:match("state = '[^']*': (.-) %(query: ") or why
   sysbench.load.note_once("NOTE: TiDB gives no storage statistics here (information_schema." ..
                  "TABLE_STORAGE_STATS: " .. why .. "), so the sizes on disk are left out")
   return nil
end

-- The key-value backend ---------------------------------------------------------------------
-- For drivers of the key-value family (--db-driver=rocksdb). Each statement kind has a
-- key-value form doing the work its SQL form makes a server do -- a point read, a bounded
-- scan, an index entry moved, rows fetched through the secondary index (docs/rocksdb.md) --
-- and is counted as the SQL statement would be, so reports compare across drivers. Tables
-- are loaded by writing sorted files instead of INSERTs.

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

-- 1.0.20's create_table(): creates and loads one table on the caller's connection.
function kv_backend.create_table(drv, con, table_num)
   sysbench.oltp_load.create_single(drv, con, kv_backend, table_num)
end

function kv_backend.drop_table(drv, con, table_num)
   print(string.format("Dropping table 'sbtest%d'...", table_num))
   sysbench.kv.drop_table(con, table_num)
end

function kv_backend.prewarm_session(drv, con)
end

-- Reading every row and index entry once brings the table into the block cache.
function kv_backend.prewarm_table(drv, con, table_num)
   print("Prewarming table sbtest" .. table_num)
   sysbench.kv.check_table(con, table_num)
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

-- Commands --------------------------------------------------------------------------------------

-- A parallel command's thread handles tables first, first + --threads, ... (table N belongs
-- to thread (N - 1) % --threads).
local function first_own_table()
   return sysbench.tid % sysbench.opt.threads + 1
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

-- 1.0.20's name: scripts override it, or call it from their own prepare.
function create_table(drv, con, table_num)
   backend_for(drv).create_table(drv, con, table_num)
end
local oltp_create_table = create_table

-- A backend of a script's own that brings its own create_table(): prepared table by table
-- with it (and with a script's create_table() global), as 1.0.20 did.
local function prepares_on_its_own(backend)
   return create_table ~= oltp_create_table or
      (backend.create_table ~= sql_backend.create_table and
       backend.create_table ~= kv_backend.create_table)
end

-- Creates and loads the tables: every table's ids are split over the threads
-- (sysbench.oltp_load).
function cmd_prepare()
   if not options_ok_for_command() then
      return
   end
   local drv = sysbench.sql.driver()
   local backend = backend_for(drv)
   apply_pgsql_variant(drv)
   if prepares_on_its_own(backend) then
      local con = drv:connect()
      for t = first_own_table(), sysbench.opt.tables, sysbench.opt.threads do
         create_table(drv, con, t)
      end
      return
   end
   return sysbench.oltp_load.run(sysbench.load.PREPARE, drv, backend)
end

-- Checks the tables as prepare left them: row count, ids 1..table_size without gaps, the
-- index on k against the rows, and with --rand-seed the rows themselves. Exits 1 when a
-- table is wrong.
function cmd_verify()
   if not options_ok_for_command() then
      return
   end
   local drv = sysbench.sql.driver()
   apply_pgsql_variant(drv)
   return sysbench.oltp_load.run(sysbench.load.VERIFY, drv, backend_for(drv))
end

-- Loads the tables into the server's cache; parallel like prepare.
function cmd_prewarm()
   if not options_ok_for_command() then
      return
   end
   local drv = sysbench.sql.driver()
   local con = drv:connect()
   local backend = backend_for(drv)
   backend.prewarm_session(drv, con)
   for t = first_own_table(), sysbench.opt.tables, sysbench.opt.threads do
      backend.prewarm_table(drv, con, t)
   end
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
   check_oltp_options(false)
   local drv = sysbench.sql.driver()
   local con = drv:connect()
   local backend = backend_for(drv)
   for t = 1, sysbench.opt.tables do
      backend.drop_table(drv, con, t)
   end
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

-- Prepares statement `kind` on every table, or on tables 1..last_table: stmt[t][kind], with
-- its parameters bound as param[t][kind][1..n].
function prepare_for_each_table(kind, last_table)
   local shape = statement_params[kind]
   if type(shape) == "function" then
      shape = shape()
   end
   for t = 1, last_table or sysbench.opt.tables do
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

   prepare_statements()      -- defined by the workload script
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
