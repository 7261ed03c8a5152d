#!/usr/bin/env bash
# options.t: the command line of sysbench 1.0.20, differentially: every general, random-number
# and log option of its --help with a good and a bad value, the deprecated aliases, the dispatch
# errors and --help / --version, run through both binaries and compared.
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/compat.sh"

# The help text: ours adds options (each listed in differences.txt) and so re-aligns columns.
same "--help" --allow help-additions -- --help
same "--version" -- --version
same "--version wins over a test and command" -- --version cpu run
same "--help after the test name" --allow help-additions -- cpu --help

# ---- dispatch -------------------------------------------------------------------------------
same "a compiled-in test without a command" -- cpu
same "an extra argument" -- cpu run extra
same "an unknown command" -- cpu foo
same "an unknown test" -- foo run
same "a command name as the test" -- run
same "prepare of a test without it" -- cpu prepare
same "cleanup of a test without it" -- cpu cleanup
same "cpu help" -- cpu help
same "an unknown option" -- cpu run --nosuch=1
same "an unknown bare option" -- cpu run --nosuch
same "--test=cpu without a command" -- --test=cpu
same "--test=cpu with an extra argument" -- --test=cpu run extra
same "--test=cpu run" -- --test=cpu --events=3 --cpu-max-prime=100 run

# ---- good values ----------------------------------------------------------------------------
quick=(cpu --events=2 --cpu-max-prime=50)
for good in --threads=2 --events=5 --time=0 --time=1 "--forced-shutdown=off" \
            --thread-stack-size=128K --thread-stack-size=1M --rate=0 --report-interval=0 \
            --report-checkpoints= --debug=off --debug=on --validate --validate=off \
            --verbosity=0 --verbosity=1 --verbosity=4 --percentile=0 --percentile=99 \
            --percentile=100 --histogram=off --rand-type=uniform --rand-type=gaussian \
            --rand-type=pareto --rand-type=special --rand-spec-iter=5 --rand-spec-pct=5 \
            --rand-spec-res=50 --rand-seed=1 --rand-seed=0 --rand-pareto-h=0.5 \
            --db-driver=mysql --db-ps-mode=disable --db-debug=on --mysql-host=h1,h2 \
            --mysql-port=1,2 --mysql-user=x --mysql-db=y --mysql-ignore-errors=all \
            --mysql-dry-run; do
  case $good in
    --debug=on) same "good value $good" --sort -- "${quick[@]}" "$good" run ;;
    *) same "good value $good" -- "${quick[@]}" "$good" run ;;
  esac
done
# --rate: every value 1.0.20 takes and can keep up with runs the same (its "Target transaction
# rate" line is an integer however large); above 1e9 we refuse what 1.0.20 accepts and then
# fails on ([rate-above-1e9]: tested on ours alone below).
for rate_events in 1:1 7:2 1000:20 250000:50 1000000:50 2147483648:0; do
  rate=${rate_events%:*} events=${rate_events#*:}
  if [ "$events" = 0 ]; then
    same "--rate=$rate: 1.0.20's line for a value out of its range" -- cpu --rate="$rate" \
         --events=1 --cpu-max-prime=10 run
  else
    same "--rate=$rate runs the same" -- cpu --rate="$rate" --events="$events" \
         --cpu-max-prime=10 run
  fi
done
same "--tx-rate=1000000 runs the same" -- cpu --tx-rate=1000000 --events=50 --cpu-max-prime=10 run
same "large --report-interval, --report-checkpoints and --forced-shutdown are printed whole" -- \
     cpu --report-interval=1000000 --report-checkpoints=1000000,2000000 --time=3000000 \
     --forced-shutdown=1000000 --events=1 --cpu-max-prime=10 run
declared rate-above-1e9
for rate in 1000000001 2000000000 2147483647; do
  sb cpu --rate="$rate" --events=1 --cpu-max-prime=10 run
  is "$rc:$(printf '%s\n' "$out" | head -n 1)" \
     "1:FATAL: Invalid value for --rate: $rate (expected 0 for unlimited, or 1e-6 to 1e9 events per second)" \
     "--rate=$rate: refused before anything runs, naming the range (1.0.20 fails its run)"
done
sb cpu --rate=1000000000 --events=1000 --cpu-max-prime=10 run
is "$rc/$(field "$out" "total number of events:")" "0/1000" \
   "--rate=1e9, the highest we take, runs (1.0.20's event queue overflows)"
same "an option spelled with underscores" -- cpu --cpu_max_prime=50 --events=2 run
same "the last of a repeated option wins" -- cpu --events=9 --cpu-max-prime=50 --events=2 run
same "options before the test name" -- --events=2 --cpu-max-prime=50 cpu run
same "a boolean given as true/false" -- "${quick[@]}" --validate=true --debug=false run
same "a bare boolean" -- "${quick[@]}" --histogram run

# ---- bad values: 1.0.20's own error line ----------------------------------------------------
for bad in --threads=abc --threads= --threads --threads=0 --events=abc --time=abc \
           --forced-shutdown=abc --rate=abc --report-interval=abc \
           --report-checkpoints=abc --report-checkpoints=-1 --report-checkpoints=1,x \
           --debug=maybe --validate=2 --histogram=x --verbosity=9 --verbosity=6 \
           --percentile=101 --percentile=-1 --percentile=abc --rand-type=foo \
           --rand-seed=abc --rand-spec-iter=x --num-threads=abc \
           --max-requests=abc --max-time=abc --tx-rate=abc --tx-rate=1.5 \
           --histogram --percentile=0; do
  same "bad value $bad" -- "${quick[@]}" "$bad" run
done

# ---- bad values 1.0.20 accepts and misbehaves on: ours alone (differences.txt says why) -----
declared reject-negative-limits reject-out-of-range-rand fractional-durations
same "--threads=-3" --allow reject-negative-threads -- "${quick[@]}" --threads=-3 run
same "--thread-stack-size=abc" --allow unparsable-numbers -- "${quick[@]}" \
     --thread-stack-size=abc run
for bad in --events=-5 --time=-1 --rate=-1 --report-interval=-1 --forced-shutdown=-1 \
           --rand-spec-iter=0 --rand-spec-pct=200 --rand-spec-res=-5 --rand-pareto-h=5 \
           --rand-pareto-h=x --thread-stack-size=1 --warmup-time=1e12 \
           --thread-init-timeout=1e12 --forced-shutdown=99999999999 \
           --report-checkpoints=2000000000 --report-interval=2000000000 \
           --rand-zipfian-exp=-1; do
  sb "${quick[@]}" "$bad" run
  name=${bad%%=*}
  is "$rc" 1 "$bad is refused (exit 1)"
  like "$out$err" "Invalid value for (--|the ')?$(echo "${name#--}" | tr - _ | sed 's/_/[-_]/g')" \
       "$bad: the message names the option"
  unlike "$out" "Threads started" "$bad: nothing runs"
done
# Huge, tiny and non-finite values 1.0.20 refuses too (not a C int, or not a whole number):
# its line, then our HINT with the range; the same through a config file.
for bad in --time=1e11 --time=nan --time=inf --time=1e400 --forced-shutdown=1e12 \
           --report-checkpoints=1e12 --report-interval=1e12 --report-interval=1e-9 \
           --rate=1e-20 --threads=99999999999 --percentile=1e3; do
  same "out of range $bad" -- "${quick[@]}" "$bad" run
  printf '%s\n' "${bad#--}" | write range.cfg
  same "out of range ${bad#--} in a config file" --file range.cfg -- "${quick[@]}" \
       --config-file=range.cfg run
done
sb cpu --time=2.5 --report-interval=0.5 --rate=10.5 --cpu-max-prime=50 --events=3 run
is "$rc" 0 "fractional --time, --report-interval and --rate are accepted"

# ---- config files ---------------------------------------------------------------------------
pad() { head -c "$1" /dev/zero | tr '\0' c; }
printf 'threads=2\nevents=3\n# a comment\n' | write plain.cfg
same "a config file" --file plain.cfg -- cpu --config-file=plain.cfg --cpu-max-prime=50 run
# 'threads=5' starts at byte 4,095 of the comment, where a 4,096-byte buffer split the line.
{ printf 'verbosity=3 # '; pad 4081; printf 'threads=5\nevents=2\n'; } |
  write split.cfg
same "a comment line longer than 4,095 bytes stays one comment" --file split.cfg -- \
     cpu --config-file=split.cfg --cpu-max-prime=50 run
{ printf 'events=2 # '; pad 1048576; printf '\n'; } | write huge.cfg
same "a 1 MB config line" --file huge.cfg -- cpu --config-file=huge.cfg --cpu-max-prime=50 \
     run
same "a missing config file: 1.0.20's line (then we stop)" --allow config-file-unreadable -- \
     --config-file=nonexist
printf 'foo\nevents=2\n' | write noeq.cfg
same "a line without '=' is skipped (ours warns)" --allow config-line-without-equals \
     --file noeq.cfg -- cpu --config-file=noeq.cfg --cpu-max-prime=50 run
is "$err" "" "... on stdout alone: nothing on stderr"
is "$(count "$out" "^WARNING: config file 'noeq\.cfg' line 1: expected name=value, got 'foo'; line ignored$")" 1 \
   "... once, naming the file and the line"
# Names no option has: 1.0.20 says nothing for a compiled-in test; for a Lua script it prints
# "Global option 'x' will not be exported" once per Lua state and does not export the value.
# Ours: that line once, then a HINT naming file and line; our own line for a compiled-in test.
printf 'events=2\nnot-an-option=5\nother_one=6\n' | write unknown.cfg
same "names no option has, in a config file of cpu" --allow config-unknown-name-compiled-in \
     --file unknown.cfg -- cpu --config-file=unknown.cfg --cpu-max-prime=50 run
like "$out" "^WARNING: config file 'unknown\.cfg' line 2 sets 'not-an-option', which this test does not use; ignored$" \
  "... ours names the file and line of each (it named neither)"
is "$(count "$out" "^WARNING: config file 'unknown\.cfg' line 3 sets 'other_one', ")/$err" "1/" "... each once, on stdout alone"
printf 'function event() print(sysbench.opt.not_an_option, not_an_option) end\n' | write unknown.lua
same "names no option has, in a config file of a Lua script (not exported)" \
     --allow config-unknown-name-once --file unknown.cfg --file unknown.lua -- unknown.lua \
     --config-file=unknown.cfg --threads=2 run
is "$(count "$out" "^WARNING: Global option 'not_an_option' will not be exported, because the type is unknown$")/$(count "$ref_out" "^WARNING: Global option 'not_an_option' will not be exported")" \
   "1/$(count "$ref_out" "^WARNING: Global option 'not_an_option' will not be exported")" \
   "... 1.0.20's line once (1.0.20: once per Lua state)"
like "$out" "^HINT: config file 'unknown\.cfg' line 2 sets 'not-an-option', which this test does not declare \(its help command lists those it does\)$" \
  "... then a HINT naming the file and the line"

# ---- control bytes are echoed escaped (\x1b), 1.0.20 prints them raw -------------------------
same "an ESC in an unknown option's name" --allow escaped-control-bytes -- \
     "${quick[@]}" $'--fo\e[2Jo=1' run
same "an ESC in a bad value" --allow escaped-control-bytes -- "${quick[@]}" $'--threads=\e[31m' run
same "an ESC in an unknown test name" --allow escaped-control-bytes -- $'cp\e[2Ju' run
printf 'threads=\e[31m\n' | write esc.cfg
same "an ESC in a config file's value" --allow escaped-control-bytes --file esc.cfg -- \
     "${quick[@]}" --config-file=esc.cfg run

# ---- a password is never echoed: 1.0.20 prints the value of a mistyped password option ------
same "a password in an option the test does not take" --allow masked-passwords -- \
     "${quick[@]}" --my-password=HushPw run

# ---- deprecated aliases ---------------------------------------------------------------------
same "--max-requests" -- cpu --max-requests=3 --cpu-max-prime=50 run
same "--num-threads" -- cpu --num-threads=2 --events=4 --cpu-max-prime=50 run
same "--num-threads=1 (the default) says nothing" -- "${quick[@]}" --num-threads=1 run
same "--num-threads=0 is ignored" -- "${quick[@]}" --num-threads=0 run
same "--max-time=0 says nothing" -- "${quick[@]}" --max-time=0 run
same "--tx-rate" -- cpu --tx-rate=1000 --events=3 --cpu-max-prime=50 run
same "--num-threads and --max-requests together" -- cpu --num-threads=2 --max-requests=4 \
     --cpu-max-prime=50 run
same "--test with aliases" -- --test=cpu --max-requests=3 --cpu-max-prime=50 run
same "--num-threads=-3 is rejected as --threads=-3" --allow reject-negative-threads -- \
     "${quick[@]}" --num-threads=-3 run
for alias in --max-requests=-5 --tx-rate=-1; do
  sb "${quick[@]}" "$alias" run
  is "$rc" 1 "$alias is refused as its new name would be (exit 1)"
  like "$out" "^WARNING: ${alias%%=*} is deprecated" "$alias: 1.0.20's deprecation warning first"
  like "$out" "Invalid value for --(events|rate): -[0-9]+" "$alias: the new option's message"
done

done_testing
