-- sysbench.rand: random numbers for scripts (rand.c). Bounds that fit in 32 bits go to the
-- 32-bit functions 1.0.20 declared; wider ranges (tables past 2^32 rows) to the 64-bit ones.

ffi = require("ffi")

sysbench.rand = {}

ffi.cdef[[
uint64_t sb_rand_uniform_uint64(void);
uint32_t sb_rand_default(uint32_t, uint32_t);
uint32_t sb_rand_uniform(uint32_t, uint32_t);
uint32_t sb_rand_gaussian(uint32_t, uint32_t);
uint32_t sb_rand_special(uint32_t, uint32_t);
uint32_t sb_rand_pareto(uint32_t, uint32_t);
uint32_t sb_rand_zipfian(uint32_t, uint32_t);
uint64_t sb_rand_default64(uint64_t, uint64_t);
uint64_t sb_rand_uniform64(uint64_t, uint64_t);
uint64_t sb_rand_gaussian64(uint64_t, uint64_t);
uint64_t sb_rand_special64(uint64_t, uint64_t);
uint64_t sb_rand_pareto64(uint64_t, uint64_t);
uint64_t sb_rand_zipfian64(uint64_t, uint64_t);
uint32_t sb_rand_unique(void);
void sb_rand_str(const char *, char *);
uint32_t sb_rand_varstr(char *, uint32_t, uint32_t);
double sb_rand_uniform_double(void);
]]

local C = ffi.C
local U32_MAX = 4294967295

local function ranged(f32, f64)
   return function(a, b)
      if b <= U32_MAX and a >= 0 then
         return f32(a, b)
      end
      return tonumber(f64(a, b))
   end
end

sysbench.rand.default = ranged(C.sb_rand_default, C.sb_rand_default64)
sysbench.rand.uniform = ranged(C.sb_rand_uniform, C.sb_rand_uniform64)
sysbench.rand.gaussian = ranged(C.sb_rand_gaussian, C.sb_rand_gaussian64)
sysbench.rand.special = ranged(C.sb_rand_special, C.sb_rand_special64)
sysbench.rand.pareto = ranged(C.sb_rand_pareto, C.sb_rand_pareto64)
sysbench.rand.zipfian = ranged(C.sb_rand_zipfian, C.sb_rand_zipfian64)

function sysbench.rand.uniform_uint64()
   return C.sb_rand_uniform_uint64()
end

function sysbench.rand.uniform_double()
   return C.sb_rand_uniform_double()
end

function sysbench.rand.unique()
   return C.sb_rand_unique()
end

-- One scratch buffer per state, grown on demand, instead of a new one per call.
local buffer, buffer_len = nil, 0

local function scratch(n)
   if n > buffer_len then
      buffer_len = math.max(n, 2 * buffer_len, 256)
      buffer = ffi.new("char[?]", buffer_len)
   end
   return buffer
end

-- '#' -> digit, '@' -> lowercase letter, anything else kept.
function sysbench.rand.string(fmt)
   local n = #fmt
   local buf = scratch(n)
   C.sb_rand_str(fmt, buf)
   return ffi.string(buf, n)
end

-- A string of min..max characters from '0'..'z'.
function sysbench.rand.varstring(min_len, max_len)
   local buf = scratch(max_len)
   local n = C.sb_rand_varstr(buf, min_len, max_len)
   return ffi.string(buf, n)
end
