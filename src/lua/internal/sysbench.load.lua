-- sysbench.load: the parallel, resumable loading and checking of the sbtest tables that the
-- bundled workloads' `prepare` and `verify` use (load_state.c, sql_load.c through FFI).
--
-- Every thread of the command calls start() first, then takes work items -- runs of whole
-- blocks of one table's ids -- with next() until it returns nil, and ends with
-- thread_done(); the last thread calls finish(), which prints the size report, the verdicts'
-- count or, after Ctrl-C, where every table is:
--
--   sysbench.load.start(sysbench.load.PREPARE, tables, rows, threads)
--   for item in sysbench.load.items() do            -- {table, first, last, first_of_table}
--      if item.first_of_table then ...create...; sysbench.load.ready(item.table, "load") end
--      sysbench.load.sql_load(con, spec, item.first, item.last)
--      if sysbench.load.item_done(item) then ...index...; sysbench.load.finished(...) end
--   end
--
-- The rows come from (seed, table, id) alone (sbtest_rows.c), so a table holds the same
-- rows for a given --rand-seed whatever the thread count. Output goes through say(), which
-- keeps a terminal's live progress lines below it.

ffi = require("ffi")

sysbench.load = {}

ffi.cdef[[
typedef struct {
  uint32_t table;
  int64_t first_id;
  int64_t last_id;
  bool first_of_table;
  uint32_t index;
} load_item;

typedef struct {
  uint32_t table;
  uint64_t table_size;
  uint64_t seed;
  const char *c_template;
  const char *pad_template;
  int method;
  const char *insert_prefix;
  const char *stream_statement;
  uint64_t statement_bytes;
  bool transactions;
  bool resume;
  bool compare_contents;
} sql_table_spec;

int sb_load_start(int command, uint32_t tables, uint64_t rows, uint32_t threads);
int sb_load_next(load_item *item);
void sb_load_table_ready(uint32_t table, int ready);
int sb_load_item_done(const load_item *item);
void sb_load_table_activity(uint32_t table, const char *activity);
void sb_load_table_finished(uint32_t table, uint64_t logical_bytes, int64_t data_bytes,
                            int64_t index_bytes);
void sb_load_table_rows_from(uint32_t table, uint64_t seed, bool resume);
uint64_t sb_load_table_seed(uint32_t table);
bool sb_load_table_resumed(uint32_t table);
int sb_load_refuse_stream(void);
bool sb_load_stream_refused(void);
void sb_load_fail(void);
int sb_load_thread_done(void);
int sb_load_finish(void);
bool sb_load_stopping(void);
bool sb_load_interrupted(void);
int64_t sb_load_block_rows(uint64_t rows);
void sb_load_say(const char *text);
void sb_load_note_once(const char *text);
void sb_load_verify_verdict(uint32_t table, int ok, const char *text);

int sb_sql_load_range(sql_connection *con, const sql_table_spec *spec, int64_t first,
                      int64_t last);
int sb_sql_verify_range(sql_connection *con, const sql_table_spec *spec, int64_t first,
                        int64_t last);
int sb_sql_verify_table(sql_connection *con, const sql_table_spec *spec, int index_state,
                        const char *index_name, uint64_t index_rows, uint64_t index_sum_k,
                        uint64_t index_sum_id);

void db_want_stream_in(void);
uint64_t rand_effective_seed(void);
unsigned long long strtoull(const char *text, char **end, int base);
]]

local C = ffi.C
local load = sysbench.load

load.PREPARE = 0
load.VERIFY = 1

-- sql_table_spec.method
load.INSERT = 0
load.STREAM = 1

-- verify: how the index on k looked (sql_load.h)
load.INDEX_NOT_WANTED = 0
load.INDEX_READ = 1
load.INDEX_MISSING = 2
load.INDEX_UNEXPECTED = 3

local SQL_LOAD_ERROR = -1
local SQL_LOAD_STOPPED = -2

local ready_codes = {load = 0, skip = 1, failed = 2}

function load.start(command, tables, rows, threads)
   if C.sb_load_start(command, tables, rows, threads) ~= 0 then
      error("the threads of this command disagree on the tables to work on", 2)
   end
end

-- Iterator over the work items of the calling thread.
function load.items()
   local item = ffi.new("load_item")
   return function()
      if C.sb_load_next(item) == 0 then
         return nil
      end
      return {
         table = item.table,
         first = tonumber(item.first_id),
         last = tonumber(item.last_id),
         first_of_table = item.first_of_table,
         cdata = ffi.new("load_item", item),
      }
   end
end

-- ready: "load", "skip" (complete already) or "failed".
function load.ready(table_num, ready)
   C.sb_load_table_ready(table_num, ready_codes[ready])
end

function load.item_done(item)
   return C.sb_load_item_done(item.cdata) == 1
end

-- Texts handed to C must live as long as the command: they are kept here.
local kept_texts = {}

function load.activity(table_num, text)
   kept_texts[text] = true
   C.sb_load_table_activity(table_num, text)
end

-- Sizes in bytes; nil when the server does not say.
function load.finished(table_num, logical, data, index)
   C.sb_load_table_finished(table_num, logical or 0, data or -1, index or -1)
end

-- The seed of a table's rows (a uint64 cdata) and whether it is being resumed.
function load.table_rows_from(table_num, seed, resume)
   C.sb_load_table_rows_from(table_num, seed, resume and true or false)
end

function load.table_seed(table_num)
   return C.sb_load_table_seed(table_num)
end

function load.table_resumed(table_num)
   return C.sb_load_table_resumed(table_num)
end

-- The seed the rows of a fresh table come from: --rand-seed, or the one drawn from the clock.
function load.effective_seed()
   return C.rand_effective_seed()
end

-- A seed as decimal digits, and back (seeds go past 2^53, beyond Lua's numbers).
function load.seed_text(seed)
   return (tostring(ffi.cast("uint64_t", seed)):gsub("ULL$", ""))
end

function load.seed_from_text(text)
   return ffi.cast("uint64_t", C.strtoull(text, nil, 10))
end

-- True for the first thread to find the streamed load refused (it says so).
function load.refuse_stream()
   return C.sb_load_refuse_stream() == 1
end

function load.stream_refused()
   return C.sb_load_stream_refused()
end

function load.fail()
   C.sb_load_fail()
end

function load.thread_done()
   return C.sb_load_thread_done() == 1
end

-- False when verify found a table wrong.
function load.finish()
   return C.sb_load_finish() == 0
end

function load.stopping()
   return C.sb_load_stopping()
end

function load.interrupted()
   return C.sb_load_interrupted()
end

function load.block_rows(rows)
   return tonumber(C.sb_load_block_rows(rows))
end

function load.say(text)
   C.sb_load_say(text)
end

function load.note_once(text)
   C.sb_load_note_once(text)
end

function load.verdict(table_num, ok, text)
   C.sb_load_verify_verdict(table_num, ok and 1 or 0, text)
end

-- Connections made after this call can load with LOAD DATA LOCAL INFILE (MySQL family).
function load.want_stream()
   C.db_want_stream_in()
end

-- A table's description for the SQL loader, from a Lua table of the same fields.
function load.sql_spec(fields)
   local spec = ffi.new("sql_table_spec")
   local keep = {}
   for name, value in pairs(fields) do
      if type(value) == "string" then
         keep[#keep + 1] = value
      end
      spec[name] = value
   end
   return {cdata = spec, keep = keep}
end

-- The error of a failed loader call, as the SQL API raises them.
local function raise(con, what)
   local state = con.sql_state ~= nil and ffi.string(con.sql_state) or ""
   local message = con.sql_errmsg ~= nil and ffi.string(con.sql_errmsg) or "unknown error"
   error(string.format("SQL error, errno = %d, state = '%s': %s (%s)", con.sql_errno, state,
                       message, what), 0)
end

-- The errno and SQLSTATE of the connection's last error.
function load.last_error(con)
   return con.sql_errno, con.sql_state ~= nil and ffi.string(con.sql_state) or "",
          con.sql_errmsg ~= nil and ffi.string(con.sql_errmsg) or ""
end

-- Loads ids first..last: "ok", "stopped" (Ctrl-C, or another thread failed), or, with
-- `soft`, "error" (the caller looks at load.last_error); otherwise an error is raised.
function load.sql_load(con, spec, first, last, soft)
   local rc = C.sb_sql_load_range(con, spec.cdata, first, last)
   if rc == 0 then
      return "ok"
   elseif rc == SQL_LOAD_STOPPED then
      return "stopped"
   elseif soft then
      return "error"
   end
   raise(con, string.format("loading ids %d..%d of sbtest%d", first, last, spec.cdata.table))
end

function load.sql_verify_range(con, spec, first, last)
   local rc = C.sb_sql_verify_range(con, spec.cdata, first, last)
   if rc == SQL_LOAD_STOPPED then
      return "stopped"
   elseif rc ~= 0 then
      raise(con, string.format("reading ids %d..%d of sbtest%d", first, last, spec.cdata.table))
   end
   return "ok"
end

-- A count or a sum the server sent as text: as a uint64 (sums pass 2^53).
local function big(value)
   if type(value) == "string" then
      return ffi.cast("uint64_t", C.strtoull(value, nil, 10))
   end
   return value or 0
end

-- index: {state = load.INDEX_*, name = "k_1", rows = "n", sum_k = "n", sum_id = "n"}
function load.sql_verify_table(con, spec, index)
   local rc = C.sb_sql_verify_table(con, spec.cdata, index.state, index.name or "k",
                                    big(index.rows), big(index.sum_k), big(index.sum_id))
   if rc < 0 then
      raise(con, string.format("checking sbtest%d", spec.cdata.table))
   end
   return rc == 0
end
