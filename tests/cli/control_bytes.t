#!/usr/bin/env bash
# control_bytes.t: text the user gave (option names and values, test and command names, config
# file names and lines) is echoed in warnings and errors with its control bytes escaped
# (\x1b, \x0a ...), never raw: a value cannot recolour, retitle or clear the terminal, nor
# break a one-line message in two. Plain text and UTF-8 letters are shown unchanged.
. "$(dirname "$0")/../lib/tap.sh"

ESC=$'\e'

# raw_free NAME: no ESC, BEL, CR or C1 CSI byte anywhere in the last run's output
raw_free() {
  if printf '%s%s' "$out" "$err" | LC_ALL=C grep -q $'[\e\a\r\x9b]'; then
    _tap_result 0 "$1" "raw control bytes in: $(printf '%s%s' "$out" "$err" | od -c | head -5)"
  else
    _tap_result 1 "$1"
  fi
}

# ---- command line ---------------------------------------------------------------------------
sb cpu run --events=1 "--threads=${ESC}[31mred"
is "$rc|$err" "1|Invalid value for the 'threads' option: '\\x1b[31mred'
HINT: --threads expects an integer" "a bad value is shown with ESC as \\x1b"
raw_free "... and no raw control byte is printed"

sb cpu run --events=1 "--fo${ESC}[2Jo=1"
is "$rc|$err" "1|invalid option: --fo\\x1b[2Jo=1" "an unknown option's name is escaped"
raw_free "... never raw"

sb cpu run --events=1 $'--threads=1\n2'
is "$rc|$err" "1|Invalid value for the 'threads' option: '1\\x0a2'
HINT: --threads expects an integer" "a newline in a value is shown as \\x0a: the line stays one"

sb "${ESC}]0;owned"$'\a' run
is "$rc" 1 "an unknown test name with an OSC title sequence fails"
like "$out" "^FATAL: Cannot find benchmark '\\\\x1b\\]0;owned\\\\x07': " "... named escaped"
raw_free "... never raw"

sb cpu "ru${ESC}[Kn"
is "$rc|$err" "1|Unknown command: ru\\x1b[Kn" "an unknown command is escaped"
sb cpu run "ex"$'\r'"tra"
is "$rc|$err" "1|Unrecognized command line argument: ex\\x0dtra" "an extra argument is escaped"
sb cpu run --events=1 "--validate=${ESC}"
like "$err" "^invalid option: --validate=\\\\x1b$" "a boolean's bad value is escaped"
raw_free "... never raw"

sb cpu run --events=1 "--rand-type=${ESC}x"
is "$rc|$out" "1|FATAL: Invalid random numbers distribution: \\x1bx.
HINT: --rand-type expects uniform, gaussian, special, pareto or zipfian" \
   "a value checked against choices is escaped in 1.0.20's line"
sb cpu run --events=1 "--mysql-ssl=${ESC}[5m"
like "$out" "^FATAL: Invalid value for --mysql-ssl: \\\\x1b\\[5m " "a driver option's value is escaped"
raw_free "... never raw"
printf 'error("boom\\27[31m red")\n' | write raise.lua
sb raise.lua run
like "$out" "boom\\\\x1b\\[31m red" "a message through the logger (a Lua error) is escaped"
raw_free "... never raw"
sb cpu run --events=1 $'--threads=\xc2\x9b31m'
like "$err" "'\\\\xc2\\\\x9b31m'" "a C1 control (U+009B, CSI) is escaped too"
raw_free "... never raw"
sb cpu run --events=1 "--threads=caf"$'\xc3\xa9'
like "$err" "'café'" "UTF-8 letters are shown as they are"

# ---- config files ---------------------------------------------------------------------------
printf 'bad%s[31mline\nevents=1\n' "$ESC" | write noeq.cfg
sb cpu run --config-file=noeq.cfg --time=0
is "$rc|$err" "0|" "a config line without '=': a warning on stdout only"
like "$out" "^WARNING: config file 'noeq\.cfg' line 1: expected name=value, got 'bad\\\\x1b\[31mline'; line ignored$" \
   "... echoed escaped"
raw_free "... never raw"

printf 'threads=%s[2J\n' "$ESC" | write badvalue.cfg
sb cpu run --config-file=badvalue.cfg
is "$rc|$err" "1|Invalid value for the 'threads' option: '\\x1b[2J'
HINT: --threads expects an integer (config file 'badvalue.cfg' line 1)" \
   "a bad value from a config file is escaped"
raw_free "... never raw"

printf 'my%s[1mopt=1\nevents=1\n' "$ESC" | write unknown.cfg
sb cpu run --config-file=unknown.cfg --time=0
like "$out" "^WARNING: config file 'unknown\.cfg' line 1 sets 'my\\\\x1b\\[1mopt', which this test does not use; ignored$" \
     "an unknown name from a config file is escaped"
raw_free "... never raw"

sb cpu run "--config-file=no${ESC}[2Jfile"
is "$rc|$err" "1|no\\x1b[2Jfile: No such file or directory
HINT: --config-file expects a readable file of name=value lines" \
   "a config file's name is escaped"

opt_dump_script opts.lua 'sysbench.cmdline.options = { ["s'"$ESC"'"] = {"odd name", "x"} }'
printf 's%s="unclosed\n' "$ESC" | write quote.cfg
sb opts.lua dump --config-file=quote.cfg
is "$rc|$err" "1|config file 'quote.cfg' line 1: cannot parse 's\\x1b' (expected name=value, with quotes closed)" \
   "a name in an unparsable line is escaped"

done_testing
