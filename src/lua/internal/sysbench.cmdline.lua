-- sysbench.cmdline: options and commands a script declares.
--   sysbench.cmdline.options  = { name = {"description", default [, type [, validate]]} }
--     (the bundled workloads mark the options 1.0.20's lack with added = true: their help
--     lines follow 1.0.20's, and the exact-output mode leaves them out)
--   sysbench.cmdline.commands = { name = {function [, sysbench.cmdline.PARALLEL_COMMAND]} }
-- The option type follows from the default when not given: boolean -> BOOL, number ->
-- DOUBLE, table -> LIST, string or nil -> STRING.

ffi = require("ffi")

ffi.cdef[[
typedef enum
{
  SB_ARG_TYPE_NULL,
  SB_ARG_TYPE_BOOL,
  SB_ARG_TYPE_INT,
  SB_ARG_TYPE_SIZE,
  SB_ARG_TYPE_DOUBLE,
  SB_ARG_TYPE_STRING,
  SB_ARG_TYPE_LIST,
  SB_ARG_TYPE_FILE,
  SB_ARG_TYPE_MAX
} sb_arg_type_t;

typedef bool sb_opt_validate_t(const char *, const char *);

typedef struct
{
  const char         *name;
  const char         *desc;
  const char         *value;
  sb_arg_type_t      type;
  sb_opt_validate_t  *validate;
} sb_arg_t;

int sb_lua_set_test_args(sb_arg_t *args, size_t len);
void sb_lua_mark_added_option(const char *name);
void sb_print_test_options(void);
]]

local cmdline = sysbench.cmdline

cmdline.ARG_NULL = ffi.C.SB_ARG_TYPE_NULL
cmdline.ARG_BOOL = ffi.C.SB_ARG_TYPE_BOOL
cmdline.ARG_INT = ffi.C.SB_ARG_TYPE_INT
cmdline.ARG_SIZE = ffi.C.SB_ARG_TYPE_SIZE
cmdline.ARG_DOUBLE = ffi.C.SB_ARG_TYPE_DOUBLE
cmdline.ARG_STRING = ffi.C.SB_ARG_TYPE_STRING
cmdline.ARG_LIST = ffi.C.SB_ARG_TYPE_LIST
cmdline.ARG_FILE = ffi.C.SB_ARG_TYPE_FILE
cmdline.ARG_MAX = ffi.C.SB_ARG_TYPE_MAX

-- Marks a custom command that runs in --threads threads, each with its own state and tid.
cmdline.PARALLEL_COMMAND = true

local inferred_type = {
   boolean = cmdline.ARG_BOOL,
   number = cmdline.ARG_DOUBLE,
   table = cmdline.ARG_LIST,
   string = cmdline.ARG_STRING,
}

local function default_text(name, def)
   local value = def[2]
   if type(value) == "table" then
      return table.concat(value, ",")
   elseif type(value) == "boolean" then
      return value and "on" or "off"
   elseif type(value) == "number" then
      -- integers print without ".0" so help shows [10000], not [10000.0]
      if value == math.floor(value) and math.abs(value) < 2^53 then
         return string.format("%d", value)
      end
      return tostring(value)
   elseif value == nil then
      return nil
   end
   return tostring(value)
end

-- Hand sysbench.cmdline.options to the option registry. Called once, in the main state,
-- right after the script's body ran. True on success.
function cmdline.read_cmdline_options()
   local options = cmdline.options
   if options == nil then
      return true
   end
   if type(options) ~= "table" then
      error('[string "sysbench.cmdline.lua"]:120: wrong type for sysbench.cmdline.options: ' ..
            type(options) .. "\nHINT: sysbench.cmdline.options must be a table", 0)
   end

   local names = {}
   for name in pairs(options) do
      names[#names + 1] = name
   end

   local args = ffi.new("sb_arg_t[?]", #names + 1)
   local keep = {}                      -- keep the C strings alive until the call returns
   for i, name in ipairs(names) do
      local def = options[name]
      -- 1.0.20's messages, with the place its own sysbench.cmdline.lua raised them (scripts
      -- and people match on the whole line), then a line of ours saying what is expected.
      if type(name) ~= "string" or type(def) ~= "table" then
         error('[string "sysbench.cmdline.lua"]:132: wrong table structure in ' ..
               "sysbench.cmdline.options\nHINT: entry '" .. tostring(name) ..
               "' must be {description, default [, type [, validate]]}", 0)
      end
      if def[1] == nil then
         error('[string "sysbench.cmdline.lua"]:137: nil description for option ' .. name ..
               "\nHINT: give it as {\"description\", default}", 0)
      end
      local t = def[3] or (def[2] ~= nil and inferred_type[type(def[2])]) or cmdline.ARG_STRING
      local value = default_text(name, def)
      local desc = tostring(def[1])
      keep[#keep + 1] = value
      keep[#keep + 1] = desc
      local a = args[i - 1]
      a.name = name
      a.desc = desc
      a.value = value
      a.type = t
      if def[4] ~= nil then
         a.validate = def[4]
      end
   end
   if ffi.C.sb_lua_set_test_args(args, #names) ~= 0 then
      return false
   end
   for _, name in ipairs(names) do
      if options[name].added then
         ffi.C.sb_lua_mark_added_option(name)
      end
   end
   return true
end

-- 1.0.20's name for the same function.
cmdline.read_option_defs = cmdline.read_cmdline_options

function cmdline.command_defined(name)
   return type(cmdline.commands) == "table" and
      type(cmdline.commands[name]) == "table" and
      cmdline.commands[name][1] ~= nil
end

function cmdline.command_parallel(name)
   return cmdline.command_defined(name) and
      cmdline.commands[name][2] == cmdline.PARALLEL_COMMAND
end

-- Run a custom command; nil or any value but false counts as success.
function cmdline.call_command(name)
   if not cmdline.command_defined(name) then
      return false
   end
   local rc = cmdline.commands[name][1]()
   if rc == nil then
      return true
   end
   return rc and true or false
end

function cmdline.print_test_options()
   ffi.C.sb_print_test_options()
end
