#!/usr/bin/env bash
# options.t: the command-line grammar of sysbench 1.0.20: options anywhere, '-' and '_' alike,
# booleans, sizes, lists, a one-line error naming the option and what it accepts for every bad
# value of a general, random-number or log option, dispatch errors, deprecated aliases, --help,
# --version and per-test help. Expected texts were taken from Debian's sysbench 1.0.20; where
# ours differs on purpose the test name says so.
. "$(dirname "$0")/../lib/tap.sh"

opt_dump_script opts.lua 'sysbench.cmdline.options = {
  flag = {"a flag", false},
  lst = {"a list", {"a", "b"}},
  num = {"a number", 5},
  size = {"a size", "1K", sysbench.cmdline.ARG_SIZE},
  int = {"an integer", 3, sysbench.cmdline.ARG_INT},
  my_opt = {"a string", "x"},
}'

# ---- grammar ----------------------------------------------------------------------------

sb --threads=2 opts.lua --events=7 dump --time=3
is "$rc" 0 "options may come before, between and after the test name and command"
is "$(optval threads),$(optval events),$(optval time)" "2,7,3" \
   "options anywhere on the line all take effect"

sb opts.lua dump --report_interval=2 --rand-spec-iter=4 --my-opt=dash
is "$(optval report_interval),$(optval rand_spec_iter),$(optval my_opt)" "2,4,dash" \
   "'-' and '_' are interchangeable in option names (core and script options)"

for spelling in "--flag" "--flag=on" "--flag=true" "--flag=1"; do
  sb opts.lua dump $spelling
  is "$(optval flag)" "true" "boolean $spelling is true"
done
for spelling in "--flag=off" "--flag=false" "--flag=0"; do
  sb opts.lua dump --flag $spelling
  is "$(optval flag)" "false" "boolean $spelling is false (the last one given wins)"
done

sb opts.lua dump --size=3G
is "$(optval size)" "3221225472" "size 3G is 3 * 1024^3"
sb opts.lua dump --size=1T
is "$(optval size)" "1099511627776" "size 1T is 1024^4"
sb opts.lua dump --size=4k
is "$(optval size)" "4096" "size suffixes are case-insensitive (4k = 4096)"
sb opts.lua dump --size=512
is "$(optval size)" "512" "a size without suffix is bytes"
sb opts.lua dump --thread-stack-size=2M
is "$(optval thread_stack_size)" "2097152" "--thread-stack-size=2M is 2097152 bytes"
sb opts.lua dump
is "$(optval size),$(optval thread_stack_size)" "1024,65536" \
   "size defaults: the script's 1K and --thread-stack-size's 64K"

sb opts.lua dump --lst=x,y,z
is "$(optval lst)" "x,y,z" "a list option takes comma-separated values"
sb opts.lua dump --lst=
is "$(optval lst)" "" "an empty list value gives an empty list"
sb opts.lua dump --report-checkpoints=10,20
is "$(optval report_checkpoints)" "10,20" "--report-checkpoints is a list"

sb opts.lua dump --num=7.5 --int=-4
is "$(optval num),$(optval int)" "7.5,-4" "number and integer options take their values"
sb opts.lua dump --num
is "$(optval num)" "0" "a bare numeric option is 0, as in 1.0.20"

# ---- one line per bad value, exit 1 -------------------------------------------------------

# bad ARG LINE [HINT]: the whole output of `sysbench cpu run ARG` is the error LINE (1.0.20's
# own where it has one; tests/compat checks that) and, where given, one "HINT: " line; exit 1
bad() {
  sb cpu run --events=1 $1
  local all want
  all=$(printf '%s\n%s' "$out" "$err" | sed '/^$/d; /^sysbench 1/d')
  want=$2
  [ $# -gt 2 ] && want=$(printf '%s\n%s' "$2" "$3")
  is "$rc:$all" "1:$want" "bad value $1: one error line (and a hint), exit 1"
}
bad --threads=x "Invalid value for the 'threads' option: 'x'" "HINT: --threads expects an integer"
bad --threads=0 "FATAL: Invalid value for --threads: 0." "HINT: --threads expects 1 to 100000, or a list such as 8,16,32 (one run each)"
bad --events=abc "Invalid value for the 'events' option: 'abc'" "HINT: --events expects an integer"
bad --events=-1 "FATAL: Invalid value for --events: -1 (expected 0 for no limit, or a positive count)"
bad --time=abc "Invalid value for the 'time' option: 'abc'" "HINT: --time expects a number"
bad --time=-1 "FATAL: Invalid value for --time: -1 (expected 0 for no limit, or a number of seconds up to 1e9)"
bad --warmup-time=x "Invalid value for the 'warmup_time' option: 'x'" "HINT: --warmup-time expects a number"
bad --warmup-time=-2 "FATAL: Invalid value for --warmup-time: -2 (expected a number of seconds, 0 to 1e9)"
bad --forced-shutdown=abc "FATAL: Invalid value for --forced-shutdown: 'abc'" "HINT: --forced-shutdown expects 'off', or a number of seconds or a percentage of --time (such as 5%) up to 1e9 seconds"
bad --thread-stack-size=abc "FATAL: Invalid value for thread-stack-size: abc." "HINT: --thread-stack-size expects 16K to 1G"
bad --thread-stack-size=1K "FATAL: Invalid value for thread-stack-size: 1024." "HINT: --thread-stack-size expects 16K to 1G"
bad --thread-init-timeout=x "Invalid value for the 'thread_init_timeout' option: 'x'" "HINT: --thread-init-timeout expects a number"
bad --thread-init-timeout=0 "FATAL: Invalid value for --thread-init-timeout: 0 (expected a number of seconds from 0.001 to 1e9)"
bad --rate=abc "Invalid value for the 'rate' option: 'abc'" "HINT: --rate expects a number"
bad --rate=-5 "FATAL: Invalid value for --rate: -5 (expected 0 for unlimited, or 1e-6 to 1e9 events per second)"
bad --report-interval=abc "Invalid value for the 'report_interval' option: 'abc'" "HINT: --report-interval expects a number"
bad --report-interval=-1 "FATAL: Invalid value for --report-interval: -1 (expected 0 to disable, or a number of seconds from 0.001 to 1e9)"
bad --report-checkpoints=a,b "FATAL: Invalid value for --report-checkpoints: 'a'" "HINT: --report-checkpoints expects a list of numbers of seconds from 0 to 1e9, e.g. 10,20,30"
bad --debug=maybe "invalid option: --debug=maybe" "HINT: --debug is on or off: give on|off, true|false or 1|0"
bad --validate=maybe "invalid option: --validate=maybe" "HINT: --validate is on or off: give on|off, true|false or 1|0"
bad --help=maybe "invalid option: --help=maybe" "HINT: --help is on or off: give on|off, true|false or 1|0"
bad --version=maybe "invalid option: --version=maybe" "HINT: --version is on or off: give on|off, true|false or 1|0"
bad --tx-rate=abc "Invalid value for the 'tx_rate' option: 'abc'" "HINT: --tx-rate expects an integer"
bad --max-requests=abc "Invalid value for the 'max_requests' option: 'abc'" "HINT: --max-requests expects an integer"
bad --max-time=abc "Invalid value for the 'max_time' option: 'abc'" "HINT: --max-time expects an integer"
bad --num-threads=abc "Invalid value for the 'num_threads' option: 'abc'" "HINT: --num-threads expects an integer"
bad --rand-type=foo "FATAL: Invalid random numbers distribution: foo." "HINT: --rand-type expects uniform, gaussian, special, pareto or zipfian"
bad --rand-spec-iter=abc "Invalid value for the 'rand_spec_iter' option: 'abc'" "HINT: --rand-spec-iter expects an integer"
bad --rand-spec-iter=0 "FATAL: Invalid value for --rand-spec-iter: 0 (expected 1 to 1000)"
bad --rand-spec-pct=abc "Invalid value for the 'rand_spec_pct' option: 'abc'" "HINT: --rand-spec-pct expects a number"
bad --rand-spec-pct=200 "FATAL: Invalid value for --rand-spec-pct: 200 (expected a percentage, 0 to 100)"
bad --rand-spec-res=abc "Invalid value for the 'rand_spec_res' option: 'abc'" "HINT: --rand-spec-res expects a number"
bad --rand-spec-res=200 "FATAL: Invalid value for --rand-spec-res: 200 (expected a percentage, 0 to 100)"
bad --rand-seed=abc "Invalid value for the 'rand_seed' option: 'abc'" "HINT: --rand-seed expects an integer"
bad --rand-pareto-h=abc "Invalid value for the 'rand_pareto_h' option: 'abc'" "HINT: --rand-pareto-h expects a number"
bad --rand-pareto-h=2 "FATAL: Invalid value for --rand-pareto-h: 2 (expected a number between 0 and 1)"
bad --rand-zipfian-exp=abc "Invalid value for the 'rand_zipfian_exp' option: 'abc'" "HINT: --rand-zipfian-exp expects a number"
bad --rand-zipfian-exp=-1 "FATAL: Invalid value for --rand-zipfian-exp: -1 (expected 0 or more)"
bad --verbosity=abc "Invalid value for the 'verbosity' option: 'abc'" "HINT: --verbosity expects an integer"
bad --verbosity=9 "Invalid value for verbosity: 9" "HINT: --verbosity expects 0 to 5"
bad --percentile=abc "Invalid value for the 'percentile' option: 'abc'" "HINT: --percentile expects a number"
bad --percentile=101 "FATAL: Invalid value for --percentile: 101" "HINT: --percentile expects 1 to 100, or 0 to disable; a list such as 50,95,99.9 for several"
bad --histogram=maybe "invalid option: --histogram=maybe" "HINT: --histogram is on or off: give on|off, true|false or 1|0"
bad "--histogram --percentile=0" "FATAL: --histogram cannot be used with --percentile=0"

# ---- huge, tiny and non-finite durations: one line naming the option and the range --------
# Where 1.0.20 refuses the text too (it read --time, --rate and --report-interval as a C int,
# --forced-shutdown and --report-checkpoints with strtol) its line comes first, then a HINT
# with the range; else our one line. The same through a config file, the HINT naming the line.
time_range="0 for no limit, or a number of seconds up to 1e9"
fs_range="'off', or a number of seconds or a percentage of --time (such as 5%) up to 1e9 seconds"
cp_range="a list of numbers of seconds from 0 to 1e9, e.g. 10,20,30"
ri_range="0 to disable, or a number of seconds from 0.001 to 1e9"
rate_range="0 for unlimited, or 1e-6 to 1e9 events per second"
durations=(
  "time=1e11|Invalid value for the 'time' option: '1e11'|HINT: --time expects $time_range"
  "forced-shutdown=1e12|FATAL: Invalid value for --forced-shutdown: '1e12'|HINT: --forced-shutdown expects $fs_range"
  "warmup-time=1e12|FATAL: Invalid value for --warmup-time: 1e12 (expected a number of seconds, 0 to 1e9)|"
  "report-checkpoints=1e12|FATAL: Invalid value for --report-checkpoints: '1e12'|HINT: --report-checkpoints expects $cp_range"
  "report-interval=1e12|Invalid value for the 'report_interval' option: '1e12'|HINT: --report-interval expects $ri_range"
  "rate=1e-20|Invalid value for the 'rate' option: '1e-20'|HINT: --rate expects $rate_range"
  "thread-init-timeout=1e12|FATAL: Invalid value for --thread-init-timeout: 1e12 (expected a number of seconds from 0.001 to 1e9)|"
  "time=-1|FATAL: Invalid value for --time: -1 (expected $time_range)|"
  "time=nan|Invalid value for the 'time' option: 'nan'|HINT: --time expects $time_range"
  "time=inf|Invalid value for the 'time' option: 'inf'|HINT: --time expects $time_range"
  "time=1e400|Invalid value for the 'time' option: '1e400'|HINT: --time expects $time_range"
  "rate=1e-400|Invalid value for the 'rate' option: '1e-400'|HINT: --rate expects $rate_range"
  "report-interval=1e-9|Invalid value for the 'report_interval' option: '1e-9'|HINT: --report-interval expects $ri_range"
  "report-interval=2000000000|FATAL: Invalid value for --report-interval: 2000000000 (expected $ri_range)|"
  "forced-shutdown=99999999999|FATAL: Invalid value for --forced-shutdown: 99999999999 (expected $fs_range)|"
  "report-checkpoints=2000000000|FATAL: Invalid value for --report-checkpoints: 2000000000 (expected $cp_range)|"
)
for d in "${durations[@]}"; do
  IFS='|' read -r arg line hint <<<"$d"
  if [ -n "$hint" ]; then bad "--$arg" "$line" "$hint"; else bad "--$arg" "$line"; fi
  printf '%s\n' "$arg" | write duration.cfg
  sb cpu run --events=1 --config-file=duration.cfg
  want=$line
  [ -n "$hint" ] && want=$(printf '%s\n%s' "$line" "$hint")
  # a value refused while the file is read names the file and line; range checks come later
  case $line in "Invalid value for the "*) want="$want (config file 'duration.cfg' line 1)" ;; esac
  is "$rc:$(printf '%s\n%s' "$out" "$err" | sed '/^$/d; /^sysbench 1/d')" "1:$want" \
     "$arg in a config file: the same line(s), exit 1"
done
bad "--threads=9223372036854775807,1" "FATAL: Invalid value for --threads: 9223372036854775807." \
    "HINT: --threads expects 1 to 100000, or a list such as 8,16,32 (one run each)"
sb cpu run --events=1 --time=1e9 --forced-shutdown=1000%
is "$rc:$out" "1:FATAL: Invalid value for --forced-shutdown: 1000% (expected $fs_range)" \
   "a percentage of --time past 1e9 seconds is refused (it overflowed the deadline)"
sb opts.lua dump --time=1e9 --rate=1e-6 --report-interval=0.001 --forced-shutdown=100% \
   --thread-init-timeout=0.001 --warmup-time=1e9 --report-checkpoints=0,1e9
is "$rc:$err" "0:" "the edges of the ranges are accepted"

sb opts.lua dump --int=5.5
is "$rc:$err" "1:Invalid value for the 'int' option: '5.5'
HINT: --int expects an integer" \
   "a script's integer option rejects 5.5 (1.0.20's line, then the hint)"
sb opts.lua dump --size=5X
is "$rc:$err" "1:Invalid value for the 'size' option: '5X'
HINT: --size expects a size: a whole number with an optional K, M, G or T suffix" \
   "a bad size suffix is an error (1.0.20 silently reads 0)"

# ---- dispatch errors (stderr, exit 1; the header line is on stdout) ---------------------

sb cpu run --foo=1
is "$rc|$err" "1|invalid option: --foo=1" "an unknown option: 'invalid option: --foo=1', exit 1"
is "$out" "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)" \
   "... after the header line, as in 1.0.20"
sb opts.lua run --nosuch
is "$rc|$err" "1|invalid option: --nosuch" "a script declaring options rejects other names"
sb cpu run extra
is "$rc|$out|$err" "1||Unrecognized command line argument: extra" \
   "a third word: 'Unrecognized command line argument: extra' before the header"
sb cpu frobnicate
is "$rc|$err" "1|Unknown command: frobnicate" "an unknown command: 'Unknown command: frobnicate'"
sb opts.lua frobnicate
is "$rc|$err" "1|Unknown command: frobnicate" "... for a Lua test too"
sb cpu
is "$rc|$err" "1|The 'cpu' test requires a command argument. See 'sysbench cpu help'" \
   "a compiled-in test without a command"
sb cpu prepare
is "$rc|$err" "1|'cpu' test does not implement the 'prepare' command." \
   "cpu has no prepare command"
sb cpu cleanup
is "$rc|$err" "1|'cpu' test does not implement the 'cleanup' command." \
   "cpu has no cleanup command"
printf 'function event() end\n' | write plain.lua
sb plain.lua prepare
is "$rc|$err" "1|'plain.lua' test does not implement the 'prepare' command." \
   "a script without prepare() or a prepare command"
sb plain.lua help
is "$rc|$err" "1|'plain.lua' test does not implement the 'help' command." \
   "a script without options or help() has no help command"

# ---- deprecated aliases -----------------------------------------------------------------

sb opts.lua dump --num-threads=2 --max-requests=10 --max-time=3 --tx-rate=100
like "$out" "^WARNING: --num-threads is deprecated, use --threads instead" \
     "--num-threads warns: 'WARNING: --num-threads is deprecated, use --threads instead'"
like "$out" "WARNING: --max-requests is deprecated, use --events instead" "--max-requests warns"
like "$out" "WARNING: --max-time is deprecated, use --time instead" "--max-time warns"
like "$out" "WARNING: --tx-rate is deprecated, use --rate instead" "--tx-rate warns"
is "$(optval threads),$(optval events),$(optval time),$(optval rate)" "2,10,3,100" \
   "deprecated aliases set the new options (sysbench.opt.threads is 2, as in 1.0.20)"
sb opts.lua dump --num-threads=1 --events=4
is "$(count "$out" WARNING),$(optval events)" "0,4" "an alias left at its default does not warn"

sb --test=cpu --events=5 --time=0 run
is "$err" "WARNING: the --test option is deprecated. You can pass a script name or path on the command line without any options." \
   "--test=NAME warns on stderr"
like "$out" "total number of events: +5$" "... and runs the named test"

sb opts.lua dump --debug
is "$(optval debug),$(optval verbosity)" "true,5" "--debug forces --verbosity to 5"

# ---- --help, --version ------------------------------------------------------------------

sb --version
is "$rc|$(printf '%s\n' "$out" | head -n 1)|$err" "0|sysbench 1.0.20|" \
   "--version prints 'sysbench 1.0.20' first (tests/cli/version.t: the line after it)"

sb --help
help=$out
is "$rc" 0 "--help exits 0"
like "$help" "^Usage:" "--help starts with Usage:"

# section NAME: the lines of --help from NAME up to the next blank line, spaces squeezed
section() {
  printf '%s\n' "$help" | awk -v s="$1" '$0 == s {f = 1} f && /^$/ {exit} f' | tr -s ' '
}
# Our additions are new lines (and zipfian in --rand-type); everything else is 1.0.20's.
additions='--warmup-time=|--thread-init-timeout=|--show-script=|--rand-zipfian-exp=|--compat='

is "$(section "General options:" | grep -vE -- "$additions")" "General options:
 --threads=N number of threads to use [1]
 --events=N limit for total number of events [0]
 --time=N limit for total execution time in seconds [10]
 --forced-shutdown=STRING number of seconds to wait after the --time limit before forcing shutdown, or 'off' to disable [off]
 --thread-stack-size=SIZE size of stack per thread [64K]
 --rate=N average transactions rate. 0 for unlimited rate [0]
 --report-interval=N periodically report intermediate statistics with a specified interval in seconds. 0 disables intermediate reports [0]
 --report-checkpoints=[LIST,...] dump full statistics and reset all counters at specified points in time. The argument is a list of comma-separated values representing the amount of time in seconds elapsed from start of test when report checkpoint(s) must be performed. Report checkpoints are off by default. []
 --debug[=on|off] print more debugging info [off]
 --validate[=on|off] perform validation checks where possible [off]
 --help[=on|off] print help and exit [off]
 --version[=on|off] print version and exit [off]
 --config-file=FILENAME File containing command line options
 --tx-rate=N deprecated alias for --rate [0]
 --max-requests=N deprecated alias for --events [0]
 --max-time=N deprecated alias for --time [0]
 --num-threads=N deprecated alias for --threads [1]" \
   "--help 'General options:' lists 1.0.20's options, names, descriptions and defaults"
like "$(section "General options:")" "--warmup-time=N execute events for this many seconds with statistics disabled before the actual benchmark run with statistics enabled \[0\]" \
     "--help adds --warmup-time (master's)"
like "$(section "General options:")" "--thread-init-timeout=N wait time in seconds for worker threads to initialize \[30\]" \
     "--help adds --thread-init-timeout (master's)"
like "$(section "General options:")" "--show-script=STRING print a Lua script compiled into sysbench \(a bundled workload such as oltp_common, or a module such as sysbench\.oltp_load\) and exit$" \
     "--help adds --show-script (ours)"

is "$(section "Pseudo-Random Numbers Generator options:" | grep -vE -- "$additions" | sed 's/,zipfian}/}/')" \
   "Pseudo-Random Numbers Generator options:
 --rand-type=STRING random numbers distribution {uniform,gaussian,special,pareto} [special]
 --rand-spec-iter=N number of iterations used for numbers generation [12]
 --rand-spec-pct=N percentage of values to be treated as 'special' (for special distribution) [1]
 --rand-spec-res=N percentage of 'special' values to use (for special distribution) [75]
 --rand-seed=N seed for random number generator. When 0, the current time is used as a RNG seed. [0]
 --rand-pareto-h=N parameter h for pareto distribution [0.2]" \
   "--help random-number section is 1.0.20's (plus zipfian)"
like "$(section "Pseudo-Random Numbers Generator options:")" \
     "--rand-zipfian-exp=N shape parameter \(exponent, theta\) for the Zipfian distribution \[0.8\]" \
     "--help adds --rand-zipfian-exp"

is "$(printf '%s\n' "$help" | awk '/^Log options:/ {f = 1} /^General database options:/ {exit} f' | tr -s ' ')" \
   "Log options:
 --verbosity=N verbosity level {5 - debug, 0 - only critical messages} [3]

 --percentile=N percentile to calculate in latency statistics (1-100). Use the special value of 0 to disable percentile calculations [95]
 --histogram[=on|off] print latency histogram in report [off]" \
   "--help 'Log options:' is 1.0.20's, blank line included"

# Within a section 1.0.20's descriptions start in one column, as 1.0's help printer aligns
# them, and ours in one of their own after them.
cols=$(printf '%s\n' "$help" | awk '/^General options:/ {f = 1; next} f && /^$/ {exit}
  f { match($0, /^  --[^ ]+ +/); print RLENGTH }' | uniq | wc -l)
is "$cols" 2 "--help aligns the descriptions of 1.0.20's general options in one column, ours in another after them"
like "$help" "Compiled-in tests:
  fileio - File I/O test
  cpu - CPU performance test
  memory - Memory functions speed test
  threads - Threads subsystem performance test
  mutex - Mutex performance test
" "--help lists the compiled-in tests, in 1.0.20's order"
like "$help" "See 'sysbench <testname> help' for a list of options for each test.$" \
     "--help ends with the per-test help hint"

if have_ref; then
  ref --help
  ref_help=$out
  want=$(printf '%s\n' "$out" | awk '/^General options:/,/^$/' | tr -s ' ')
  is "$(section "General options:" | grep -vE -- "$additions")" "$want" \
     "side by side: our General options equal the reference's, additions aside"
  # 1.0.20's lines keep 1.0.20's column, spaces and all, in every section: our options come
  # after them and do not widen it.
  block() {   # block TEXT HEADING: the section's lines, unsqueezed
    printf '%s\n' "$1" | awk -v s="$2" '$0 == s {f = 1} f && /^$/ {exit} f'
  }
  # "name column" per option line: where its description starts
  columns() { awk 'match($0, /^  --[^ =[]+/) { n = substr($0, 3, RLENGTH - 2)
                     match($0, /^  --[^ ]+ +/); print n, RLENGTH }'; }
  changed='--(rand-type|mysql-ssl|pgsql-host|pgsql-port)[=[]'   # our text differs, not the column
  for heading in "General options:" "Pseudo-Random Numbers Generator options:" "mysql options:" \
                 "pgsql options:" "General database options:"; do
    theirs=$(block "$ref_help" "$heading")
    is "$(block "$help" "$heading" | grep -Fx -f <(printf '%s\n' "$theirs" | grep -vE -- "$changed"))" \
       "$(printf '%s\n' "$theirs" | grep -vE -- "$changed")" \
       "--help '$heading': 1.0.20's lines as 1.0.20 aligns them"
    is "$(block "$help" "$heading" | columns | grep -Fx -f <(block "$ref_help" "$heading" | columns))" \
       "$(block "$ref_help" "$heading" | columns)" \
       "... every one of 1.0.20's options in 1.0.20's column"
  done
  sb --help --compat=1.0.20
  is "$out" "$ref_help" "--help --compat=1.0.20 is 1.0.20's, byte for byte"
else
  skip "reference sysbench not installed"
fi
like "$help" "
Beyond sysbench 1\.0\.20 .*:
  --threads=8,16,32 +a thread sweep
  --percentile=50,95,99\.9 +a latency line per percentile
.*
  sysbench compare A\.json B\.json +compare result files
  sysbench merge A\.json B\.json +add up the result files
  sysbench oltp_\* verify +check the tables
  sysbench oltp_\* prewarm +read the tables
  --compat=1\.0\.20 +print exactly what sysbench 1\.0\.20 prints" \
     "--help ends naming what 1.0.20 has no option for: lists, compare, merge, verify, prewarm"

# ---- per-test help ----------------------------------------------------------------------

sb cpu help
is "$rc|$out" "0|sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

cpu options:
  --cpu-max-prime=N upper limit for primes generator [10000]

cpu commands: run help" "sysbench cpu help: its options and commands"

write help.lua <<'LUA'
sysbench.cmdline.options = {
  zeta = {"last option", 1},
  alpha = {"first option", true},
  mid_dle = {"a list", {"a", "b"}},
  str = {"a string", "x"},
  nodef = {"no default"},
  sz = {"a size", "1M", sysbench.cmdline.ARG_SIZE},
  i = {"an int", 7, sysbench.cmdline.ARG_INT},
  fl = {"a float", 0.25},
}
function event() end
LUA
sb help.lua help
is "$rc|$out" "0|sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

help.lua options:
  --alpha[=on|off]     first option [on]
  --fl=N               a float [0.25]
  --i=N                an int [7]
  --mid_dle=[LIST,...] a list [a,b]
  --nodef=STRING       no default
  --str=STRING         a string [x]
  --sz=SIZE            a size [1M]
  --zeta=N             last option [1]

help.lua commands: run help" \
   "a script's help lists sysbench.cmdline.options sorted by name, typed by their defaults"
sb oltp_read_write help
like "$out" "^oltp_read_write commands: prepare run cleanup help prewarm verify warmup$" \
     "a workload's help names its commands, its own among them"

write ownhelp.lua <<'LUA'
sysbench.cmdline.options = { a = {"an option", 1} }
function help() print("my own help") end
function event() end
LUA
sb ownhelp.lua help
like "$out" "my own help" "a script's help() function is the help command"

done_testing
