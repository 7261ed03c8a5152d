-- sysbench.kv: the key-value API of drivers of the KV family (--db-driver=rocksdb), as
-- methods of the connections sysbench.sql.driver():connect() returns, plus the sbtest table
-- helpers the bundled workloads use on such drivers (db_kv.c underneath, through FFI).
--
--   local con = sysbench.sql.driver():connect()
--   con:kv_put("user:1", "alice")            -- one write
--   local v = con:kv_get("user:1")           -- one read: the value or nil
--   con:kv_get("user:1", true)               -- ... locking it for update in a transaction
--   local vs = con:kv_multi_get({"a", "b"})  -- one read: values (nil holes)
--   for k, v in con:kv_scan("user:", 100, "user;") do ... end   -- one read, <= 100 rows
--   local b = con:kv_batch(); b:put("x", "1"); b:delete("y"); b:write()   -- one write
--   con:query("BEGIN") ... con:query("COMMIT")   -- as --rocksdb-txn says

ffi = require("ffi")

sysbench.kv = {}

ffi.cdef[[
sql_statement *db_prepare_kv(sql_connection *con, const char *kind, uint32_t table,
                             uint32_t limit);
int db_kv_create_table(sql_connection *con, uint32_t table, uint64_t rows, uint32_t flags,
                       uint32_t slice, uint32_t slices, const char *c_template,
                       const char *pad_template);
int db_kv_drop_table(sql_connection *con, uint32_t table);
int db_kv_check_table(sql_connection *con, uint32_t table, char *report, size_t report_len);
int db_kv_load_range(sql_connection *con, uint32_t table, uint64_t rows, uint32_t flags,
                     int64_t first_id, int64_t last_id, uint64_t seed, const char *c_template,
                     const char *pad_template, const char *marker);
typedef struct {
  int state;
  uint64_t rows;
  int seed_known;
  uint64_t seed;
  char marker[256];
} db_kv_load_record;
int db_kv_table_record(sql_connection *con, uint32_t table, db_kv_load_record *record);
int db_kv_finish_table(sql_connection *con, uint32_t table, uint64_t rows, uint32_t flags);
int db_kv_table_state(sql_connection *con, uint32_t table);
int db_kv_table_sizes(sql_connection *con, uint32_t table, int64_t *data, int64_t *index);
int db_kv_bulk_add(sql_connection *con, uint32_t table, int64_t id, int64_t k);
int db_kv_bulk_flush(sql_connection *con);
sql_result *db_kv_get(sql_connection *con, const char *key, size_t klen, int for_update);
sql_result *db_kv_multi_get(sql_connection *con, size_t n, const char *const *keys,
                            const size_t *klens);
sql_result *db_kv_scan(sql_connection *con, const char *start, size_t start_len,
                       const char *upper, size_t upper_len, uint32_t limit);
int db_kv_put(sql_connection *con, const char *key, size_t klen, const char *value,
              size_t vlen);
int db_kv_delete(sql_connection *con, const char *key, size_t klen);
int db_kv_batch_put(sql_connection *con, const char *key, size_t klen, const char *value,
                    size_t vlen);
int db_kv_batch_delete(sql_connection *con, const char *key, size_t klen);
int db_kv_batch_write(sql_connection *con);
void db_kv_batch_clear(sql_connection *con);
]]

local C = ffi.C
local methods = sysbench.sql.connection_methods

-- Table flags of db_kv.h.
sysbench.kv.SECONDARY_INDEX = 1
sysbench.kv.ID_K_ONLY = 2
sysbench.kv.AUTO_INC = 4

local function fail(con, what)
   con:check_error(nil, what)
   error(what .. " failed", 3)
end

-- A statement of the sbtest workloads in key-value form ("point_selects", "simple_ranges",
-- "sum_ranges", "order_ranges", "distinct_ranges", "index_updates", "non_index_updates",
-- "deletes", "inserts", "secondary_ranges", "random_points", "random_ranges") on sbtest<table>.
-- It binds parameters and executes like a prepared SQL statement.
function methods.prepare_kv(self, kind, table_num, limit)
   local stmt = C.db_prepare_kv(self, kind, table_num, limit or 0)
   if stmt == nil then
      fail(self, string.format("<key-value %s on sbtest%d>", kind, table_num))
   end
   return stmt
end

-- With for_update, inside a transaction the key is locked (pessimistic) or checked for
-- conflicting writes at COMMIT (optimistic), as SELECT ... FOR UPDATE would.
function methods.kv_get(self, key, for_update)
   local rs = C.db_kv_get(self, key, #key, for_update and 1 or 0)
   if rs == nil then
      if self.error ~= C.DB_ERROR_NONE then fail(self, "kv_get") end
      return nil
   end
   local row = rs:fetch_row()
   return row and row[1] or nil
end

function methods.kv_multi_get(self, keys)
   local n = #keys
   local ptrs = ffi.new("const char *[?]", n)
   local lens = ffi.new("size_t[?]", n)
   for i = 1, n do
      ptrs[i - 1] = keys[i]
      lens[i - 1] = #keys[i]
   end
   local rs = C.db_kv_multi_get(self, n, ptrs, lens)
   if rs == nil then
      if self.error ~= C.DB_ERROR_NONE then fail(self, "kv_multi_get") end
      return {}
   end
   local values = {}
   for i = 1, n do
      local row = rs:fetch_row()
      values[i] = row and row[1] or nil
   end
   return values
end

-- Keys from `start` on, at most `limit` (0 or nil: no limit), below `upper` if given.
-- Returns an iterator of key, value pairs.
function methods.kv_scan(self, start, limit, upper)
   local rs = C.db_kv_scan(self, start, #start, upper, upper and #upper or 0, limit or 0)
   if rs == nil then
      if self.error ~= C.DB_ERROR_NONE then fail(self, "kv_scan") end
      return function() return nil end
   end
   return function()
      local row = rs:fetch_row()
      if row == nil then return nil end
      return row[1], row[2]
   end
end

function methods.kv_put(self, key, value)
   if C.db_kv_put(self, key, #key, value, #value) ~= 0 then fail(self, "kv_put") end
end

function methods.kv_delete(self, key)
   if C.db_kv_delete(self, key, #key) ~= 0 then fail(self, "kv_delete") end
end

local batch_methods = {}
batch_methods.__index = batch_methods

function batch_methods.put(self, key, value)
   if C.db_kv_batch_put(self.con, key, #key, value, #value) ~= 0 then
      fail(self.con, "batch put")
   end
end

function batch_methods.delete(self, key)
   if C.db_kv_batch_delete(self.con, key, #key) ~= 0 then fail(self.con, "batch delete") end
end

-- Written atomically (inside a transaction, as part of it).
function batch_methods.write(self)
   if C.db_kv_batch_write(self.con) ~= 0 then fail(self.con, "batch write") end
end

function batch_methods.clear(self)
   C.db_kv_batch_clear(self.con)
end

function methods.kv_batch(self)
   C.db_kv_batch_clear(self)
   return setmetatable({ con = self }, batch_methods)
end

local function table_flags(options)
   local flags = 0
   if options.secondary_index then flags = flags + sysbench.kv.SECONDARY_INDEX end
   if options.id_k_only then flags = flags + sysbench.kv.ID_K_ONLY end
   if options.auto_inc then flags = flags + sysbench.kv.AUTO_INC end
   return flags
end

-- sbtest tables for the bundled workloads. `options`: { secondary_index, auto_inc,
-- id_k_only, slice, slices, c_template, pad_template }.
function sysbench.kv.create_table(con, table_num, rows, options)
   local flags = table_flags(options)
   if C.db_kv_create_table(con, table_num, rows, flags, options.slice or 0,
                           options.slices or 1, options.c_template or "",
                           options.pad_template or "") ~= 0 then
      fail(con, string.format("creating table sbtest%d", table_num))
   end
end

-- The parallel prepare (sysbench.oltp_load): ids first..last of sbtest<table_num>, whose
-- existence the caller checked, with rows from options.seed (a uint64); until the table is
-- complete it records options.marker (the seed and options of the load). "ok", or "stopped"
-- when the command is stopping (Ctrl-C, another thread failed).
function sysbench.kv.load_range(con, table_num, rows, first, last, options)
   local rc = C.db_kv_load_range(con, table_num, rows, table_flags(options), first, last,
                                 options.seed or 0, options.c_template or "",
                                 options.pad_template or "", options.marker)
   if rc == -2 then
      return "stopped"
   elseif rc ~= 0 then
      fail(con, string.format("loading ids %d..%d of sbtest%d", first, last, table_num))
   end
   return "ok"
end

-- After every range: record the table as complete.
function sysbench.kv.finish_table(con, table_num, rows, options)
   if C.db_kv_finish_table(con, table_num, rows, table_flags(options)) ~= 0 then
      fail(con, string.format("recording table sbtest%d", table_num))
   end
end

local table_states = {[0] = "absent", [1] = "complete", [2] = "incomplete"}

-- "absent", "complete", or "incomplete" (keys an interrupted prepare left).
function sysbench.kv.table_state(con, table_num)
   local state = table_states[C.db_kv_table_state(con, table_num)]
   if state == nil then
      fail(con, string.format("looking at table sbtest%d", table_num))
   end
   return state
end

-- What a table records about its load: { state = "absent"|"complete"|"incomplete", and for a
-- complete one rows (its load's) and seed (a uint64, nil when an earlier version loaded it),
-- for an incomplete one marker (what its load began with, nil when none) }.
function sysbench.kv.table_record(con, table_num)
   local r = ffi.new("db_kv_load_record")
   local state = C.db_kv_table_record(con, table_num, r) == 0 and table_states[r.state] or nil
   if state == nil then
      fail(con, string.format("looking at table sbtest%d", table_num))
   end
   local marker = ffi.string(r.marker)
   return {
      state = state,
      rows = tonumber(r.rows),
      seed = r.seed_known ~= 0 and r.seed or nil,
      marker = marker ~= "" and marker or nil,
   }
end

-- Bytes of its rows and of its index on k in the files (estimates), or nil.
function sysbench.kv.table_sizes(con, table_num)
   local data, index = ffi.new("int64_t[1]"), ffi.new("int64_t[1]")
   C.db_kv_table_sizes(con, table_num, data, index)
   local d, i = tonumber(data[0]), tonumber(index[0])
   return d >= 0 and d or nil, i >= 0 and i or nil
end

function sysbench.kv.drop_table(con, table_num)
   if C.db_kv_drop_table(con, table_num) ~= 0 then
      fail(con, string.format("dropping table sbtest%d", table_num))
   end
end

-- Read a table back and compare it with what its load recorded (row count, checksum of every
-- row, one secondary index entry per row). Returns true or false, and a one-line summary.
function sysbench.kv.check_table(con, table_num)
   local report = ffi.new("char[512]")
   local rc = C.db_kv_check_table(con, table_num, report, 512)
   if rc < 0 and report[0] == 0 then
      fail(con, string.format("checking table sbtest%d", table_num))
   end
   return rc == 0, ffi.string(report)
end

-- The key-value form of a multi-row INSERT into an (id, k) table: rows gathered with add(),
-- written in one go (one write query) by flush().
function sysbench.kv.bulk_add(con, table_num, id, k)
   if C.db_kv_bulk_add(con, table_num, id, k) ~= 0 then fail(con, "bulk insert") end
end

function sysbench.kv.bulk_flush(con)
   if C.db_kv_bulk_flush(con) ~= 0 then fail(con, "bulk insert") end
end
