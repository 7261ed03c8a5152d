-- sysbench.db: the legacy SQL API of sysbench 0.5 that 1.0.20 kept (sysbench.db.* and the db_*
-- globals of sysbench.compat): one implicit connection per state, on sysbench.sql. Few scripts
-- use it, so it is loaded the first time a script reads sysbench.db or calls a db_* global
-- (sysbench.compat), not in every state: every worker would carry it (about 10 KB of Lua
-- heap per thread).

local ffi = require("ffi")

local sql_type = sysbench.sql.type

sysbench.db = {
   DB_ERROR_NONE = 0,
   DB_ERROR_RESTART_TRANSACTION = 1,
   DB_ERROR_FAILED = 2,
}

local legacy = {}

-- The state's implicit connection; the calls that start work connect on first use, as 1.0.20.
local function legacy_connect()
   if legacy.drv == nil then
      legacy.drv = sysbench.sql.driver()
   end
   db_driver = legacy.drv:name()
   if legacy.con == nil then
      legacy.con = legacy.drv:connect()
   end
   return legacy.con
end

local function legacy_connection()
   if legacy.con == nil then
      error("Uninitialized database connection", 3)
   end
   return legacy.con
end

function sysbench.db.connect()
   legacy_connect()
end

function sysbench.db.disconnect()
   if legacy.con ~= nil then
      legacy.con:disconnect()
      legacy.con = nil
   end
end

-- 1.0.20's legacy functions report a failed call as "<name>() failed" at the script's line;
-- an ignorable error (a table with errcode) still restarts the event.
local function legacy_call(name, fn, ...)
   local ok, result = pcall(fn, ...)
   if ok then
      return result
   end
   if type(result) == "table" then
      error(result, 0)
   end
   error(name .. "() failed", 3)
end

-- Runs a statement and drops its rows (1.0.20 returns nothing).
function sysbench.db.query(query)
   local con = legacy_connect()
   local rs = legacy_call("db_query", con.query, con, query)
   if rs ~= nil then
      rs:free()
   end
end

function sysbench.db.bulk_insert_init(query)
   local con = legacy_connect()
   legacy_call("db_bulk_insert_init", con.bulk_insert_init, con, query)
end

function sysbench.db.bulk_insert_next(values)
   local con = legacy_connection()
   legacy_call("db_bulk_insert_next", con.bulk_insert_next, con, values)
end

function sysbench.db.bulk_insert_done()
   local con = legacy_connection()
   pcall(con.bulk_insert_done, con)
end

-- Legacy statements bind a Lua table: its numbers and strings at bind time give the
-- parameter types (in key order), and the values in the table at execute() time are sent
-- (nil as NULL).
local legacy_statement = {}
legacy_statement.__index = legacy_statement

function sysbench.db.prepare(query)
   return setmetatable({ stmt = legacy_connect():prepare(query) }, legacy_statement)
end

local function legacy_param(stmt, value, min_len)
   if type(value) == "number" then
      return stmt:bind_create(sql_type.BIGINT)
   elseif type(value) == "string" then
      return stmt:bind_create(sql_type.VARCHAR, math.max(min_len or 0, #value * 2, 256))
   end
   error("Unsupported variable type: " .. type(value), 3)
end

function sysbench.db.bind_param(s, values)
   legacy_connection()
   if type(values) ~= "table" then
      error("table was expected", 2)
   end
   local keys = {}
   for k in pairs(values) do
      keys[#keys + 1] = k
   end
   if #keys == 0 then
      error("table is empty", 2)
   end
   table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
   if type(keys[1]) == "number" then
      table.sort(keys)
   end
   s.values, s.keys, s.params = values, keys, {}
   for i, k in ipairs(keys) do
      s.params[i] = legacy_param(s.stmt, values[k])
   end
   return s.stmt:bind_param(unpack(s.params))
end

function sysbench.db.bind_result(s, values)
   s.results = values
   return 0
end

function sysbench.db.execute(s)
   legacy_connection()
   if s.values ~= nil then
      local rebind = false
      for i, k in ipairs(s.keys) do
         local v, p = s.values[k], s.params[i]
         if v ~= nil and p.kind == "string" then
            v = tostring(v)
            if #v > p.max_len then
               p = legacy_param(s.stmt, v, #v)
               s.params[i] = p
               rebind = true
            end
         end
         p:set(v)
      end
      if rebind then
         s.stmt:bind_param(unpack(s.params))
      end
   end
   -- 1.0.20 returns a result handle for every statement; one without rows is this one
   local rs = legacy_call("db_execute", s.stmt.execute, s.stmt)
   if rs == nil then
      return legacy.no_rows
   end
   return rs
end

function sysbench.db.close(s)
   return s.stmt:close()
end

legacy.no_rows = setmetatable({}, { __tostring = function() return "<sysbench.rs>" end })

-- A result handle, or 1.0.20's error for anything else.
local function legacy_result(rs, fname)
   if rs == legacy.no_rows or (type(rs) == "cdata" and ffi.istype("sql_result *", rs)) then
      return rs
   end
   error(string.format("bad argument #1 to '%s' (sysbench.rs expected, got %s)", fname,
                       type(rs)), 3)
end

function sysbench.db.store_results(rs)
   return legacy_result(rs, "db_store_results")
end

function sysbench.db.free_results(rs)
   if legacy_result(rs, "db_free_results") ~= legacy.no_rows then
      return rs:free()
   end
end
