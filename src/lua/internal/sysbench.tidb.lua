-- sysbench.tidb: the statements the TiDB driver's prepare sends (tidb_rules.c through FFI),
-- for the bundled workloads and scripts that create their own tables on TiDB.
--
--   local spec = {clustered = "on", shard_row_id_bits = 0, auto_random = false,
--                 auto_inc = true, secondary_pk = false, index_k = true,
--                 engine = "innodb", extra = ""}
--   sysbench.tidb.create_table_sql(1, spec)   --> CREATE TABLE sbtest1(...) with TiDB's options
--   sysbench.tidb.split_table_sql(1, rows, regions, spec), split_index_sql(1, rows, regions)
--   sysbench.tidb.split_regions_accepted(rows, regions, spec) --> regions of rows TiDB takes
--   sysbench.tidb.region_holds_rows(end_key, table_id)  --> does a SHOW ... REGIONS row hold rows

ffi = require("ffi")

sysbench.tidb = {}

ffi.cdef[[
typedef struct {
  int clustered;
  unsigned shard_row_id_bits;
  bool auto_random;
  bool auto_inc;
  bool secondary_pk;
  bool index_k;
  const char *engine;
  const char *extra;
} tidb_table_spec;
bool tidb_table_spec_valid(const tidb_table_spec *spec, char *why, size_t why_len);
int tidb_create_table_sql(char *buf, size_t len, unsigned table, const tidb_table_spec *spec);
int tidb_split_table_sql(char *buf, size_t len, unsigned table, uint64_t rows,
                         unsigned regions, const tidb_table_spec *spec);
int tidb_split_index_sql(char *buf, size_t len, unsigned table, uint64_t rows,
                         unsigned regions);
int tidb_show_regions_sql(char *buf, size_t len, unsigned table);
unsigned tidb_split_regions_accepted(uint64_t rows, unsigned regions,
                                     const tidb_table_spec *spec);
bool tidb_region_holds_rows(const char *end_key, int64_t table_id);
extern const unsigned tidb_min_keys_per_region;
]]

local C = ffi.C
local clustered_modes = {default = 0, on = 1, off = 2}

-- The C spec of a Lua one; raises the reason when TiDB would refuse the combination.
local function c_spec(spec)
   local mode = clustered_modes[spec.clustered or "default"]
   if mode == nil then
      error("invalid value for --tidb-clustered-index: " .. tostring(spec.clustered) ..
            " (expected on, off or default)", 0)
   end
   local s = ffi.new("tidb_table_spec")
   s.clustered = mode
   s.shard_row_id_bits = spec.shard_row_id_bits or 0
   s.auto_random = spec.auto_random and true or false
   s.auto_inc = spec.auto_inc and true or false
   s.secondary_pk = spec.secondary_pk and true or false
   s.index_k = spec.index_k and true or false
   -- keep the strings alive as long as the spec
   local keep = {spec.engine or "innodb", spec.extra or ""}
   s.engine = keep[1]
   s.extra = keep[2]
   local why = ffi.new("char[256]")
   if not C.tidb_table_spec_valid(s, why, 256) then
      error(ffi.string(why), 0)
   end
   return s, keep
end

local function build(fn, ...)
   local buf = ffi.new("char[4096]")
   if fn(buf, 4096, ...) < 0 then
      error("TiDB statement longer than 4096 bytes", 2)
   end
   return ffi.string(buf)
end

function sysbench.tidb.create_table_sql(table_num, spec)
   local s, keep = c_spec(spec)
   local sql = build(C.tidb_create_table_sql, table_num, s)
   keep = nil
   return sql
end

function sysbench.tidb.split_table_sql(table_num, rows, regions, spec)
   local s, keep = c_spec(spec)
   local sql = build(C.tidb_split_table_sql, table_num, rows, regions, s)
   keep = nil
   return sql
end

function sysbench.tidb.split_index_sql(table_num, rows, regions)
   return build(C.tidb_split_index_sql, table_num, rows, regions)
end

function sysbench.tidb.split_regions_accepted(rows, regions, spec)
   local s, keep = c_spec(spec)
   local n = tonumber(C.tidb_split_regions_accepted(rows, regions, s))
   keep = nil
   return n
end

-- TiDB's least number of ids per region of an id range
sysbench.tidb.MIN_KEYS_PER_REGION = tonumber(C.tidb_min_keys_per_region)

function sysbench.tidb.region_holds_rows(end_key, table_id)
   return C.tidb_region_holds_rows(end_key, table_id)
end

function sysbench.tidb.show_regions_sql(table_num)
   return build(C.tidb_show_regions_sql, table_num)
end
