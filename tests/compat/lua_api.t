#!/usr/bin/env bash
# lua_api.t: the Lua API without a database, differentially: scripts from a file and from
# standard input, sysbench.cmdline (options, commands, errors in their declaration), the hooks
# and reporters, sysbench.histogram, the random-number functions' ranges, the 0.5-era legacy
# globals, events, errors raised by a script and its exit codes.
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/compat.sh"

# ---- scripts from standard input and without a command ----------------------------------------
write hist.lua <<'LUA'
h = sysbench.histogram.new(1000, 1, 10)
h:update(1)
h:update(2)
h:update(5)
h:update(5)
h:print()
LUA
same "a histogram script from stdin (global h)" --stdin hist.lua --
same "the same from stdin with '-'" --stdin hist.lua -- -
same "the same from a file, no command" --file hist.lua -- hist.lua
# A script indented as in a shell script's here-document: its first line is code too.
sed 's/^/  /' "$TEST_TMP/hist.lua" > "$TEST_TMP/hist_indented.lua"
same "a histogram script from stdin, every line indented by two spaces" --stdin hist_indented.lua --
same "the same from a file" --file hist_indented.lua -- hist_indented.lua
for indent in ' ' '  ' '   ' "$(printf '\t')"; do
  printf '%sx = 1\nprint(x)\n' "$indent" > "$TEST_TMP/indent.lua"
  same "a first line indented by '$indent' runs (stdin)" --stdin indent.lua --
done

write hello.lua <<'LUA'
print("hello from " .. tostring(sysbench.cmdline.command))
print(type(ffi), type(sysbench.opt), sysbench.version, sysbench.version_string)
LUA
same "a script's body runs once without a command" --file hello.lua -- hello.lua
same "... and with an unknown command" --file hello.lua -- hello.lua frob
same "stdin script with options" --stdin hello.lua -- --threads=2

write syntax.lua <<'LUA'
function event( end
LUA
same "a syntax error in the script" --file syntax.lua -- syntax.lua run
write raises.lua <<'LUA'
error("boom at load")
LUA
same "an error raised while the script loads" --file raises.lua -- raises.lua run

# ---- sysbench.cmdline ----------------------------------------------------------------------
write opts.lua <<'LUA'
sysbench.cmdline.options = {
  num = {"a number", 5},
  flag = {"a flag", false},
  str = {"a string", "x"},
  lst = {"a list", {"a", "b"}},
  sz = {"a size", "1K", sysbench.cmdline.ARG_SIZE},
}
function event() end
sysbench.cmdline.commands = {
  show = {function()
    print(sysbench.opt.num, sysbench.opt.flag, sysbench.opt.str, table.concat(sysbench.opt.lst, "+"),
          sysbench.opt.sz, sysbench.opt.threads)
  end},
  par = {function() print("par " .. sysbench.tid) end, sysbench.cmdline.PARALLEL_COMMAND},
  fails = {function() error("command failed here") end},
}
LUA
same "declared options and their defaults" --file opts.lua -- opts.lua show
same "declared options given values" --file opts.lua -- opts.lua show --num=7 --flag --str=y \
     --lst=p,q,r --sz=2M
same "help of a script with options" --file opts.lua -- opts.lua help
same "an undeclared option is refused" --file opts.lua -- opts.lua show --nosuch=1
same "a parallel command runs in every thread" --sort --file opts.lua -- opts.lua par --threads=3
same "a command that raises an error" --file opts.lua -- opts.lua fails
same "run of a script whose commands table has no run" --file opts.lua -- opts.lua run --events=3
same "prepare of a script without prepare()" --file opts.lua -- opts.lua prepare

write badopts.lua <<'LUA'
sysbench.cmdline.options = { bad = "not a table" }
function event() end
LUA
same "a malformed option declaration" --file badopts.lua -- badopts.lua run
write badopts3.lua <<'LUA'
sysbench.cmdline.options = "x"
function event() end
LUA
same "sysbench.cmdline.options not a table" --file badopts3.lua -- badopts3.lua run
write badopts2.lua <<'LUA'
sysbench.cmdline.options = { bad = {} }
function event() end
LUA
same "an option declared without a description" --file badopts2.lua -- badopts2.lua run
write badcmds.lua <<'LUA'
sysbench.cmdline.commands = { x = "not a table" }
function event() end
LUA
same "a malformed command declaration" --file badcmds.lua -- badcmds.lua x

write legacyopts.lua <<'LUA'
function event() end
function prepare() print("prepare sees " .. tostring(my_setting) .. " " .. tostring(sysbench.opt.my_setting)) end
LUA
same "a script without declared options takes any (legacy mode)" --file legacyopts.lua -- \
     legacyopts.lua prepare --my-setting=42

# ---- events, hooks and reports ---------------------------------------------------------------
write events.lua <<'LUA'
local n = 0
-- io.write of whole lines: 1.0.20's print() writes the text and its newline apart, so lines of
-- several threads can run together ("done 1done 2")
function thread_init() io.write("init " .. sysbench.tid .. "\n") end
function event() n = n + 1 end
function thread_done()   -- how a run's events spread over threads is the scheduler's business
  io.write("done " .. sysbench.tid .. (sysbench.opt.threads == 1 and " events " .. n or "") .. "\n")
end
function init() print("global init") end
function done() print("global done") end
LUA
same "init, thread_init, event, thread_done, done" --file events.lua -- events.lua run --events=7
same "... with 3 threads" --sort --file events.lua -- events.lua run --events=9 --threads=3

write stopearly.lua <<'LUA'
local n = 0
function event() n = n + 1; if n == 4 then return true end end
LUA
same "an event returning true stops the thread" --file stopearly.lua -- stopearly.lua run --events=100

write restart.lua <<'LUA'
local tries = 0
function event()
  tries = tries + 1
  if tries % 3 ~= 0 then error({errcode = sysbench.error.RESTART_EVENT}) end
end
sysbench.hooks.before_restart_event = function(err) io.write("") end
function thread_done() print("tries " .. tries) end
LUA
same "RESTART_EVENT errors retry the event" --file restart.lua -- restart.lua run --events=5

write eventerr.lua <<'LUA'
function event() error("event went wrong") end
LUA
same "an error in event() stops the run" --allow report-after-fatal-error --file eventerr.lua -- eventerr.lua run --events=5
write initerr.lua <<'LUA'
function thread_init() error("thread_init went wrong") end
function event() end
LUA
same "an error in thread_init()" --file initerr.lua -- initerr.lua run --events=5
write noevent.lua <<'LUA'
function thread_init() end
LUA
same "run of a script without event()" --file noevent.lua -- noevent.lua run --events=5

# Errors where 1.0.20 prints the FATAL line and still exits 0 (differences.txt: errors-exit-1)
write err_done.lua <<'LUA'
function event() end
function thread_done() error("boom in thread_done") end
LUA
same "an error in thread_done()" --allow errors-exit-1 --file err_done.lua -- err_done.lua run --events=2
write err_gdone.lua <<'LUA'
function event() end
function done() error("boom in done") end
LUA
same "an error in done()" --allow errors-exit-1 --file err_gdone.lua -- err_gdone.lua run --events=2
write err_hook.lua <<'LUA'
function event() end
sysbench.hooks.report_cumulative = function() error("boom in report_cumulative") end
LUA
same "an error in the report_cumulative hook" --allow errors-exit-1 --file err_hook.lua -- \
     err_hook.lua run --events=2
write err_pcmd.lua <<'LUA'
sysbench.cmdline.commands = { boom = { function() error("boom in parallel command") end,
                                       sysbench.cmdline.PARALLEL_COMMAND } }
LUA
same "an error in a parallel command" --allow errors-exit-1 --file err_pcmd.lua -- err_pcmd.lua boom
same "... with 2 threads" --allow errors-exit-1 --file err_pcmd.lua -- err_pcmd.lua boom --threads=2

write hooks.lua <<'LUA'
function event() end
sysbench.hooks.report_cumulative = function(stat)
  print("cumulative events " .. stat.events .. " threads " .. stat.threads_running)
end
sysbench.hooks.report_intermediate = function(stat) print("intermediate") end
LUA
same "report_cumulative hook replaces the report" --file hooks.lua -- hooks.lua run --events=11

write reporters.lua <<'LUA'
function event() end
sysbench.hooks.report_cumulative = sysbench.report_csv
LUA
same "sysbench.report_csv as the final report" --timed --file reporters.lua -- reporters.lua run --events=3
write reporters2.lua <<'LUA'
function event() end
sysbench.hooks.report_cumulative = sysbench.report_json
LUA
same "sysbench.report_json as the final report" --timed --file reporters2.lua -- reporters2.lua run --events=3

# ---- random numbers: ranges and shapes (the streams differ on purpose: differences.txt) ---------
write rand.lua <<'LUA'
sysbench.cmdline.commands = { check = { function()
  local ok = true
  for i = 1, 2000 do
    for _, f in ipairs({"uniform", "default", "gaussian", "special", "pareto"}) do
      local v = sysbench.rand[f](5, 17)
      if v < 5 or v > 17 or v ~= math.floor(v) then ok = false; print(f, v) end
    end
    local s = sysbench.rand.string("##-@@")
    if not s:match("^%d%d%-%l%l$") then ok = false; print("string", s) end
    local u = sysbench.rand.unique()
    if u < 0 or u > 4294967295 then ok = false; print("unique", u) end
    local legacy = sb_rand(1, 3) + sb_rand_uniform(1, 3)
    if legacy < 2 or legacy > 6 then ok = false; print("legacy", legacy) end
    if not sb_rand_str("#@"):match("^%d%l$") then ok = false end
  end
  print("all in range: " .. tostring(ok))
  print(type(sysbench.rand.uniform_uint64()), type(sysbench.rand.uniform_double and 1))
end } }
LUA
same "random functions stay in their ranges" --file rand.lua -- rand.lua check --rand-seed=3
for t in uniform gaussian special pareto; do
  same "--rand-type=$t keeps default() in range" --file rand.lua -- rand.lua check \
       --rand-type=$t
done

# ---- the 0.5-era API -------------------------------------------------------------------------
write legacy.lua <<'LUA'
function thread_init(thread_id)
  print("thread_init arg " .. thread_id .. " tid " .. sysbench.tid)
end
function event(thread_id)
  if thread_id ~= sysbench.tid then print("mismatch") end
end
function thread_done(thread_id) print("thread_done " .. thread_id) end
print(type(sb_rand), type(sb_rand_uniq), type(sb_rnd), type(db_connect), type(db_query),
      type(DB_ERROR_NONE), type(DB_ERROR_RESTART_TRANSACTION), type(DB_ERROR_FAILED))
LUA
same "0.5 globals and thread_id arguments" --file legacy.lua -- legacy.lua run --events=4

# The global `test` is the script's path in the body, every hook and every command, with and
# without the deprecated --test, and whether or not the script declares options;
# sysbench.opt.test is --test's value when given, nil otherwise.
mkdir -p "$TEST_TMP/sub"
write sub/testpath.lua <<'LUA'
print("body", test, sysbench.opt and sysbench.opt.test)
function prepare() print("prepare", test, sysbench.opt.test, type(sysbench.opt.test)) end
function thread_init() print("thread_init", test) end
function event() end
function thread_done() print("thread_done", test) end
LUA
{ echo 'sysbench.cmdline.options = { x = {"an option", 1} }'; cat "$TEST_TMP/sub/testpath.lua"; } \
  > "$TEST_TMP/sub/testpath_opts.lua"
for script in sub/testpath.lua sub/testpath_opts.lua; do
  same "the global test in prepare(), --test=$script" --file sub -- --test="$script" prepare
  same "the global test in prepare(), $script as the test name" --file sub -- "$script" prepare
  same "the global test in thread_init() and thread_done(), --test=$script" --file sub -- \
       --test="$script" run --events=1
done

done_testing
