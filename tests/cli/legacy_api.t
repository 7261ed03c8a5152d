#!/usr/bin/env bash
# legacy_api.t: the 0.5-era API sysbench 1.0.20 still offers and old scripts use: sb_rand,
# sb_rand_uniq, sb_rand_str, sb_rnd, sb_rand_uniform/gaussian/special, thread_id, test,
# mysql_table_engine, and options exported as globals (with unknown options accepted) when
# the script declares no sysbench.cmdline.options.
. "$(dirname "$0")/../lib/tap.sh"

write legacy.lua <<'LUA'
local function inrange(f, a, b)
  for _ = 1, 1000 do
    local v = f(a, b)
    if type(v) ~= "number" or v < a or v > b or v ~= math.floor(v) then return "FAILED " .. tostring(v) end
  end
  return "ok"
end
print("main thread_id=" .. thread_id)
print("sb_rand " .. inrange(sb_rand, 1, 1000))
print("sb_rand_uniform " .. inrange(sb_rand_uniform, 1, 1000))
print("sb_rand_gaussian " .. inrange(sb_rand_gaussian, 1, 1000))
print("sb_rand_special " .. inrange(sb_rand_special, 1, 1000))
local seen, dup, out = {}, 0, 0
for _ = 1, 1000 do
  local v = sb_rand_uniq(1, 2^31)
  if seen[v] then dup = dup + 1 end
  if v < 1 or v > 2^31 then out = out + 1 end
  seen[v] = true
end
print("sb_rand_uniq duplicates=" .. dup .. " outside=" .. out)
print("sb_rand_str " .. tostring(sb_rand_str("###-@@@"):match("^%d%d%d%-%l%l%l$") ~= nil))
local r = sb_rnd()
print("sb_rnd " .. tostring(type(r) == "number" and r >= 0 and r < 2^32 and r == math.floor(r)))
print("test=" .. tostring(test) .. " engine=" .. tostring(mysql_table_engine))
function event() end
function thread_init() print("worker thread_id=" .. thread_id .. " tid=" .. sysbench.tid) end
LUA
sb legacy.lua run --threads=2 --events=2 --time=0
is "$rc" 0 "a script using the legacy API runs"
like "$out" "main thread_id=0" "thread_id is 0 in the main state"
is "$(printf '%s\n' "$out" | grep '^worker' | sort | tr '\n' ' ')" \
   "worker thread_id=0 tid=0 worker thread_id=1 tid=1 " "thread_id is the worker's sysbench.tid"
for f in sb_rand sb_rand_uniform sb_rand_gaussian sb_rand_special; do
  like "$out" "^$f ok" "$f(1, 1000) gives integers in range"
done
like "$out" "sb_rand_uniq duplicates=0 outside=0" "sb_rand_uniq(a, b) never repeats and stays in [a, b]"
like "$out" "sb_rand_str true" "sb_rand_str fills a '#'/'@' template"
like "$out" "sb_rnd true" "sb_rnd() is a 32-bit unsigned integer"
like "$out" "test=legacy.lua engine=innodb" "test is the script path, mysql_table_engine 'innodb'"

# Options become globals when the script declares none (and any option is accepted then).
write globals.lua <<'LUA'
function threads() return "mine" end
function event() end
sysbench.cmdline.commands = { show = { function()
  print("time=" .. tostring(time) .. " events=" .. tostring(events) .. " rand_type=" .. tostring(rand_type))
  print("my_opt=" .. tostring(my_opt) .. " " .. type(my_opt) .. " opt=" .. tostring(sysbench.opt.my_opt))
  print("oltp_tables_count=" .. tostring(oltp_tables_count))
  print("threads global is still " .. type(threads))
  print("report_checkpoints " .. type(report_checkpoints))
end } }
LUA
sb globals.lua show --events=9 --my-opt=17 --oltp-tables-count=3
is "$rc" 0 "unknown options are accepted when the script declares no options"
like "$out" "time=10 events=9 rand_type=special" "every option is also a global (legacy mode)"
like "$out" "my_opt=17 string opt=17" "an undeclared option is a string global and in sysbench.opt"
like "$out" "oltp_tables_count=3" "old --oltp-* options reach old scripts"
like "$out" "threads global is still function" "a global function of the same name is not overwritten"
like "$out" "report_checkpoints table" "list options are tables as globals too"

write worker_globals.lua <<'LUA'
function thread_init() print("worker sees my_opt=" .. tostring(my_opt) .. " time=" .. tostring(time)) end
function event() end
LUA
sb worker_globals.lua run --my-opt=abc --events=1 --time=0
like "$out" "worker sees my_opt=abc time=0" "the globals are set in worker states too"

write declared.lua <<'LUA'
sysbench.cmdline.options = { mine = {"declared", 1} }
function event() end
sysbench.cmdline.commands = { show = { function()
  print("time global " .. tostring(time) .. ", mine global " .. tostring(mine))
end } }
LUA
sb declared.lua show
like "$out" "time global nil, mine global nil" "a script declaring options gets no globals"
sb declared.lua show --other=1
is "$rc|$err" "1|invalid option: --other=1" "... and unknown options are rejected"

done_testing
