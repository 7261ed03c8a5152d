-- sysbench.histogram: bounded logarithmic histograms for scripts (lua_histogram.c).
--   local h = sysbench.histogram.new(1024, 0.001, 100000)
--   h:update(value); h:print()

ffi = require("ffi")

sysbench.histogram = {}

ffi.cdef[[
typedef struct histogram sb_histogram_t;
sb_histogram_t *sb_histogram_new(size_t size, double range_min, double range_max);
void sb_histogram_delete(sb_histogram_t *h);
void sb_histogram_update(sb_histogram_t *h, double value);
void sb_histogram_print(sb_histogram_t *h);
]]

local histogram_methods = {}

function histogram_methods:update(value)
   ffi.C.sb_histogram_update(self, value)
end

function histogram_methods:print()
   ffi.C.sb_histogram_print(self)
end

ffi.metatype("sb_histogram_t", {
   __index = histogram_methods,
   __tostring = function() return "<sb_histogram>" end,
})

function sysbench.histogram.new(size, range_min, range_max)
   local h = ffi.C.sb_histogram_new(size, range_min, range_max)
   if h == nil then
      error(string.format("sysbench.histogram.new(%s, %s, %s): expected size >= 2 and " ..
                          "0 < min < max", tostring(size), tostring(range_min),
                          tostring(range_max)), 2)
   end
   return ffi.gc(h, ffi.C.sb_histogram_delete)
end
