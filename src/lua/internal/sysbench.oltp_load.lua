-- sysbench.oltp_load: the `prepare` and `verify` commands of the sbtest tables the bundled
-- OLTP workloads use: the loop every thread of the command runs (sysbench.load hands out the
-- work), and the loaders it drives -- one for SQL drivers, one for key-value drivers.
--
-- A loader offers, per thread, on a context made by loader.context(drv, con, command, backend):
--   begin_table(ctx, t)   prepare: create sbtest<t> (or, with --resume, look at it):
--                         "load", or "skip" when --resume found it complete
--   load_range(ctx, item) load ids item.first..item.last: "ok" or "stopped"
--   finish_table(ctx, t)  after the last range: the index on k, the sizes
--   begin_verify, verify_range, finish_verify   the same for `verify`
-- and a workload's storage backend (oltp_common.lua) may supply the DDL its driver needs:
--   backend.create_table_ddl(ctx, t, marker)  create the table, printing 1.0.20's messages
--   backend.build_index(ctx, t)               the index on k, after the rows
--   backend.table_sizes(ctx, t)               data and index bytes on the server, or nil
--
-- A table being loaded carries a marker (its COMMENT on SQL servers) until it is complete:
-- the next prepare names `cleanup` and `--resume` when it finds one, and --resume reads the
-- seed and the options the rows came from in it. Tables without the marker are never changed.

local load = sysbench.load

sysbench.oltp_load = {}
local M = sysbench.oltp_load

-- Random digits in groups of 11 joined by '-': c has 10 groups (119 characters), pad 5 (59).
M.c_template = string.rep("###########", 10, "-")
M.pad_template = string.rep("###########", 5, "-")

local mysql_family = {mysql = true, tidb = true, attachsql = true, drizzle = true}

-- The most an INSERT of the load may take, when the server allows that much.
local INSERT_BYTES = 4 * 1024 * 1024

local format = string.format

local function say(fmt, ...)
   load.say(format(fmt, ...))
end

-- ------------------------------------------------------------------------------------------
-- The marker of an incomplete table
-- ------------------------------------------------------------------------------------------

local MARKER_PREFIX = "sysbench prepare: incomplete"

-- What k is drawn with: a resumed table must go on with the same distribution.
local function k_distribution()
   local opt = sysbench.opt
   return format("%s/%s/%s/%s/%s/%s", tostring(opt.rand_type), tostring(opt.rand_spec_iter),
                 tostring(opt.rand_spec_pct), tostring(opt.rand_spec_res),
                 tostring(opt.rand_pareto_h), tostring(opt.rand_zipfian_exp))
end

function M.marker(seed)
   return format("%s; seed=%s; rows=%d; k=%s", MARKER_PREFIX, load.seed_text(seed),
                 sysbench.opt.table_size, k_distribution())
end

-- The fields of a marker, or nil when the text is none of ours.
function M.parse_marker(text)
   if type(text) ~= "string" or text:sub(1, #MARKER_PREFIX) ~= MARKER_PREFIX then
      return nil
   end
   return {
      seed = text:match("seed=(%d+)"),
      rows = tonumber(text:match("rows=(%d+)")),
      k = text:match("k=([^;]+)"),
   }
end

-- For --resume: the seed to go on with, or an error naming the option that differs.
local function resume_seed(t, marker)
   local opt = sysbench.opt
   if marker.rows ~= opt.table_size then
      error(format("sbtest%d was being loaded with --table-size=%s, not %d: resume with the " ..
                   "same options, or run `cleanup`", t, tostring(marker.rows), opt.table_size), 0)
   end
   if marker.k ~= k_distribution() then
      error(format("sbtest%d was being loaded with k drawn as %s (--rand-type and its " ..
                   "parameters), not %s: resume with the same options, or run `cleanup`",
                   t, tostring(marker.k), k_distribution()), 0)
   end
   local seed = load.seed_from_text(marker.seed or "0")
   if opt.rand_seed ~= 0 and load.seed_text(load.effective_seed()) ~= marker.seed then
      error(format("sbtest%d was being loaded with --rand-seed=%s: resume with that seed, or " ..
                   "without --rand-seed", t, tostring(marker.seed)), 0)
   end
   return seed
end

-- ------------------------------------------------------------------------------------------
-- SQL: what differs between MySQL's and PostgreSQL's dialects
-- ------------------------------------------------------------------------------------------

local function is_mysql(ctx)
   return ctx.dialect == "mysql"
end

-- The table's comment ("" when none), or nil when the table does not exist.
local function table_comment(ctx, t)
   if is_mysql(ctx) then
      return ctx.con:query_row(format(
         "SELECT TABLE_COMMENT FROM information_schema.TABLES " ..
         "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'sbtest%d'", t))
   end
   return ctx.con:query_row(format(
      "SELECT COALESCE(obj_description(c.oid, 'pg_class'), '') FROM pg_class c " ..
      "WHERE c.relname = 'sbtest%d' AND c.relkind IN ('r', 'p') AND " ..
      "pg_table_is_visible(c.oid)", t))
end

-- The comment of the first sbtest table that carries our marker, or nil.
local function first_marker_comment(ctx)
   local like = "'sbtest%' "
   local marked = "'" .. MARKER_PREFIX .. "%'"
   if is_mysql(ctx) then
      return ctx.con:query_row(
         "SELECT TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() " ..
         "AND TABLE_NAME LIKE " .. like .. "AND TABLE_COMMENT LIKE " .. marked ..
         " ORDER BY LENGTH(TABLE_NAME), TABLE_NAME LIMIT 1")
   end
   return ctx.con:query_row(
      "SELECT obj_description(c.oid, 'pg_class') FROM pg_class c WHERE c.relname LIKE " ..
      like .. "AND c.relkind IN ('r', 'p') AND pg_table_is_visible(c.oid) AND " ..
      "obj_description(c.oid, 'pg_class') LIKE " .. marked ..
      " ORDER BY LENGTH(c.relname), c.relname LIMIT 1")
end

-- prepare --resume without --rand-seed: the seed the interrupted prepare recorded in its
-- markers, so the tables it never created are loaded from it too and the finished set is the
-- one a fresh load with that seed gives. nil: no marker, or a seed was given.
local function interrupted_seed(ctx)
   local opt = sysbench.opt
   if not opt.resume or opt.rand_seed ~= 0 then
      return nil
   end
   local ok, comment = pcall(first_marker_comment, ctx)
   local marker = ok and M.parse_marker(comment) or nil
   if marker == nil or marker.seed == nil then
      return nil
   end
   return load.seed_from_text(marker.seed)
end

local function index_exists(ctx, t)
   local n
   if is_mysql(ctx) then
      n = ctx.con:query_row(format(
         "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() " ..
         "AND TABLE_NAME = 'sbtest%d' AND INDEX_NAME = 'k_%d'", t, t))
   else
      n = ctx.con:query_row(format(
         "SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema() AND " ..
         "tablename = 'sbtest%d' AND indexname = 'k_%d'", t, t))
   end
   return tonumber(n) ~= nil and tonumber(n) > 0
end

local function clear_marker(ctx, t)
   if is_mysql(ctx) then
      ctx.con:query(format("ALTER TABLE sbtest%d COMMENT=''", t))
   else
      ctx.con:query(format("COMMENT ON TABLE sbtest%d IS NULL", t))
   end
end

-- Data and index bytes on disk, as the server counts them; nil where it does not say.
local function default_table_sizes(ctx, t)
   local con = ctx.con
   if is_mysql(ctx) then
      -- InnoDB refreshes the figures below from a few sampled pages; other engines keep
      -- them exact, and ANALYZE would read their whole index
      if tostring(sysbench.opt.mysql_storage_engine):lower() == "innodb" then
         pcall(con.query, con, "ANALYZE TABLE sbtest" .. t)
      end
      local ok, data, index = pcall(con.query_row, con, format(
         "SELECT DATA_LENGTH, INDEX_LENGTH FROM information_schema.TABLES " ..
         "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'sbtest%d'", t))
      if ok then
         return tonumber(data), tonumber(index)
      end
      return nil
   end
   local ok, data, index = pcall(con.query_row, con, format(
      "SELECT pg_table_size('sbtest%d'), pg_indexes_size('sbtest%d')", t, t))
   if ok then
      return tonumber(data), tonumber(index)
   end
   return nil
end

-- ------------------------------------------------------------------------------------------
-- SQL: the loader
-- ------------------------------------------------------------------------------------------

local sql = {}
M.sql = sql

-- The statements of the streamed load (nil: the driver has none).
local function stream_statement(ctx, t)
   if is_mysql(ctx) then
      return format("LOAD DATA LOCAL INFILE 'sbtest%d' INTO TABLE sbtest%d (id, k, c, pad)",
                    t, t)
   elseif sysbench.opt.pgsql_variant ~= "redshift" then
      return format("COPY sbtest%d (id, k, c, pad) FROM STDIN", t)
   end
   return nil
end

local function statement_bytes(ctx)
   if not is_mysql(ctx) then
      return INSERT_BYTES
   end
   local ok, packet = pcall(ctx.con.query_row, ctx.con, "SELECT @@max_allowed_packet")
   packet = ok and tonumber(packet) or nil
   if packet == nil then
      return 512 * 1024     -- 1.0.20's size, which every server takes
   end
   return math.max(16 * 1024, math.min(INSERT_BYTES, packet - 1024))
end

-- Session settings for loading a fresh table. unique_checks=0 lets InnoDB skip the checks of
-- unique secondary keys (the table has none: it costs nothing either way). foreign_key_checks
-- stays on: with both off MariaDB 10.6+ switches an empty table to its bulk-insert mode,
-- which took 1.8x the server CPU per row here (and the tables have no foreign keys). On
-- PostgreSQL the commits of the load do not wait for the disk: a crash in the middle leaves
-- an incomplete table either way (`cleanup`, or prepare --resume).
local function load_session(ctx, driver_name)
   if driver_name == "mysql" then
      pcall(ctx.con.query, ctx.con, "SET SESSION unique_checks = 0")
   elseif ctx.dialect == "pgsql" then
      pcall(ctx.con.query, ctx.con, "SET synchronous_commit = off")
   end
end

function sql.context(drv, con, command, backend)
   local name = drv:name()
   if not mysql_family[name] and name ~= "pgsql" then
      error("Unsupported database driver:" .. name, 0)
   end
   local ctx = {
      drv = drv,
      con = con,
      command = command,
      backend = backend,
      dialect = mysql_family[name] and "mysql" or "pgsql",
      specs = {},
      seeds = {},
   }
   local asked = sysbench.opt.prepare_method or "auto"
   ctx.method = asked == "insert" and load.INSERT or load.STREAM
   ctx.method_asked = asked
   if ctx.method == load.STREAM and stream_statement(ctx, 1) == nil then
      ctx.method = load.INSERT
   end
   if command == load.PREPARE then
      ctx.statement_bytes = statement_bytes(ctx)
      load_session(ctx, drv:driver_name())
      ctx.resume_seed = interrupted_seed(ctx)
   end
   return ctx
end

local function table_seed(ctx, t)
   return ctx.seeds[t] or load.table_seed(t)
end

local function spec_of(ctx, t)
   local spec = ctx.specs[t]
   if spec ~= nil then
      return spec
   end
   local opt = sysbench.opt
   local method = ctx.method
   if method == load.STREAM and load.stream_refused() then
      method = load.INSERT
   end
   spec = load.sql_spec({
      table = t,
      table_size = opt.table_size,
      seed = table_seed(ctx, t),
      c_template = M.c_template,
      pad_template = M.pad_template,
      method = method,
      insert_prefix = format("INSERT INTO sbtest%d(id, k, c, pad) VALUES", t),
      stream_statement = stream_statement(ctx, t),
      statement_bytes = ctx.statement_bytes or INSERT_BYTES,
      transactions = true,
      resume = ctx.resume_all or load.table_resumed(t),
      compare_contents = ctx.command == load.VERIFY and opt.rand_seed ~= 0,
   })
   ctx.specs[t] = spec
   return spec
end

-- The CREATE TABLE of the bundled schema, with the marker as its comment on MySQL.
function M.create_statement(drv, t, marker)
   local opt = sysbench.opt
   local name = drv:name()
   local id_def, engine_def, extra = "INTEGER NOT NULL", "", ""
   if mysql_family[name] then
      id_def = opt.auto_inc and "INTEGER NOT NULL AUTO_INCREMENT" or "INTEGER NOT NULL"
      extra = opt.create_table_options
      if extra == nil or extra == "" then
         extra = mysql_table_options or ""        -- 1.0.20 scripts set this global
      end
      engine_def = "/*! ENGINE = " .. opt.mysql_storage_engine .. " */"
      if marker ~= nil then
         extra = extra .. format(" COMMENT='%s'", marker)
      end
   elseif name == "pgsql" then
      if not opt.auto_inc then
         id_def = "INTEGER NOT NULL"
      elseif opt.pgsql_variant == "redshift" then
         id_def = "INTEGER IDENTITY(1,1)"
      else
         id_def = "SERIAL"
      end
   else
      error("Unsupported database driver:" .. name, 0)
   end
   return format("CREATE TABLE sbtest%d(\n" ..
                 "  id %s,\n" ..
                 "  k INTEGER DEFAULT '0' NOT NULL,\n" ..
                 "  c CHAR(120) DEFAULT '' NOT NULL,\n" ..
                 "  pad CHAR(60) DEFAULT '' NOT NULL,\n" ..
                 "  %s (id)\n" ..
                 ") %s %s",
                 t, id_def, opt.secondary and "KEY xid" or "PRIMARY KEY", engine_def, extra)
end

-- A COMMENT of the user's own in --create_table_options leaves no room for the marker.
function M.marker_allowed()
   local extra = sysbench.opt.create_table_options or ""
   if extra == "" then
      extra = mysql_table_options or ""
   end
   return not tostring(extra):lower():find("comment", 1, true)
end

-- The generic DDL: 1.0.20's messages and statements, plus the marker.
local function default_create_table_ddl(ctx, t, marker)
   local con = ctx.con
   say("Creating table 'sbtest%d'...", t)
   if is_mysql(ctx) and marker ~= nil and table_comment(ctx, t) ~= nil then
      -- The table exists: 1.0.20's own statement fails, so its error lines read as 1.0.20's
      -- (the marker goes into the CREATE only where the CREATE can succeed).
      marker = nil
   end
   if is_mysql(ctx) or marker == nil then
      con:query(M.create_statement(ctx.drv, t, marker))
   else
      con:query("BEGIN")
      local ok, err = pcall(con.query, con, M.create_statement(ctx.drv, t, nil))
      if not ok then
         pcall(con.query, con, "ROLLBACK")
         error(err, 0)
      end
      con:query(format("COMMENT ON TABLE sbtest%d IS '%s'", t, marker))
      con:query("COMMIT")
   end
   if sysbench.opt.table_size > 0 then
      say("Inserting %d records into 'sbtest%d'", sysbench.opt.table_size, t)
   end
end

local function default_build_index(ctx, t)
   say("Creating a secondary index on 'sbtest%d'...", t)
   if not (load.table_resumed(t) and index_exists(ctx, t)) then
      ctx.con:query(format("CREATE INDEX k_%d ON sbtest%d(k)", t, t))
   end
end

local function call_backend(ctx, name, default, ...)
   local fn = ctx.backend ~= nil and ctx.backend[name] or nil
   return (fn or default)(ctx, ...)
end

-- "sbtest1" or "sbtest1..sbtest<N>": the tables of --tables.
function M.table_list()
   local n = sysbench.opt.tables
   return n == 1 and "sbtest1" or format("sbtest1..sbtest%d", n)
end

-- What an existing table is, for the message after CREATE TABLE failed.
local function existing_table_hint(ctx, t)
   local ok, comment = pcall(table_comment, ctx, t)
   local marker = ok and M.parse_marker(comment) or nil
   if marker ~= nil then
      return format("HINT: sbtest%d was left incomplete by an interrupted prepare: `cleanup` " ..
                    "drops the tables, the same prepare with --resume finishes loading them", t)
   end
   return format("HINT: sbtest%d exists already: `cleanup` drops %s, or the same prepare " ..
                 "with --resume keeps complete tables and finishes incomplete ones", t,
                 M.table_list())
end

local function is_exists_error(err)
   return type(err) == "string" and
      (err:find("errno = 1050,", 1, true) or err:find("state = '42P07'", 1, true))
end

-- --resume: an existing table is kept when it is complete, or finished when it carries our
-- marker; any other is left alone and stops the command.
local function resume_existing(ctx, t, comment)
   local opt = sysbench.opt
   local marker = M.parse_marker(comment)
   if marker ~= nil then
      local seed = resume_seed(t, marker)
      ctx.seeds[t] = seed
      load.table_rows_from(t, seed, true)
      say("Resuming table 'sbtest%d', left incomplete by an interrupted prepare...", t)
      if opt.table_size > 0 then
         say("Inserting the missing records of %d into 'sbtest%d'", opt.table_size, t)
      end
      return "load"
   end
   local max_id = tonumber(ctx.con:query_row("SELECT MAX(id) FROM sbtest" .. t)) or 0
   local index_ok = not opt.create_secondary or index_exists(ctx, t)
   if max_id ~= opt.table_size or not index_ok then
      error(format("sbtest%d exists, but holds ids up to %d (not %d)%s and was not left by an " ..
                   "interrupted prepare, so --resume leaves it alone: `cleanup` drops it", t,
                   max_id, opt.table_size, index_ok and "" or " without the index on k"), 0)
   end
   say("Table 'sbtest%d' is complete: kept (--resume)", t)
   local data, index = call_backend(ctx, "table_sizes", default_table_sizes, t)
   load.table_rows_from(t, load.effective_seed(), false)
   load.finished(t, M.logical_bytes(), data, index)
   return "skip"
end

function sql.begin_table(ctx, t)
   if sysbench.opt.resume then
      local comment = table_comment(ctx, t)
      if comment ~= nil then
         return resume_existing(ctx, t, comment)
      end
   end
   local seed = ctx.resume_seed or load.effective_seed()
   ctx.seeds[t] = seed
   load.table_rows_from(t, seed, false)
   local marker = M.marker_allowed() and M.marker(seed) or nil
   local ok, err = pcall(call_backend, ctx, "create_table_ddl", default_create_table_ddl, t,
                         marker)
   if not ok then
      if is_exists_error(err) then
         err = err .. "\n" .. existing_table_hint(ctx, t)
      end
      error(err, 0)
   end
   return "load"
end

-- The streamed load is tried first with --prepare-method=auto; a server that refuses it gets
-- INSERTs instead (said once). These errors mean "not allowed here", before any row is read.
local stream_refusals = {
   [1148] = true,    -- ER_NOT_ALLOWED_COMMAND (local_infile off)
   [3948] = true,    -- ER_CLIENT_LOCAL_FILES_DISABLED (MySQL 8)
   [3950] = true,    -- ER_LOAD_DATA_LOCAL_INFILE... disabled on the client side (MySQL 8)
   [2068] = true,    -- CR_LOAD_DATA_LOCAL_INFILE_REJECTED
   [4166] = true,    -- ER_LOAD_INFILE_CAPABILITY_DISABLED (MariaDB)
   [1235] = true,    -- ER_NOT_SUPPORTED_YET
   [-1001] = true,   -- the driver cannot stream
}

function sql.load_range(ctx, item)
   local t = item.table
   local spec = spec_of(ctx, t)
   local result = load.sql_load(ctx.con, spec, item.first, item.last, true)
   if result ~= "error" then
      return result
   end
   local errno, state, message = load.last_error(ctx.con)
   local text = format("SQL error, errno = %d, state = '%s': %s (loading ids %d..%d of " ..
                       "sbtest%d)", errno, state, message, item.first, item.last, t)
   if spec.cdata.method ~= load.STREAM or not stream_refusals[errno] then
      error(text, 0)
   end
   if ctx.method_asked ~= "auto" then
      error(text .. "\nHINT: the server does not take LOAD DATA LOCAL INFILE: allow it " ..
            "(SET GLOBAL local_infile = 1), or load with --prepare-method=insert", 0)
   end
   if load.refuse_stream() then
      load.note_once(format("NOTE: the server refused LOAD DATA LOCAL INFILE (error %d: %s); " ..
                            "loading with multi-row INSERTs", errno, message))
   end
   -- again with INSERTs; blocks another thread may have loaded meanwhile are looked at first
   ctx.specs = {}
   ctx.resume_all = true
   local retry = spec_of(ctx, t)
   ctx.resume_all = false
   ctx.specs = {}
   return load.sql_load(ctx.con, retry, item.first, item.last, false)
end

-- The logical size of a table: its rows' column bytes, and 8 bytes per entry of the index.
function M.logical_bytes()
   local opt = sysbench.opt
   local row = 8 + #M.c_template + #M.pad_template
   return opt.table_size * (row + (opt.create_secondary and 8 or 0))
end

function sql.finish_table(ctx, t)
   local opt = sysbench.opt
   if opt.create_secondary then
      load.activity(t, "creating the secondary index")
      call_backend(ctx, "build_index", default_build_index, t)
   end
   if ctx.dialect == "pgsql" and opt.auto_inc and opt.table_size > 0 and
      opt.pgsql_variant ~= "redshift" then
      -- the ids were sent explicitly: the sequence goes on after them, as after 1.0.20's load
      ctx.con:query(format("SELECT setval(pg_get_serial_sequence('sbtest%d', 'id'), %d)", t,
                           opt.table_size))
   end
   load.activity(t, "measuring its size")
   if M.marker_allowed() then
      clear_marker(ctx, t)
   end
   local data, index = call_backend(ctx, "table_sizes", default_table_sizes, t)
   load.finished(t, M.logical_bytes(), data, index)
end

-- verify --------------------------------------------------------------------------------------

function sql.begin_verify(ctx, t)
   local comment = table_comment(ctx, t)
   if comment == nil then
      load.verdict(t, false, format("sbtest%d: WRONG: the table does not exist", t))
      load.finished(t, 0)
      return "skip"
   end
   if M.parse_marker(comment) ~= nil then
      load.say(format("sbtest%d: note: the table is marked incomplete (an interrupted prepare)",
                      t))
   end
   local seed = sysbench.opt.rand_seed ~= 0 and load.effective_seed() or 0
   ctx.seeds[t] = seed
   load.table_rows_from(t, seed, false)
   return "load"
end

function sql.verify_range(ctx, item)
   return load.sql_verify_range(ctx.con, spec_of(ctx, item.table), item.first, item.last)
end

-- The index on k read on its own: its entry count and the sums of k and id over it.
local function index_aggregates(ctx, t)
   local opt = sysbench.opt
   local exists = index_exists(ctx, t)
   if not opt.create_secondary then
      return {state = exists and load.INDEX_UNEXPECTED or load.INDEX_NOT_WANTED}
   end
   if not exists then
      return {state = load.INDEX_MISSING}
   end
   local con = ctx.con
   local rows, sum_k, sum_id
   if is_mysql(ctx) then
      rows, sum_k, sum_id = con:query_row(format(
         "SELECT COUNT(*), SUM(k), SUM(id) FROM sbtest%d FORCE INDEX (k_%d)", t, t))
   else
      -- a range on k, with the other plans off, makes PostgreSQL read the rows through k_N
      con:query("SET enable_seqscan = off")
      con:query("SET enable_bitmapscan = off")
      rows, sum_k, sum_id = con:query_row(format(
         "SELECT COUNT(*), SUM(k), SUM(id) FROM sbtest%d WHERE k >= -2147483648", t))
      con:query("RESET enable_seqscan")
      con:query("RESET enable_bitmapscan")
   end
   return {state = load.INDEX_READ, name = "k_" .. t, rows = rows or "0", sum_k = sum_k or "0",
           sum_id = sum_id or "0"}
end

function sql.finish_verify(ctx, t)
   load.activity(t, "reading the index on k")
   load.sql_verify_table(ctx.con, spec_of(ctx, t), index_aggregates(ctx, t))
   load.finished(t, 0)
end

-- ------------------------------------------------------------------------------------------
-- Key-value drivers (RocksDB): tables are loaded by writing sorted files (sysbench.kv)
-- ------------------------------------------------------------------------------------------

local kv = {}
M.kv = kv

-- prepare --resume without --rand-seed: the seed the interrupted prepare recorded (in the
-- marker of a table it left incomplete, or in the record of one it completed), so that the
-- tables it never began are loaded from it too. nil: none recorded.
local function kv_interrupted_seed(con)
   for t = 1, sysbench.opt.tables do
      local record = sysbench.kv.table_record(con, t)
      local marker = M.parse_marker(record.marker)
      if marker ~= nil and marker.seed ~= nil then
         return load.seed_from_text(marker.seed)
      end
      if record.seed ~= nil then
         return record.seed
      end
   end
   return nil
end

function kv.context(drv, con, command, backend)
   local ctx = {drv = drv, con = con, command = command, backend = backend, seeds = {}}
   local opt = sysbench.opt
   if command == load.PREPARE and opt.resume and opt.rand_seed == 0 then
      ctx.resume_seed = kv_interrupted_seed(con)
   end
   return ctx
end

-- --resume of a complete table: kept, unless --rand-seed names another seed than its rows'.
local function kv_keep_complete(ctx, t, record)
   local opt = sysbench.opt
   if record.seed ~= nil and opt.rand_seed ~= 0 and
      load.seed_text(record.seed) ~= load.seed_text(load.effective_seed()) then
      error(format("sbtest%d was loaded with --rand-seed=%s: resume with that seed, or " ..
                   "without --rand-seed", t, load.seed_text(record.seed)), 0)
   end
   say("Table 'sbtest%d' is complete: kept (--resume)", t)
   local data, index = sysbench.kv.table_sizes(ctx.con, t)
   load.table_rows_from(t, record.seed or ctx.resume_seed or load.effective_seed(), false)
   load.finished(t, M.logical_bytes(), data, index)
   return "skip"
end

function kv.begin_table(ctx, t)
   local opt = sysbench.opt
   local record = sysbench.kv.table_record(ctx.con, t)
   local state = record.state
   local seed = ctx.resume_seed or load.effective_seed()
   if state ~= "absent" and opt.resume then
      if state == "complete" then
         return kv_keep_complete(ctx, t, record)
      end
      -- a RocksDB table is resumed whole, from the seed its load recorded: its incomplete
      -- keys go, and it is loaded again
      local marker = M.parse_marker(record.marker)
      if marker ~= nil then
         seed = resume_seed(t, marker)
      end
      say("Table 'sbtest%d' was left incomplete by an interrupted prepare: loading it again", t)
      sysbench.kv.drop_table(ctx.con, t)
   end
   say("Creating table 'sbtest%d'...", t)
   if state ~= "absent" and not opt.resume then
      local hint = state == "incomplete" and
         format("HINT: sbtest%d was left incomplete by an interrupted prepare: `cleanup` drops " ..
                "the tables, the same prepare with --resume loads it again", t) or
         format("HINT: sbtest%d exists already: `cleanup` drops %s, or the same prepare " ..
                "with --resume keeps complete tables", t, M.table_list())
      error(format("SQL error, errno = 1050, state = '42S01': Table 'sbtest%d' already exists " ..
                   "(query: creating table sbtest%d)\n%s", t, t, hint), 0)
   end
   if opt.table_size > 0 then
      say("Inserting %d records into 'sbtest%d'", opt.table_size, t)
   end
   if opt.create_secondary then
      say("Creating a secondary index on 'sbtest%d'...", t)
   end
   ctx.seeds[t] = seed
   load.table_rows_from(t, seed, false)
   return "load"
end

function kv.load_range(ctx, item)
   local opt = sysbench.opt
   local seed = ctx.seeds[item.table] or load.table_seed(item.table)
   return sysbench.kv.load_range(ctx.con, item.table, opt.table_size, item.first, item.last, {
      secondary_index = opt.create_secondary,
      auto_inc = opt.auto_inc,
      seed = seed,
      c_template = M.c_template,
      pad_template = M.pad_template,
      marker = M.marker(seed),
   })
end

function kv.finish_table(ctx, t)
   local opt = sysbench.opt
   load.activity(t, "recording it")
   sysbench.kv.finish_table(ctx.con, t, opt.table_size, {
      secondary_index = opt.create_secondary,
      auto_inc = opt.auto_inc,
   })
   local data, index = sysbench.kv.table_sizes(ctx.con, t)
   load.finished(t, M.logical_bytes(), data, index)
end

function kv.begin_verify(ctx, t)
   if sysbench.kv.table_state(ctx.con, t) == "absent" then
      load.verdict(t, false, format("sbtest%d: WRONG: the table does not exist", t))
      load.finished(t, 0)
      return "skip"
   end
   return "load"
end

-- What is wrong with verify's options against what the table's load recorded: a RocksDB
-- table is read back against the checksum of its load, which is that of the rows of its
-- --table-size and seed; verify given others is told so.
local function kv_option_problems(record)
   local opt = sysbench.opt
   local problems = {}
   if record.state ~= "complete" then
      return problems
   end
   if record.rows ~= opt.table_size then
      problems[#problems + 1] = format("the table holds the %d rows of a prepare with " ..
         "--table-size=%d, where verify was given --table-size=%d: verify needs the " ..
         "--table-size prepare used", record.rows, record.rows, opt.table_size)
   end
   if record.seed ~= nil and opt.rand_seed ~= 0 and
      load.seed_text(record.seed) ~= load.seed_text(load.effective_seed()) then
      problems[#problems + 1] = format("its rows come from --rand-seed=%s, not from the " ..
         "--rand-seed=%s verify was given", load.seed_text(record.seed),
         load.seed_text(load.effective_seed()))
   end
   return problems
end

-- A RocksDB table is checked whole, by the thread that finishes it.
function kv.verify_range(ctx, item)
   return "ok"
end

function kv.finish_verify(ctx, t)
   load.activity(t, "reading it back")
   local ok, report = sysbench.kv.check_table(ctx.con, t)
   report = report:gsub("^sbtest%d+: ", "")
   local problems = kv_option_problems(sysbench.kv.table_record(ctx.con, t))
   if #problems > 0 then
      ok = false
      report = table.concat(problems, "; ") .. "; " .. report
   end
   load.verdict(t, ok, format("sbtest%d: %s: %s", t, ok and "ok" or "WRONG", report))
   load.finished(t, 0)
end

-- ------------------------------------------------------------------------------------------
-- The command loop
-- ------------------------------------------------------------------------------------------

function M.loader_for(drv)
   return drv:family() == "kv" and kv or sql
end

local steps = {
   [load.PREPARE] = {"begin_table", "load_range", "finish_table"},
   [load.VERIFY] = {"begin_verify", "verify_range", "finish_verify"},
}

local function work(command, drv, backend, loader)
   local con = drv:connect()
   local ctx = loader.context(drv, con, command, backend)
   local begin, range, finish = unpack(steps[command])
   for item in load.items() do
      local go = "load"
      if item.first_of_table then
         local ok, result = pcall(loader[begin], ctx, item.table)
         if not ok then
            load.ready(item.table, "failed")
            error(result, 0)
         end
         go = result
         load.ready(item.table, go)
      end
      if go == "load" then
         if loader[range](ctx, item) == "stopped" then
            break
         end
         if load.item_done(item) then
            loader[finish](ctx, item.table)
         end
      end
   end
   con:disconnect()
end

-- Runs `prepare` or `verify` in the calling thread (every thread of the command calls it).
-- True when the command succeeded (verify: and found nothing wrong).
function M.run(command, drv, backend)
   local opt = sysbench.opt
   load.start(command, opt.tables, opt.table_size, opt.threads)
   local ok, err = pcall(work, command, drv, backend, M.loader_for(drv))
   if not ok then
      load.fail()
   end
   local all_right = true
   if load.thread_done() then
      all_right = load.finish()
   end
   if not ok and not load.interrupted() then
      error(err, 0)
   end
   return all_right and not load.stopping()
end

-- 1.0.20's create_table(drv, con, t) for scripts that call it from their own prepare: the
-- whole table on the caller's connection, without the shared state of a command.
function M.create_single(drv, con, backend, t)
   local loader = M.loader_for(drv)
   local ctx = loader.context(drv, con, load.PREPARE, backend)
   if loader.begin_table(ctx, t) ~= "load" then
      return
   end
   if loader.load_range(ctx, {table = t, first = 1, last = sysbench.opt.table_size}) == "ok" then
      loader.finish_table(ctx, t)
   end
end
