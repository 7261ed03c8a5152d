-- sysbench: the event loop every worker runs and the hooks table. The report formatters
-- scripts can install (sysbench.report_default / report_csv / report_json) are
-- sysbench.reporters', loaded the first time a script reads one of them.

ffi = require("ffi")

-- Scripts written for 1.0 repeat declarations sysbench itself makes: sysbench-tpcc declares
-- sb_counter_inc against our sb_counter_type, others copy the enum, and a script's modules may
-- each declare the same thing. LuaJIT refuses a second definition of an enum or a struct even
-- when it is identical, so ffi.cdef (for every user of the ffi module in this state) blanks
-- out each top-level declaration with a body ({...}) that was already made word for word
-- (whitespace aside), and passes the rest on in one call, line numbers unchanged. Only bodies
-- can be redefined, so text without one goes straight through; so does text with a
-- preprocessor line (#pragma pack), which spans declarations.
local raw_cdef = ffi.cdef
local declared = {}            -- declarations with a body, whitespace removed

-- Comments blanked out (newlines kept), so a ';' or brace in a comment cannot mislead.
local function uncomment(text)
   return (text:gsub("/%*.-%*/", function(c) return (c:gsub("[^\n]", " ")) end)
               :gsub("//[^\n]*", ""))
end

function ffi.cdef(text)
   if type(text) ~= "string" or not text:find("{", 1, true) or text:find("#", 1, true) then
      return raw_cdef(text)
   end
   if text:find("/", 1, true) then
      text = uncomment(text)
   end
   local out, fresh, copied, search = {}, {}, 1, 1
   while true do
      local body_start, body_end = text:find("%b{}", search)
      if body_start == nil then
         break
      end
      -- the declaration runs from after the previous ';' to the ';' after the body
      local after = text:sub(search, body_start):match(".*;()")
      local first = after and search + after - 1 or search
      local last = text:find(";", body_end + 1, true) or #text
      local decl = text:sub(first, last)
      local key = decl:gsub("%s+", "")
      if declared[key] or fresh[key] then
         out[#out + 1] = text:sub(copied, first - 1)
         out[#out + 1] = decl:gsub("[^\n]", " ")
         copied = last + 1
      else
         fresh[key] = true
      end
      search = last + 1
   end
   out[#out + 1] = text:sub(copied)
   local ok, err = pcall(raw_cdef, table.concat(out))
   if not ok then
      error(err, 2)
   end
   for key in pairs(fresh) do
      declared[key] = true
   end
end

-- print() from several threads at once: LuaJIT writes each argument and the newline
-- separately, so lines of different threads could interleave ("thread 1 ranthread 2 ran");
-- one write per line cannot. Output is otherwise the same (tostring'd arguments, tabs).
local stdout = io.stdout
function print(...)
   local n = select("#", ...)
   local parts = {...}
   for i = 1, n do
      parts[i] = tostring(parts[i])
   end
   stdout:write(table.concat(parts, "\t", 1, n) .. "\n")
end

ffi.cdef[[
typedef struct sb_worker sb_worker;
bool sb_worker_more_events(sb_worker *w);
void sb_worker_event_start(sb_worker *w);
void sb_worker_event_stop(sb_worker *w);
bool sb_worker_event_next(sb_worker *w);
void sb_worker_event_cancel(sb_worker *w);

void sb_event_start(int thread_id);
void sb_event_stop(int thread_id);
bool sb_more_events(int thread_id);
bool sb_event_next(int thread_id);
void sb_event_cancel(int thread_id);
bool runner_stopping(void);

typedef enum
{
  SB_CNT_OTHER,
  SB_CNT_READ,
  SB_CNT_WRITE,
  SB_CNT_TRX,
  SB_CNT_ERROR,
  SB_CNT_RECONNECT,
  SB_CNT_MAX
} sb_counter_type;

void sb_counter_inc(int thread_id, sb_counter_type type);
uint64_t sb_counter_val(int thread_id, sb_counter_type type);
bool output_exact(void);
]]

-- True in the exact-output mode (--compat=1.0.20, SYSBENCH_COMPAT=1.0.20): a script or module
-- that prints something 1.0.20 does not print asks this first (docs/architecture.md).
function sysbench.output_exact()
   return ffi.C.output_exact()
end

-- The worker this state acts for, set by C when it made the state: the event loop's calls,
-- the counters and the random numbers (sysbench.rand) go through it, not through the thread.
sysbench.worker = ffi.cast("sb_worker *", sysbench.worker)

-- Events run inside one protected call rather than one pcall per event, so the loop stays a
-- compiled trace; an error thrown by event() ends the pcall and is handled below. After a
-- "restart event" error the same event runs again, its clock still running since its start.
local function run_events(thread_id, resume)
   local C, W = ffi.C, sysbench.worker
   if resume then
      if event(thread_id) then return true end
      if not C.sb_worker_event_next(W) then return false end
   else
      if not C.sb_worker_more_events(W) then return false end
      C.sb_worker_event_start(W)
   end
   repeat
      -- event() returning a true value ends this thread; that event is not counted.
      if event(thread_id) then return true end
   until not C.sb_worker_event_next(W)
   return false
end

function thread_run(thread_id)
   local resume = false
   while true do
      local ok, ret = pcall(run_events, thread_id, resume)
      if ok then
         if ret then ffi.C.sb_worker_event_cancel(sysbench.worker) end
         return
      end
      if type(ret) == "table" and ret.errcode == sysbench.error.RESTART_EVENT then
         -- Once the run is ending (its time is up, Ctrl-C, another thread failed) the event
         -- is not tried again: it ends uncounted, like one cut off by a forced shutdown.
         -- (A driver gives up reconnecting then, and re-preparing would fail.)
         if ffi.C.runner_stopping() then
            ffi.C.sb_worker_event_cancel(sysbench.worker)
            return
         end
         if sysbench.hooks.before_restart_event then
            sysbench.hooks.before_restart_event(ret)
         end
         resume = true
      else
         error(ret, 0)
      end
   end
end

sysbench.hooks = {
   -- report_intermediate = function(stat) ... end,
   -- report_cumulative = function(stat) ... end,
   -- sql_error_ignorable = function(errdesc) ... end,
   -- before_restart_event = function(errdesc) ... end,
}
