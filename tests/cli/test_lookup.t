#!/usr/bin/env bash
# test_lookup.t: how the test name on the command line finds its test, as in 1.0.20: a
# compiled-in name, a file path (with or without .lua), a module name on package.path
# (./, ./src/lua/, LUA_PATH with ";;" for the defaults), a script on standard input, and
# "#!/usr/bin/env sysbench" scripts run directly.
. "$(dirname "$0")/../lib/tap.sh"

HEADER="sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)"

mkdir -p "$TEST_TMP/sub" "$TEST_TMP/mods" "$TEST_TMP/src/lua" "$TEST_TMP/elsewhere"
printf 'print("ran sub/s.lua, command " .. tostring(sysbench.cmdline.command))\nfunction event() end\n' \
  > "$TEST_TMP/sub/s.lua"
printf 'print("ran mods/mymod.lua")\nfunction event() end\n' > "$TEST_TMP/mods/mymod.lua"
printf 'print("ran src/lua/srcmod.lua")\nfunction event() end\n' > "$TEST_TMP/src/lua/srcmod.lua"
printf 'print("ran ./here.lua")\nfunction event() end\n' > "$TEST_TMP/here.lua"

sb sub/s.lua
is "$rc|$out" "0|$HEADER

ran sub/s.lua, command nil" "a path runs the script's body; without a command that is all (exit 0)"
sb sub/s.lua run --events=2 --time=0
like "$out" "ran sub/s.lua, command run" "with a command the body sees sysbench.cmdline.command"
like "$out" "total number of events: +2$" "... and run runs it"
sb sub/s
like "$out" "ran sub/s.lua" "a path without .lua is found on package.path's ./?.lua"
sb "$TEST_TMP/sub/s.lua"
like "$out" "ran sub/s.lua" "an absolute path"

sb here
like "$out" "ran ./here.lua" "a bare name is found in the current directory"
sb srcmod
like "$out" "ran src/lua/srcmod.lua" "a bare name is found in ./src/lua/ (1.0's package.path)"

sb mymod
is "$rc|$out" "1|$HEADER

FATAL: Cannot find benchmark 'mymod': no such built-in test, file or module" \
   "an unknown name: 'Cannot find benchmark ...', exit 1"
rc_out=$(cd "$TEST_TMP/elsewhere" && LUA_PATH="$TEST_TMP/mods/?.lua" "$SB" mymod 2>&1)
like "$rc_out" "ran mods/mymod.lua" "LUA_PATH is searched"
rc_out=$(cd "$TEST_TMP" && LUA_PATH="$TEST_TMP/mods/?.lua;;" "$SB" srcmod 2>&1)
like "$rc_out" "ran src/lua/srcmod.lua" "';;' in LUA_PATH stands for the default path"
rc_out=$(cd "$TEST_TMP" && LUA_PATH="$TEST_TMP/mods/?.lua" "$SB" srcmod 2>&1)
like "$rc_out" "Cannot find benchmark 'srcmod'" "LUA_PATH without ';;' replaces the default path"

write req.lua <<'LUA'
local m = require("helper")
print("helper says " .. m.word)
function event() end
LUA
printf 'return { word = "hi" }\n' > "$TEST_TMP/mods/helper.lua"
rc_out=$(cd "$TEST_TMP" && LUA_PATH="$TEST_TMP/mods/?.lua;;" "$SB" req.lua 2>&1)
like "$rc_out" "helper says hi" "require() in a script uses the same package.path"

# Standard input: no test name, or "-".
write stdin.lua <<'LUA'
print("stdin script, command " .. tostring(sysbench.cmdline.command))
function event() end
LUA
sb < "$TEST_TMP/stdin.lua"
is "$rc|$out" "0|$HEADER

stdin script, command nil" "no test name: the script is read from standard input and executed"
sb --threads=2 < "$TEST_TMP/stdin.lua"
like "$out" "stdin script, command nil" "... also with only options on the line"
sb - < "$TEST_TMP/stdin.lua"
like "$out" "stdin script, command nil" "'-' names standard input"
sb - run --events=3 --time=0 < "$TEST_TMP/stdin.lua"
like "$out" "stdin script, command run" "'sysbench - run' passes the command to the script"
like "$out" "total number of events: +3$" \
     "'sysbench - run' runs the script (1.0.20 only executes its body)"
printf 'error("bad stdin")\n' | write stdin_err.lua
sb < "$TEST_TMP/stdin_err.lua"
is "$rc|$(printf '%s\n' "$out" | tail -1)" "1|FATAL: stdin:1: bad stdin" \
   "an error in a script from standard input reads stdin:LINE, as in 1.0.20"

# "#!/usr/bin/env sysbench" scripts, with our binary first on PATH under the name sysbench.
mkdir -p "$TEST_TMP/bin"
ln -s "$SB" "$TEST_TMP/bin/sysbench"
write shebang.lua <<'LUA'
#!/usr/bin/env sysbench
print("shebang script " .. sysbench.cmdline.script_path)
function event() end
LUA
chmod +x "$TEST_TMP/shebang.lua"
rc_out=$(cd "$TEST_TMP" && PATH="$TEST_TMP/bin:$PATH" ./shebang.lua run --events=4 --time=0 2>&1)
like "$rc_out" "shebang script ./shebang.lua" "a '#!/usr/bin/env sysbench' script runs directly"
like "$rc_out" "total number of events: +4$" "... with its command and options"
printf '#!/usr/bin/env sysbench\n\nerror("third line")\n' | write shebang_err.lua
chmod +x "$TEST_TMP/shebang_err.lua"
rc_out=$(cd "$TEST_TMP" && PATH="$TEST_TMP/bin:$PATH" ./shebang_err.lua 2>&1; echo "rc=$?")
like "$rc_out" "FATAL: ./shebang_err.lua:3: third line" \
     "the '#!' line is skipped without shifting line numbers"
like "$rc_out" "rc=1" "... and the error exits 1"

sb cpu help
like "$out" "cpu options:" "a compiled-in name wins over files"
printf 'print("a file named cpu")\n' > "$TEST_TMP/cpu"
sb cpu help
unlike "$out" "a file named cpu" "... even when a file of that name exists"

done_testing
