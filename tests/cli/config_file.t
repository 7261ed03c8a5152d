#!/usr/bin/env bash
# config_file.t: --config-file=FILE reads name=value lines as if they were on the command line,
# at the position of --config-file (later settings win). Comments, quotes and lists as in
# 1.0.20. Deliberate differences: script options set there are applied (1.0.20 resets them
# to their defaults), a missing file (or a directory) is an error, a bad value names file and
# line, and an unknown name or a line without '=' is a warning (one file often serves several
# tests).
. "$(dirname "$0")/../lib/tap.sh"

opt_dump_script opts.lua 'sysbench.cmdline.options = {
  lst = {"a list", {"a", "b"}},
  num = {"a number", 5},
  flag = {"a flag", false},
  str = {"a string", "x"},
}'

write main.cfg <<'CFG'
# a comment line
threads=2
events = 7
rand_type=uniform
report-checkpoints=1,2
forced-shutdown=5   # a trailing comment
    rand-seed=42
lst="p q",r
str='hello world'
num=3.5
flag=on
CFG

sb opts.lua dump --config-file=main.cfg
is "$rc" 0 "a config file is read"
is "$(optval threads)" 2 "name=value sets an option"
is "$(optval events)" 7 "spaces around '=' are allowed"
is "$(optval rand_type)" uniform "'_' spelling in a config file"
is "$(optval report_checkpoints)" "1,2" "a list value in a config file"
is "$(optval forced_shutdown)" 5 "a trailing '#' comment is not part of the value"
is "$(optval rand_seed)" 42 "leading blanks before the name are ignored"
is "$(optval lst)" "p q,r" "a quoted list item keeps its space"
is "$(optval str)" "hello world" "a single-quoted value keeps its space"
is "$(optval num),$(optval flag)" "3.5,true" \
   "script options are set from the config file (1.0.20 resets them to defaults)"

sb opts.lua dump --config-file=main.cfg --threads=3
is "$(optval threads)" 3 "a command-line option after --config-file wins"
sb opts.lua dump --threads=3 --config-file=main.cfg
is "$(optval threads)" 2 "the config file wins over an option given before --config-file"
sb opts.lua dump --num=9 --config-file=main.cfg
is "$(optval num)" 3.5 "... for script options too"
sb opts.lua dump --config-file=main.cfg --num=9
is "$(optval num)" 9 "a script option after --config-file wins"

printf 'threads=4\n' | write plain.cfg
sb cpu run --config-file=plain.cfg --events=1 --time=0
like "$out" "Number of threads: 4" "a config file works for compiled-in tests"

sb opts.lua dump --config-file=nosuch.cfg
is "$rc|$out|$err" "1||nosuch.cfg: No such file or directory
HINT: --config-file expects a readable file of name=value lines" \
   "a missing config file: 1.0.20's line, a hint, exit 1 (1.0.20 goes on without it)"
mkdir "$TEST_TMP/cfgdir"
sb cpu run --config-file=cfgdir --events=1 --time=0
is "$rc|$out|$err" "1||cfgdir: Is a directory
HINT: --config-file expects a readable file of name=value lines" \
   "a directory as config file is refused as a missing file is (it was silently ignored)"
printf 'config-file=cfgdir\n' | write todir.cfg
sb cpu run --config-file=todir.cfg --events=1 --time=0
is "$rc|$err" "1|cfgdir: Is a directory
HINT: --config-file expects a readable file of name=value lines" \
   "... also when a config file names it"
sb cpu run --config-file=<(printf 'threads=2\n') --events=1 --time=0
is "$rc" 0 "a pipe (process substitution) is a config file"
like "$out" "Number of threads: 2" "... and its settings apply"

printf '# first line\nthreads=abc\n' | write bad.cfg
sb cpu run --config-file=bad.cfg
is "$rc|$out|$err" \
   "1||Invalid value for the 'threads' option: 'abc'
HINT: --threads expects an integer (config file 'bad.cfg' line 2)" \
   "a bad value in a config file names the file and the line"

printf 'percentile=500\n' | write range.cfg
sb cpu run --config-file=range.cfg
is "$rc|$out" "1|FATAL: Invalid value for --percentile: 500
HINT: --percentile expects 1 to 100, or 0 to disable; a list such as 50,95,99.9 for several" \
   "an out-of-range value from a config file gets the option's usual line"

printf 'threads=2\nnot_an_option=5\n' | write unknown.cfg
sb cpu run --config-file=unknown.cfg --events=1 --time=0
is "$rc" 0 "an unknown name in a config file does not stop the run"
like "$out" "^WARNING: config file 'unknown\.cfg' line 2 sets 'not_an_option', which this test does not use; ignored$" \
     "... it is a warning naming it, the file and the line"
is "$(count "$out" "not_an_option")/$err" "1/" "... said once, on stdout alone"
like "$out" "Number of threads: 2" "... and the rest of the file applies"

printf 'threads\n' | write noeq.cfg
sb cpu run --config-file=noeq.cfg --events=1 --time=0
is "$rc|$err" "0|" "a line without '=' is ignored"
like "$out" "^sysbench 1\.0\.20 .*

WARNING: config file 'noeq\.cfg' line 1: expected name=value, got 'threads'; line ignored
Running the test with following options:" \
   "... with a warning on stdout, after the header as 1.0.20's warnings (it was on stderr alone)"

# Lines longer than any buffer are one line: the rest of a long comment is still comment.
pad() { head -c "$1" /dev/zero | tr '\0' c; }
{ printf 'verbosity=3 # '; pad 5000; printf '\nthreads=3\n'; } | write long.cfg
sb cpu run --config-file=long.cfg --events=1 --time=0
is "$rc|$err" "0|" "a 5,000-byte comment line is one line: no warning about its tail"
like "$out" "Number of threads: 3" "... and the line after it applies"
{ printf 'verbosity=3 # '; pad 4081; printf 'threads=5\n'; } | write split.cfg
sb cpu run --config-file=split.cfg --events=1 --time=0
like "$out" "Number of threads: 1$" \
     "'threads=5' at byte 4,095 of a comment stays comment (it was once read as a setting)"
{ printf 'threads=2 # '; pad 1048576; printf '\n'; } | write huge.cfg
sb cpu run --config-file=huge.cfg --events=1 --time=0
is "$rc|$(count "$err" .)" "0|0" "a 1 MB line prints no warning (it printed one per 4,095 bytes)"
like "$out" "Number of threads: 2" "... and its setting applies"
{ printf "str='"; pad 10000; printf "'\n"; } | write longvalue.cfg
sb opts.lua dump --config-file=longvalue.cfg
is "$rc" 0 "a 10,000-byte quoted value is read"
is "$(optval str | wc -c)" 10001 "... whole (10,000 bytes and the newline)"

printf 'str="unterminated\n' | write quote.cfg
sb opts.lua dump --config-file=quote.cfg
is "$rc|$err" "1|config file 'quote.cfg' line 1: cannot parse 'str' (expected name=value, with quotes closed)" \
   "an unclosed quote is an error naming file and line"

printf 'threads=3\n' | write inner.cfg
printf 'config-file=inner.cfg\nevents=2\n' | write outer.cfg
sb cpu run --config-file=outer.cfg --time=0
like "$out" "Number of threads: 3" "a config file may name another config file"
like "$out" "total number of events: +2$" "... and both apply"
printf 'config-file=self.cfg\n' | write self.cfg
sb cpu run --config-file=self.cfg --events=1
is "$rc|$err" "1|Cannot read the config file 'self.cfg': config files nest more than 8 deep (does one include itself?)" \
   "a config file including itself is an error, not a crash"

write legacy.lua <<'LUA'
function event() end
sysbench.cmdline.commands = { show = { function() print("my_setting=" .. tostring(my_setting)) end } }
LUA
printf 'my_setting=17\n' | write legacy.cfg
sb legacy.lua show --config-file=legacy.cfg
is "$rc|$(printf '%s\n' "$out" | grep my_setting)" "0|WARNING: Global option 'my_setting' will not be exported, because the type is unknown
HINT: config file 'legacy.cfg' line 1 sets 'my_setting', which this test does not declare (its help command lists those it does)
my_setting=nil" \
   "a config file's name no script declares is not exported, as in 1.0.20: its warning, once, then ours naming the file and line (it was exported)"
sb legacy.lua show --my_setting=17
is "$rc|$(printf '%s\n' "$out" | grep my_setting)" "0|my_setting=17" \
   "... while one on the command line is a global of a script declaring no options (1.0's legacy mode)"

done_testing
