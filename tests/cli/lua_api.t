#!/usr/bin/env bash
# lua_api.t: the sysbench.* Lua API scripts rely on: sysbench.opt and its types,
# sysbench.cmdline (options with type inference and validation, commands with and without
# PARALLEL_COMMAND, argv, command, script_path), sysbench.tid, sysbench.version,
# sysbench.error, every sysbench.rand function and sysbench.histogram. Expected values were
# checked against sysbench 1.0.20 where it has the function.
. "$(dirname "$0")/../lib/tap.sh"

# ---- sysbench.opt -------------------------------------------------------------------------

write types.lua <<'LUA'
sysbench.cmdline.options = {
  b = {"inferred boolean", false},
  d = {"inferred number", 5},
  l = {"inferred list", {"x", "y"}},
  s = {"inferred string", "str"},
  n = {"no default"},
  i = {"explicit int", 3, sysbench.cmdline.ARG_INT},
  z = {"explicit size", "2K", sysbench.cmdline.ARG_SIZE},
  even = {"validated", 2, sysbench.cmdline.ARG_INT,
          function(name, value) return tonumber(ffi.string(value)) % 2 == 0 end},
}
print("body sees sysbench.opt = " .. tostring(sysbench.opt))
function event() end
local function t(v) return type(v) end
sysbench.cmdline.commands = { types = { function()
  local o = sysbench.opt
  print("BOOL " .. t(o.b) .. " " .. tostring(o.b))
  print("DOUBLE " .. t(o.d) .. " " .. o.d)
  print("LIST " .. t(o.l) .. " " .. table.concat(o.l, "|"))
  print("STRING " .. t(o.s) .. " " .. o.s)
  print("NODEFAULT " .. t(o.n) .. " [" .. o.n .. "]")
  print("INT " .. t(o.i) .. " " .. o.i)
  print("SIZE " .. t(o.z) .. " " .. o.z)
  print("FILE " .. t(o.config_file))
  print("core " .. t(o.threads) .. " " .. t(o.time) .. " " .. t(o.debug) .. " " .. t(o.rand_type) ..
        " " .. t(o.report_checkpoints) .. " " .. t(o.thread_stack_size))
  print("even " .. o.even)
end } }
LUA
sb types.lua types
is "$rc" 0 "a script reads its options through sysbench.opt"
like "$out" "body sees sysbench.opt = nil" "sysbench.opt is set after the script's body ran, as in 1.0.20"
like "$out" "BOOL boolean false" "a boolean default makes a BOOL option (Lua boolean)"
like "$out" "DOUBLE number 5" "a number default makes a DOUBLE option (Lua number)"
like "$out" "LIST table x\|y" "a table default makes a LIST option (Lua array)"
like "$out" "STRING string str" "a string default makes a STRING option"
like "$out" "NODEFAULT string \[\]" "an option without default reads as the empty string"
like "$out" "INT number 3" "ARG_INT gives a number"
like "$out" "SIZE number 2048" "ARG_SIZE gives bytes"
like "$out" "FILE nil" "a FILE option (--config-file) reads as nil"
like "$out" "core number number boolean string table number" \
     "core options have their types: threads/time numbers, debug boolean, rand_type string, report_checkpoints list, thread_stack_size number"
sb types.lua types --d=2.5 --b=on --l=p
like "$out" "DOUBLE number 2.5" "an inferred number option takes fractions"
like "$out" "BOOL boolean true" "an inferred boolean option takes on"
like "$out" "LIST table p$" "an inferred list option takes a list"
sb types.lua types --even=4
like "$out" "even 4" "a validation function accepting the value"
sb types.lua types --even=3
is "$rc|$err" "1|Invalid value for the 'even' option: '3'" \
   "a validation function rejecting the value: one line naming option and value, exit 1 (1.0.20: 'invalid option: --even=3')"

is "$(printf 'print(sysbench.cmdline.ARG_NULL, sysbench.cmdline.ARG_BOOL, sysbench.cmdline.ARG_INT, sysbench.cmdline.ARG_SIZE, sysbench.cmdline.ARG_DOUBLE, sysbench.cmdline.ARG_STRING, sysbench.cmdline.ARG_LIST, sysbench.cmdline.ARG_FILE, sysbench.cmdline.ARG_MAX)\n' | "$SB" | tail -1)" \
   "0	1	2	3	4	5	6	7	8" "sysbench.cmdline.ARG_NULL..ARG_MAX are 0..8"
is "$(printf 'print(sysbench.error.NONE, sysbench.error.RESTART_EVENT, sysbench.cmdline.PARALLEL_COMMAND)\n' | "$SB" | tail -1)" \
   "0	1	true" "sysbench.error.NONE = 0, RESTART_EVENT = 1, PARALLEL_COMMAND = true"
is "$(printf 'print(sysbench.version, sysbench.version_string)\n' | "$SB" | tail -1)" \
   "1.0.20	sysbench 1.0.20" "sysbench.version and version_string"

# ---- commands, argv, tid ------------------------------------------------------------------

write cmds.lua <<'LUA'
function event() end
function prepare() print("global prepare()") end
function cleanup() print("global cleanup()") end
local function where() return "tid=" .. sysbench.tid .. " command=" .. sysbench.cmdline.command end
sysbench.cmdline.commands = {
  prepare = { function() print("parallel prepare " .. where()) end,
              sysbench.cmdline.PARALLEL_COMMAND },
  serial = { function() print("serial " .. where()) end },
  failing = { function() return false end },
  argv = { function()
    local a = sysbench.cmdline.argv
    print("argv " .. #a .. " [1]=" .. a[1] .. " [2]=" .. a[2] .. " [3]=" .. a[3] ..
          " path=" .. sysbench.cmdline.script_path .. " zero=" .. tostring(a[0] ~= nil))
  end },
}
LUA
sb cmds.lua prepare --threads=3
is "$rc" 0 "a PARALLEL_COMMAND runs"
is "$(printf '%s\n' "$out" | grep '^parallel' | sort)" "parallel prepare tid=0 command=prepare
parallel prepare tid=1 command=prepare
parallel prepare tid=2 command=prepare" \
   "a PARALLEL_COMMAND runs once per --threads thread, each with its own sysbench.tid 0..threads-1"
like "$out" "Initializing worker threads..." "... announced as 1.0.20 does"
unlike "$out" "global prepare" "a custom command takes precedence over the global prepare()"
sb cmds.lua serial --threads=3
is "$(printf '%s\n' "$out" | grep '^serial')" "serial tid=0 command=serial" \
   "a command without PARALLEL_COMMAND runs once, in the main state (tid 0)"
sb cmds.lua cleanup
like "$out" "global cleanup\(\)" "without a cleanup command, the global cleanup() runs"
sb cmds.lua failing
is "$rc" 1 "a command returning false exits 1"
sb cmds.lua argv --threads=2
like "$out" "argv 3 \[1\]=cmds.lua \[2\]=argv \[3\]=--threads=2 path=cmds.lua zero=true" \
     "sysbench.cmdline.argv holds the raw arguments (argv[0] the binary), script_path the script"

write tids.lua <<'LUA'
local seen = {}
function thread_init(arg) print("thread_init arg=" .. arg .. " tid=" .. sysbench.tid) end
function event(arg) seen[arg] = true end
function thread_done(arg)
  for k in pairs(seen) do assert(k == sysbench.tid, "event got another thread's id") end
end
LUA
sb tids.lua run --threads=3 --events=300 --time=0
is "$(printf '%s\n' "$out" | grep '^thread_init' | sort)" "thread_init arg=0 tid=0
thread_init arg=1 tid=1
thread_init arg=2 tid=2" "workers see sysbench.tid 0..threads-1, also passed to the callbacks"
is "$rc" 0 "event(tid) gets the worker's own id"

# ---- sysbench.rand ------------------------------------------------------------------------

write rand.lua <<'LUA'
local r = sysbench.rand
local function int(x) return type(x) == "number" and x == math.floor(x) end
local function check(name, f, a, b, n)
  for _ = 1, n or 2000 do
    local v = f(a, b)
    if not int(v) or v < a or v > b then
      print(name .. " FAILED: " .. tostring(v)) return
    end
  end
  print(name .. " ok")
end
function event() end
sysbench.cmdline.commands = { rand = { function()
  for _, name in ipairs({"uniform", "gaussian", "special", "pareto", "zipfian", "default"}) do
    check(name .. "(1,100)", r[name], 1, 100)
    check(name .. "(2^40,2^40+1000)", r[name], 2^40, 2^40 + 1000)
    check(name .. "(0,2^53)", r[name], 0, 2^53)
    print(name .. "(7,7) = " .. r[name](7, 7))
  end
  check("uniform(0,4294967295)", r.uniform, 0, 4294967295)
  local big = 0
  for _ = 1, 100 do if r.uniform(0, 2^40) > 2^32 then big = big + 1 end end
  print("uniform(0,2^40) above 2^32: " .. (big > 90 and "most" or big))
  local u = r.uniform_uint64()
  print("uniform_uint64 " .. tostring(ffi.istype("uint64_t", u)))
  local lo, hi = 1, 0
  for _ = 1, 10000 do local d = r.uniform_double(); lo = math.min(lo, d); hi = math.max(hi, d) end
  print("uniform_double in [0,1): " .. tostring(lo >= 0 and hi < 1 and hi > 0.99 and lo < 0.01))
  local s = r.string("ab-###-@@@-.")
  print("string " .. tostring(s:match("^ab%-%d%d%d%-%l%l%l%-%.$") ~= nil) .. " " .. #s)
  local vmin, vmax, bad = 100, 0, 0
  for _ = 1, 2000 do
    local v = r.varstring(3, 8)
    vmin, vmax = math.min(vmin, #v), math.max(vmax, #v)
    if v:find("[^0-z]") then bad = bad + 1 end
  end
  print("varstring lengths " .. vmin .. ".." .. vmax .. ", outside '0'..'z': " .. bad)
  -- distribution shapes, with wide margins
  local function share(f, a, b, lo, hi)
    local n = 0
    for _ = 1, 20000 do local v = f(a, b); if v >= lo and v <= hi then n = n + 1 end end
    return n / 20000
  end
  print("special in the middle 2%: " .. (share(r.special, 1, 1000, 490, 510) > 0.6 and "most" or "few"))
  print("pareto in the lowest 20%: " .. (share(r.pareto, 1, 1000, 1, 200) > 0.7 and "most" or "few"))
  print("gaussian within +-17%: " .. (share(r.gaussian, 1, 1000, 330, 670) > 0.9 and "most" or "few"))
  print("default in the middle 2%: " .. (share(r.default, 1, 1000, 490, 510) > 0.6 and "most" or "few"))
  local counts = {}
  for _ = 1, 20000 do local v = r.zipfian(1, 50); counts[v] = (counts[v] or 0) + 1 end
  print("zipfian rank 1 most frequent: " .. tostring(counts[1] > counts[2] and counts[2] > counts[10]))
end } }
LUA
sb rand.lua rand
is "$rc" 0 "the rand checks run"
for name in uniform gaussian special pareto zipfian default; do
  like "$out" "^$name\(1,100\) ok" "sysbench.rand.$name(1,100) gives integers in [1,100]"
  like "$out" "$name\(2\^40,2\^40\+1000\) ok" "sysbench.rand.$name works past 2^32 (64-bit ranges)"
  like "$out" "$name\(0,2\^53\) ok" "sysbench.rand.$name(0, 2^53) stays in range"
  like "$out" "$name\(7,7\) = 7" "sysbench.rand.$name(7,7) is 7"
done
like "$out" "uniform\(0,4294967295\) ok" "uniform over the whole 32-bit range"
like "$out" "uniform\(0,2\^40\) above 2\^32: most" "a 2^40 range really reaches past 2^32"
like "$out" "uniform_uint64 true" "sysbench.rand.uniform_uint64() is a uint64_t cdata"
like "$out" "uniform_double in \[0,1\): true" "sysbench.rand.uniform_double() covers [0,1)"
like "$out" "string true 12" "sysbench.rand.string: '#' -> digit, '@' -> letter, others kept"
like "$out" "varstring lengths 3..8, outside '0'..'z': 0" \
     "sysbench.rand.varstring(3,8): 3 to 8 characters from '0'..'z'"
like "$out" "special in the middle 2%: most" "special (1.0.20's default) puts ~75% in the middle 1%"
like "$out" "pareto in the lowest 20%: most" "pareto with h=0.2 puts ~80% in the lowest 20%"
like "$out" "gaussian within \+-17%: most" "gaussian concentrates around the middle"
like "$out" "default in the middle 2%: most" "rand.default follows --rand-type=special by default"
like "$out" "zipfian rank 1 most frequent: true" "zipfian makes the first value the most frequent"
sb rand.lua rand --rand-type=uniform
like "$out" "default in the middle 2%: few" "--rand-type=uniform changes rand.default"

write unique.lua <<'LUA'
local mine = {}
function thread_init()
  for i = 1, 5000 do mine[i] = sysbench.rand.unique() end
end
function event() end
function thread_done()
  local lines = {}
  for i, v in ipairs(mine) do lines[i] = "u " .. string.format("%.0f", v) end
  print(table.concat(lines, "\n"))
end
LUA
sb unique.lua run --threads=4 --events=1 --time=0
values=$(printf '%s\n' "$out" | grep '^u ')
is "$(count "$values" '^u ')" 20000 "4 threads drew 5000 sysbench.rand.unique() values each"
is "$(printf '%s\n' "$values" | sort | uniq -d | wc -l | tr -d ' ')" 0 \
   "sysbench.rand.unique() never repeats, across threads"
is "$(printf '%s\n' "$values" | awk '$2 < 0 || $2 > 4294967295' | wc -l | tr -d ' ')" 0 \
   "unique() values are 32-bit unsigned"

# ---- sysbench.histogram -------------------------------------------------------------------

write hist.lua <<'LUA'
local h = sysbench.histogram.new(10, 1, 1000)
for i = 1, 100 do h:update(i) end
h:update(5000)
h:update(0.5)
h:print()
print(pcall(sysbench.histogram.new, 1, 1, 10))
LUA
sb hist.lua
is "$(printf '%s\n' "$out" | sed -n '3,11p')" "       value  ------------- distribution ------------- count
       1.000 |**                                       2
       2.154 |**                                       2
       4.642 |***                                      3
      10.000 |*********                                8
      21.544 |******************                       17
      46.416 |**************************************** 37
     100.000 |***********************************      32
    1000.000 |*                                        1" \
   "sysbench.histogram.new(10, 1, 1000): update() and print() in 1.0.20's layout and buckets"
like "$out" "false	.*expected size >= 2 and 0 < min < max" "a histogram with bad bounds is a Lua error"

done_testing
