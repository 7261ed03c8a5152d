-- sysbench.sql: the SQL API scripts use (db.c underneath, through FFI). The legacy
-- sysbench.db API of the 0.5 era kept by 1.0.20 is built on it in sysbench.db. The struct
-- declarations keep the leading fields and names of 1.0.20's, which some scripts in the wild
-- declare themselves.

ffi = require("ffi")

sysbench.sql = {}

ffi.cdef[[
typedef enum
{
  DB_ERROR_NONE,
  DB_ERROR_IGNORABLE,
  DB_ERROR_FATAL
} sql_error_t;

typedef struct
{
  const char      *sname;
  const char      *lname;
  const char      opaque[?];
} sql_driver;

typedef struct {
  uint32_t        len;
  const char      *ptr;
} sql_value;

typedef struct
{
  void            *ptr;
  sql_value       *values;
} sql_row;

typedef enum
{
  DB_STAT_OTHER,
  DB_STAT_READ,
  DB_STAT_WRITE,
  DB_STAT_TRX,
  DB_STAT_ERROR,
  DB_STAT_RECONNECT,
  DB_STAT_MAX
} sql_stat_type;

typedef struct
{
  sql_error_t     error;
  int             sql_errno;
  const char      *sql_state;
  const char      *sql_errmsg;
  sql_driver      *driver;
  const char      opaque[?];
} sql_connection;

typedef struct
{
  sql_connection  *connection;
  const char      opaque[?];
} sql_statement;

typedef struct
{
  sql_stat_type  stat_type;
  uint32_t       nrows;
  uint32_t       nfields;
  sql_statement  *statement;
  void           *ptr;
  sql_row        row;
} sql_result;

typedef enum
{
  SQL_TYPE_NONE,
  SQL_TYPE_TINYINT,
  SQL_TYPE_SMALLINT,
  SQL_TYPE_INT,
  SQL_TYPE_BIGINT,
  SQL_TYPE_FLOAT,
  SQL_TYPE_DOUBLE,
  SQL_TYPE_TIME,
  SQL_TYPE_DATE,
  SQL_TYPE_DATETIME,
  SQL_TYPE_TIMESTAMP,
  SQL_TYPE_CHAR,
  SQL_TYPE_VARCHAR
} sql_bind_type_t;

typedef struct
{
  sql_bind_type_t   type;
  void             *buffer;
  unsigned long    *data_len;
  unsigned long    max_len;
  char             *is_null;
} sql_bind;

sql_driver *db_create(const char *);
int db_destroy(sql_driver *drv);
int db_driver_family(sql_driver *drv);

sql_connection *db_connection_create(sql_driver * drv);
sql_connection *db_worker_connect(sql_driver *drv, sb_worker *w, char *why, size_t why_size);
const char *db_connect_error(sql_connection *con);
int db_connection_close(sql_connection *con);
int db_connection_reconnect(sql_connection *con);
void db_connection_free(sql_connection *con);

int db_bulk_insert_init(sql_connection *, const char *, size_t);
int db_bulk_insert_next(sql_connection *, const char *, size_t);
int db_bulk_insert_done(sql_connection *);

sql_result *db_query(sql_connection *con, const char *query, size_t len);
sql_row *db_fetch_row(sql_result *rs);
bool db_more_results(sql_connection *con);
sql_result *db_next_result(sql_connection *con);

sql_statement *db_prepare(sql_connection *con, const char *query, size_t len);
int db_bind_param(sql_statement *stmt, sql_bind *params, size_t len);
int db_bind_result(sql_statement *stmt, sql_bind *results, size_t len);
sql_result *db_execute(sql_statement *stmt);
const char *db_statement_text(sql_statement *stmt);
int db_close(sql_statement *stmt);

int db_free_results(sql_result *);
void db_count_ignored_error(sql_connection *con);
]]

local C = ffi.C

sysbench.sql.type = {
   NONE = C.SQL_TYPE_NONE,
   TINYINT = C.SQL_TYPE_TINYINT,
   SMALLINT = C.SQL_TYPE_SMALLINT,
   INT = C.SQL_TYPE_INT,
   BIGINT = C.SQL_TYPE_BIGINT,
   FLOAT = C.SQL_TYPE_FLOAT,
   DOUBLE = C.SQL_TYPE_DOUBLE,
   TIME = C.SQL_TYPE_TIME,
   DATE = C.SQL_TYPE_DATE,
   DATETIME = C.SQL_TYPE_DATETIME,
   TIMESTAMP = C.SQL_TYPE_TIMESTAMP,
   CHAR = C.SQL_TYPE_CHAR,
   VARCHAR = C.SQL_TYPE_VARCHAR,
}

sysbench.sql.error = {
   NONE = C.DB_ERROR_NONE,
   IGNORABLE = C.DB_ERROR_IGNORABLE,
   FATAL = C.DB_ERROR_FATAL,
}

-- ------------------------------------------------------------------------------------------
-- Drivers
-- ------------------------------------------------------------------------------------------

-- The driver named by the argument, or by --db-driver when called without one.
function sysbench.sql.driver(driver_name)
   local drv = C.db_create(driver_name)
   if drv == nil then
      error("failed to initialize the DB driver", 2)
   end
   return ffi.gc(drv, C.db_destroy)
end

local driver_methods = {}

-- The reason a connection failed, as the driver gave it ("" when it gave none).
local function reason(why)
   return why ~= "" and (": " .. why) or ""
end

function driver_methods.connect(self)
   local why = ffi.new("char[768]")
   local con = C.db_worker_connect(self, sysbench.worker, why, 768)
   if con == nil then
      error("connection creation failed" .. reason(ffi.string(why)), 2)
   end
   return ffi.gc(con, C.db_connection_free)
end

-- The SQL dialect scripts written for 1.0.20 test with `drv:name() == "mysql"`: the tidb
-- driver speaks MySQL's and answers "mysql", so such scripts (and oltp_common.lua copies
-- made for them) work with --db-driver=tidb unchanged. driver_name() tells them apart.
local dialect_of = {tidb = "mysql"}

function driver_methods.name(self)
   local name = ffi.string(self.sname)
   return dialect_of[name] or name
end

-- The --db-driver name: "tidb" where name() says "mysql".
function driver_methods.driver_name(self)
   return ffi.string(self.sname)
end

-- "sql" for SQL servers, "kv" for key-value engines (whose workloads use their KV forms).
function driver_methods.family(self)
   return C.db_driver_family(self) == 1 and "kv" or "sql"
end

ffi.metatype("sql_driver", {
   __index = driver_methods,
   __tostring = function() return "<sql_driver>" end,
})

-- ------------------------------------------------------------------------------------------
-- Connections
-- ------------------------------------------------------------------------------------------

local connection_methods = {}

function connection_methods.disconnect(self)
   return assert(C.db_connection_close(self) == 0)
end

function connection_methods.reconnect(self)
   if C.db_connection_reconnect(self) ~= 0 then
      error("reconnect failed" .. reason(ffi.string(C.db_connect_error(self))), 2)
   end
end

-- Turns a failed call into an error: a table with errcode = RESTART_EVENT when the error is
-- ignorable (the event is retried), a message otherwise. Returns rs when there is no error.
function connection_methods.check_error(self, rs, query)
   if rs ~= nil or self.error == C.DB_ERROR_NONE then
      return rs
   end

   if self.sql_state == nil or self.sql_errmsg == nil then
      error("SQL API error", 3)
   end

   local sql_state = ffi.string(self.sql_state)
   local sql_errmsg = ffi.string(self.sql_errmsg)
   -- a global, as in 1.0.20: scripts may read the last error's descriptor there
   errdesc = {
      connection = self,
      query = query,
      sql_errno = self.sql_errno,
      sql_state = sql_state,
      sql_errmsg = sql_errmsg,
   }

   local ignorable = self.error == C.DB_ERROR_IGNORABLE
   if not ignorable and type(sysbench.hooks.sql_error_ignorable) == "function" and
      sysbench.hooks.sql_error_ignorable(errdesc)
   then
      ignorable = true
      C.db_count_ignored_error(self)
   end
   if ignorable then
      errdesc.errcode = sysbench.error.RESTART_EVENT
      error(errdesc, 3)
   end

   -- (the driver's own FATAL line before this one names the statement, as 1.0.20's does)
   error(string.format("SQL error, errno = %d, state = '%s': %s", self.sql_errno, sql_state,
                       sql_errmsg), 2)
end

-- What query() and execute() return for a statement without a result set (UPDATE, INSERT,
-- BEGIN, ...): 1.0.20's NULL result pointer, printed "<sql_result>" and equal to nil. Its
-- type is one of its own, so that a script using it as a result (rs:free(), rs.nrows: a
-- crash in 1.0.20) finds an empty one.
ffi.cdef[[
typedef struct sql_no_result sql_no_result;
]]
local no_result_members = {
   nrows = 0,
   nfields = 0,
   fetch_row = function() return nil end,
   free = function() return true, "db_free_results() failed" end,
}
ffi.metatype("sql_no_result", {
   __index = no_result_members,
   __tostring = function() return "<sql_result>" end,
})
local no_result = ffi.cast("sql_no_result *", nil)
sysbench.sql.no_result = no_result

-- The result set of a query, or no_result when it has none (or when an error was ignored).
function connection_methods.query(self, query)
   local rs = C.db_query(self, query, #query)
   if rs ~= nil then
      return rs
   end
   if self.error ~= C.DB_ERROR_NONE then
      -- a tail call, so that the error names the script's line
      return self:check_error(nil, query)
   end
   return no_result
end

-- 1.0.20 returns true and the message on success too (assert's values).
function connection_methods.bulk_insert_init(self, query)
   return assert(C.db_bulk_insert_init(self, query, #query) == 0,
                 "db_bulk_insert_init() failed")
end

function connection_methods.bulk_insert_next(self, values)
   return assert(C.db_bulk_insert_next(self, values, #values) == 0,
                 "db_bulk_insert_next() failed")
end

function connection_methods.bulk_insert_done(self)
   return assert(C.db_bulk_insert_done(self) == 0, "db_bulk_insert_done() failed")
end

-- A statement keeps its connection alive: closing a statement after its connection was
-- collected would reach freed memory.
local statement_connection = setmetatable({}, { __mode = "k" })

function connection_methods.prepare(self, query)
   local stmt = C.db_prepare(self, query, #query)
   if stmt == nil then
      if self.error == C.DB_ERROR_NONE then
         error("SQL API error", 2)
      end
      -- the driver said why (1.0.20's lines); the script's error is 1.0.20's, naming the
      -- script's line (not a tail call: check_error raises at the caller of prepare)
      self:check_error(nil, query)
      return nil
   end
   statement_connection[stmt] = self
   return stmt
end

-- The first row of a query's result as multiple values, or nil without a row.
function connection_methods.query_row(self, query)
   local rs = self:query(query)
   if rs == nil or rs.nrows == 0 then
      return nil
   end
   local row = rs:fetch_row()
   if row == nil then
      return nil
   end
   return unpack(row, 1, rs.nfields)
end

function connection_methods.more_results(self)
   return C.db_more_results(self)
end

-- The next result of a multi-statement query: a result set, or no_result for one without
-- rows.
function connection_methods.next_result(self)
   local rs = C.db_next_result(self)
   if rs ~= nil then
      return rs
   end
   if self.error ~= C.DB_ERROR_NONE then
      return self:check_error(nil, "<next result>")
   end
   return no_result
end

-- Other internal modules (sysbench.kv) add connection methods here. sysbench.kv is loaded
-- the first time a script reads it, or a kv_* method or prepare_kv of a connection.
sysbench.sql.connection_methods = connection_methods
setmetatable(connection_methods, {
   __index = function(methods, name)
      if (name == "prepare_kv" or type(name) == "string" and name:sub(1, 3) == "kv_") and
         sysbench.kv ~= nil then
         return rawget(methods, name)
      end
   end
})

ffi.metatype("sql_connection", {
   __index = connection_methods,
   __tostring = function() return "<sql_connection>" end,
})

-- ------------------------------------------------------------------------------------------
-- Statement parameters
-- ------------------------------------------------------------------------------------------

local sql_type = sysbench.sql.type

local integer_types = {
   [tonumber(sql_type.TINYINT)] = true, [tonumber(sql_type.SMALLINT)] = true,
   [tonumber(sql_type.INT)] = true, [tonumber(sql_type.BIGINT)] = true,
}
local float_types = { [tonumber(sql_type.FLOAT)] = true, [tonumber(sql_type.DOUBLE)] = true }
local string_types = { [tonumber(sql_type.CHAR)] = true, [tonumber(sql_type.VARCHAR)] = true }

local sql_param = {}
sql_param.__index = sql_param
sql_param.__tostring = function() return "<sql_param>" end

-- Set a parameter's value for the next execute(); nil means SQL NULL. Strings longer than the
-- parameter's maximum are cut to it.
function sql_param.set(self, value)
   if value == nil then
      self.is_null[0] = 1
      return
   end
   self.is_null[0] = 0
   local kind = self.kind
   if kind == "string" then
      local len = #value
      if len > self.max_len then len = self.max_len end
      ffi.copy(self.buffer, value, len)
      self.data_len[0] = len
   else
      self.buffer[0] = value
   end
end

local rand_stream = C.sb_worker_rand(sysbench.worker)   -- the worker's (sysbench.rand)

-- Fill a string parameter from a sysbench.rand.string template, without a Lua string.
function sql_param.set_rand_str(self, fmt)
   local len = #fmt
   if len > self.max_len then
      error("set_rand_str: template longer than the parameter's maximum length", 2)
   end
   self.is_null[0] = 0
   C.rand_str(rand_stream, fmt, self.buffer)
   self.data_len[0] = len
end

-- ------------------------------------------------------------------------------------------
-- Prepared statements
-- ------------------------------------------------------------------------------------------

-- Statements closed by the script: another close, or any use, is the script's mistake and is
-- said so, instead of reaching the freed statement (1.0.20 crashes there).
local closed_statements = setmetatable({}, { __mode = "k" })

ffi.cdef[[
void db_api_alert(const char *what);
]]

local function check_open(self)
   if closed_statements[self] then
      C.db_api_alert("attempt to use an already closed statement")
      error("SQL API error", 3)
   end
end
local statement_methods = {}

-- A parameter of the given sysbench.sql.type; integers are bound as BIGINT, floats as
-- DOUBLE and strings as VARCHAR of max_len bytes, as in 1.0.
function statement_methods.bind_create(self, btype, max_len)
   local t = tonumber(btype)
   local param = setmetatable({}, sql_param)
   if integer_types[t] then
      param.type = sql_type.BIGINT
      param.kind = "integer"
      param.buffer = ffi.new("int64_t[1]")
      param.max_len = 8
   elseif float_types[t] then
      param.type = sql_type.DOUBLE
      param.kind = "double"
      param.buffer = ffi.new("double[1]")
      param.max_len = 8
   elseif string_types[t] then
      if type(max_len) ~= "number" or max_len < 1 then
         error("bind_create: string parameters need a maximum length", 2)
      end
      param.type = sql_type.VARCHAR
      param.kind = "string"
      param.buffer = ffi.new("char[?]", max_len)
      param.max_len = max_len
   else
      error("Unsupported argument type: " .. tostring(btype), 2)
   end
   param.data_len = ffi.new("unsigned long[1]")
   param.is_null = ffi.new("char[1]")
   return param
end

function statement_methods.bind_param(self, ...)
   check_open(self)
   local n = select("#", ...)
   if n < 1 then return nil end
   local binds = ffi.new("sql_bind[?]", n)
   for i = 1, n do
      local param = select(i, ...)
      local b = binds[i - 1]
      b.type = param.type
      b.buffer = param.buffer
      b.data_len = param.data_len
      b.max_len = param.max_len
      b.is_null = param.is_null
   end
   return C.db_bind_param(self, binds, n)
end

function statement_methods.execute(self)
   check_open(self)
   local rs = C.db_execute(self)
   if rs ~= nil then
      return rs
   end
   local con = self.connection
   if con.error == C.DB_ERROR_NONE then
      return no_result
   end
   -- (the driver's FATAL line names the statement; the descriptor says this, as in 1.0.20)
   return con:check_error(nil, "<prepared statement>")
end

function statement_methods.close(self)
   if closed_statements[self] then
      C.db_api_alert("attempt to close an already closed statement")
      return 0
   end
   closed_statements[self] = true
   statement_connection[self] = nil
   return C.db_close(ffi.gc(self, nil))
end

ffi.metatype("sql_statement", {
   __index = statement_methods,
   __tostring = function() return "<sql_statement>" end,
   __gc = C.db_close,
})

ffi.metatype("sql_bind", {
   __tostring = function() return "<sql_bind>" end,
})

-- ------------------------------------------------------------------------------------------
-- Results
-- ------------------------------------------------------------------------------------------

local result_methods = {}

-- The next row as an array of strings (SQL NULL leaves a nil hole), or nil at the end.
function result_methods.fetch_row(self)
   local row = C.db_fetch_row(self)
   if row == nil then
      return nil
   end
   local res = {}
   local values = row.values
   for i = 0, self.nfields - 1 do
      local v = values[i]
      if v.ptr ~= nil then
         res[i + 1] = ffi.string(v.ptr, v.len)
      end
   end
   return res
end

function result_methods.free(self)
   return assert(C.db_free_results(self) == 0, "db_free_results() failed")
end

ffi.metatype("sql_result", {
   __index = result_methods,
   __tostring = function() return "<sql_result>" end,
})
