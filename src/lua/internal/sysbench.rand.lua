-- sysbench.rand: random numbers for scripts (rand.c), drawn from the stream of the worker the
-- state acts for (sysbench.worker). Bounds that fit in 32 bits go to the 32-bit functions;
-- wider ranges (tables past 2^32 rows) to the 64-bit ones.

ffi = require("ffi")

sysbench.rand = {}

ffi.cdef[[
typedef struct sb_rand_state sb_rand_state;
sb_rand_state *sb_worker_rand(sb_worker *w);
uint64_t rand_next(sb_rand_state *);
double rand_double(sb_rand_state *);
uint32_t rand_default32(sb_rand_state *, uint32_t, uint32_t);
uint32_t rand_uniform32(sb_rand_state *, uint32_t, uint32_t);
uint32_t rand_gaussian32(sb_rand_state *, uint32_t, uint32_t);
uint32_t rand_special32(sb_rand_state *, uint32_t, uint32_t);
uint32_t rand_pareto32(sb_rand_state *, uint32_t, uint32_t);
uint32_t rand_zipfian32(sb_rand_state *, uint32_t, uint32_t);
uint64_t rand_default64(sb_rand_state *, uint64_t, uint64_t);
uint64_t rand_uniform64(sb_rand_state *, uint64_t, uint64_t);
uint64_t rand_gaussian64(sb_rand_state *, uint64_t, uint64_t);
uint64_t rand_special64(sb_rand_state *, uint64_t, uint64_t);
uint64_t rand_pareto64(sb_rand_state *, uint64_t, uint64_t);
uint64_t rand_zipfian64(sb_rand_state *, uint64_t, uint64_t);
uint32_t rand_unique(sb_rand_state *);
void rand_str(sb_rand_state *, const char *, char *);
uint32_t rand_varstr(sb_rand_state *, char *, uint32_t, uint32_t);
]]

local C = ffi.C
local U32_MAX = 4294967295
local R = C.sb_worker_rand(sysbench.worker)   -- this state's stream

local function ranged(f32, f64)
   return function(a, b)
      if b <= U32_MAX and a >= 0 then
         return f32(R, a, b)
      end
      return tonumber(f64(R, a, b))
   end
end

sysbench.rand.default = ranged(C.rand_default32, C.rand_default64)
sysbench.rand.uniform = ranged(C.rand_uniform32, C.rand_uniform64)
sysbench.rand.gaussian = ranged(C.rand_gaussian32, C.rand_gaussian64)
sysbench.rand.special = ranged(C.rand_special32, C.rand_special64)
sysbench.rand.pareto = ranged(C.rand_pareto32, C.rand_pareto64)
sysbench.rand.zipfian = ranged(C.rand_zipfian32, C.rand_zipfian64)

function sysbench.rand.uniform_uint64()
   return C.rand_next(R)
end

function sysbench.rand.uniform_double()
   return C.rand_double(R)
end

function sysbench.rand.unique()
   return C.rand_unique(R)
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
   C.rand_str(R, fmt, buf)
   return ffi.string(buf, n)
end

-- A string of min..max characters from '0'..'z'.
function sysbench.rand.varstring(min_len, max_len)
   local buf = scratch(max_len)
   local n = C.rand_varstr(R, buf, min_len, max_len)
   return ffi.string(buf, n)
end
