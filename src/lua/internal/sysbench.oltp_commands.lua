-- sysbench.oltp_commands: the part of the bundled oltp_common.lua that only its commands run --
-- the option checks, prepare, verify, prewarm and cleanup, and the backends' table work
-- (create, drop, prewarm, TiDB's pre-split tables and region report). A worker of `run`
-- never calls any of it, and oltp_common.lua is loaded by every worker of a run: kept apart,
-- it is loaded (the first time oltp_common's create_table, check_oltp_options, cmd_prepare,
-- cmd_verify, cmd_prewarm or cleanup is called) only by the states that need it -- the main
-- state and the threads of a command -- instead of adding to every worker's Lua heap.
--
--   local part = sysbench.oltp_commands.attach(oltp)
--
-- oltp: what oltp_common.lua shares with it -- its backends (sql_backend, kv_backend,
-- tidb_backend), backend_for(drv), apply_pgsql_variant(drv), its own create_table (a
-- script's create_table() is told apart from it) and option_limits (what the workload added
-- with set_oltp_option_limits). attach() adds the table functions to the backends and
-- returns the implementations of oltp_common's globals check_oltp_options, create_table,
-- cmd_prepare, cmd_verify, cmd_prewarm and cleanup.
--
-- Globals are read as oltp_common read them (check_oltp_options, create_table,
-- oltp_backends, mysql_table_options), so scripts that replace them keep doing so.

sysbench.oltp_commands = {}

-- Accepted range of each numeric option: {lowest, highest or nil, note or nil}.
local default_option_limits = {
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

local function option_error(name, value, expected, note)
   error(string.format("invalid value for --%s: %s (expected %s%s)", name, tostring(value),
                       expected, note and ("; " .. note) or ""), 0)
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

-- A parallel command's thread handles tables first, first + --threads, ... (table N belongs
-- to thread (N - 1) % --threads).
local function first_own_table()
   return sysbench.tid % sysbench.opt.threads + 1
end

-- Driver names that speak MySQL's SQL dialect.
local mysql_family = {mysql = true, tidb = true, attachsql = true, drizzle = true}

-- The SQL backend's table work ----------------------------------------------------------------

local function add_sql_backend(sql_backend)
   -- 1.0.20's create_table(): creates and loads one table on the caller's connection.
   function sql_backend.create_table(drv, con, table_num)
      sysbench.oltp_load.create_single(drv, con, sql_backend, table_num)
   end

   function sql_backend.drop_table(drv, con, table_num)
      print(string.format("Dropping table 'sbtest%d'...", table_num))
      con:query("DROP TABLE IF EXISTS sbtest" .. table_num)
   end

   -- Reads the table through its primary key, then through a filter no index can serve, so
   -- its pages are in the server's cache before a run.
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
end

-- The TiDB backend's table work ---------------------------------------------------------------
-- The SQL backend with TiDB's prepare: the table made with --tidb-clustered-index,
-- --tidb-shard-row-id-bits or --tidb-auto-random, its index on k created with it (TiDB fills
-- an index faster row by row than by backfilling it), rows and index pre-split into
-- --tidb-split-regions regions before loading so the load has no write hotspot, and the
-- region count printed at the end.

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

local function add_tidb_backend(tidb_backend)
   -- The table with TiDB's options (and the marker of an incomplete table as its comment),
   -- its index on k made with it, the regions split; then the rows are loaded as on any SQL
   -- server.
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
         sysbench.load.say(string.format("Creating a secondary index on 'sbtest%d'...",
                                         table_num))
      end
      split_regions(ctx.con, table_num, rows, spec)
      if rows > 0 then
         sysbench.load.say(string.format("Inserting %d records into 'sbtest%d'", rows,
                                         table_num))
      end
   end

   -- The index on k was made with the table.
   function tidb_backend.build_index(ctx, table_num)
   end

   -- The regions the table ended up in, and its size as TiDB's storage statistics (PD) give
   -- it: rows and index together.
   function tidb_backend.table_sizes(ctx, table_num)
      local con = ctx.con
      local data, index = region_counts(con, table_num, sysbench.opt.create_secondary)
      if data ~= nil and index then
         sysbench.load.say(string.format(
            "Table 'sbtest%d': %d regions of rows, %d of its index on k", table_num, data,
            index))
      elseif data ~= nil then
         sysbench.load.say(string.format("Table 'sbtest%d': %d regions of rows", table_num,
                                         data))
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
end

-- The key-value backend's table work ----------------------------------------------------------
-- Tables are loaded by writing sorted files instead of INSERTs.

local function add_kv_backend(kv_backend)
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
end

-- The commands ----------------------------------------------------------------------------------

function sysbench.oltp_commands.attach(oltp)
   local sql_backend, kv_backend = oltp.sql_backend, oltp.kv_backend
   local backend_for, apply_pgsql_variant = oltp.backend_for, oltp.apply_pgsql_variant
   local oltp_create_table = oltp.create_table
   local part = {}

   add_sql_backend(sql_backend)
   add_tidb_backend(oltp.tidb_backend)
   add_kv_backend(kv_backend)

   -- Raises one error naming the first bad option. running: the run command, where rows are
   -- drawn from 1..--table_size, so an empty table cannot work.
   function part.check_oltp_options(running)
      local option_limits = {}
      for name, limits in pairs(default_option_limits) do
         option_limits[name] = limits
      end
      for name, limits in pairs(oltp.option_limits) do
         option_limits[name] = limits
      end
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

   -- 1.0.20's name: scripts override it, or call it from their own prepare.
   function part.create_table(drv, con, table_num)
      backend_for(drv).create_table(drv, con, table_num)
   end

   -- A backend of a script's own that brings its own create_table(): prepared table by table
   -- with it (and with a script's create_table() global), as 1.0.20 did.
   local function prepares_on_its_own(backend)
      return create_table ~= oltp_create_table or
         (backend.create_table ~= sql_backend.create_table and
          backend.create_table ~= kv_backend.create_table)
   end

   -- Creates and loads the tables: every table's ids are split over the threads
   -- (sysbench.oltp_load).
   function part.cmd_prepare()
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
   function part.cmd_verify()
      if not options_ok_for_command() then
         return
      end
      local drv = sysbench.sql.driver()
      apply_pgsql_variant(drv)
      return sysbench.oltp_load.run(sysbench.load.VERIFY, drv, backend_for(drv))
   end

   -- Loads the tables into the server's cache; parallel like prepare.
   function part.cmd_prewarm()
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

   function part.cleanup()
      check_oltp_options(false)
      local drv = sysbench.sql.driver()
      local con = drv:connect()
      local backend = backend_for(drv)
      for t = 1, sysbench.opt.tables do
         backend.drop_table(drv, con, t)
      end
   end

   return part
end
