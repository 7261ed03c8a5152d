#!/usr/bin/env bash
# builtin_memory_threads_mutex.t: the compiled-in memory, threads and mutex tests: their event
# counts, their option checks, their report lines and help text against sysbench 1.0.20.
. "$(dirname "$0")/../lib/tap.sh"

# Layout of a report: numbers masked, and the padding %8.2f puts in "( 123.45 per second)"
# squeezed, so only the shape of each line is compared.
shape() {
  mask "$1" | sed -E 's/\( +N per second\)/(N per second)/'
}

# ---- memory: how much is transferred ------------------------------------------------------

sb memory run --time=0 --memory-total-size=64M --memory-block-size=1K
is "$rc" 0 "memory run with a 64M total and --time=0 succeeds"
like "$out" "^Total operations: 65536 \( *[0-9]+\.[0-9]{2} per second\)$" \
  "64M in 1K blocks is exactly 65536 operations"
like "$out" "^64\.00 MiB transferred \([0-9]+\.[0-9]{2} MiB/sec\)$" "and 64.00 MiB transferred"
like "$out" "total number of events: +65536$" "every operation is one event"

sb memory run --time=0 --memory-total-size=64M --threads=3
like "$out" "^Total operations: 65535 " \
  "the total is split evenly: 3 threads do 64M/1K/3 = 21845 operations each"
like "$out" "events \(avg/stddev\): +21845\.0000/0\.00$" "each of the 3 threads did its share"

sb memory run --time=0 --memory-total-size=64K --memory-block-size=8
like "$out" "^Total operations: 8192 " "the smallest block (8 bytes) works: 64K/8 = 8192"

sb memory run --time=0 --memory-total-size=1M --events=10
like "$out" "^Total operations: 1024 " "--events is ignored, as in 1.0.20: the total size limits"

sb memory run --time=1 --memory-total-size=0
is "$rc" 0 "--memory-total-size=0 runs until the time limit"
n=$(field "$out" "^Total operations:")
num_cmp "$n" ">" 1000 "--memory-total-size=0 means no size limit ($n operations in 1 s)"
like "$out" "^  total size: 0MiB$" "the mode block shows a 0MiB total"

for mode in seq rnd; do
  for oper in read write none; do
    sb memory run --time=0 --memory-total-size=8M --memory-oper=$oper --memory-access-mode=$mode
    status_ok $(( rc != 0 )) "memory $oper/$mode runs"
    like "$out" "^Total operations: 8192 " "memory $oper/$mode does 8192 operations for 8M"
    if [ "$oper" = none ]; then
      unlike "$out" "MiB transferred" "memory none/$mode prints no MiB transferred line"
    else
      like "$out" "^8\.00 MiB transferred " "memory $oper/$mode transfers 8.00 MiB"
    fi
  done
done

sb memory run --time=0 --memory-total-size=16M --memory-scope=local --threads=2 \
  --memory-access-mode=rnd
is "$rc" 0 "local scope with 2 threads runs"
like "$out" "^  scope: local$" "the mode block names the local scope"
like "$out" "^Total operations: 16384 " "local scope: 2 threads x 8192 operations"

sb memory run --time=0 --memory-total-size=16M --memory-block-size=1M --memory-scope=local \
  --threads=2 --memory-oper=read
like "$out" "^Total operations: 16 " "1M blocks: 16M is 16 operations"

if grep -qE '^HugePages_Free: +[1-9]' /proc/meminfo 2>/dev/null; then
  sb memory run --time=0 --memory-total-size=4M --memory-hugetlb=on
  is "$rc" 0 "--memory-hugetlb=on runs when the HugeTLB pool has pages"
else
  sb memory run --time=0 --memory-total-size=4M --memory-hugetlb=on
  is "$rc" 1 "--memory-hugetlb=on with an empty HugeTLB pool exits 1"
  like "$out" "^FATAL: .*HugeTLB pool.*--memory-hugetlb" \
    "and says the HugeTLB pool could not supply the block"
fi

sb memory run --time=1.5 --report-interval=1 --memory-total-size=0
like "$out" "^\[ 1s \] [0-9]+\.[0-9]{2} MiB/sec$" "intermediate reports are '[ 1s ] X MiB/sec'"

# ---- memory: the report and mode lines against 1.0.20 ---------------------------------------

if have_ref; then
  args=(memory run --time=0 --memory-total-size=32M --memory-block-size=2K --memory-oper=read)
  sb "${args[@]}"; ours=$out
  ref "${args[@]}"; theirs=$out
  is "$(shape "$ours")" "$(shape "$theirs")" \
    "memory read report has 1.0.20's layout, line for line"
  mode_block() { printf '%s\n' "$1" | sed -n '/^Running memory speed test/,/^Initializing worker/p'; }
  is "$(mode_block "$ours")" "$(mode_block "$theirs")" \
    "the memory mode lines equal 1.0.20's, numbers included"
  # "lines from Total operations to MiB transferred:lines from there to General statistics"
  spacing() {
    local total mib general
    total=$(line_of "$1" "^Total operations:")
    mib=$(line_of "$1" "MiB transferred")
    general=$(line_of "$1" "^General statistics:")
    if [ -z "$total" ] || [ -z "$mib" ] || [ -z "$general" ]; then
      echo "a line is missing"
    else
      echo "$((mib - total)):$((general - mib))"
    fi
  }
  [ "$(spacing "$theirs")" != "a line is missing" ]
  status_ok $? "1.0.20 prints Total operations, MiB transferred and General statistics"
  is "$(spacing "$ours")" "$(spacing "$theirs")" \
    "Total operations, MiB transferred and General statistics are spaced as in 1.0.20"
  like "$ours" "^Latency \(ms\):$" "the Latency block follows"
  like "$ours" "^Threads fairness:$" "the Threads fairness block follows"

  args=(memory run --time=0 --memory-total-size=8M --memory-oper=none --memory-scope=local
        --memory-access-mode=rnd --threads=2)
  sb "${args[@]}"; ours=$out
  ref "${args[@]}"
  is "$(shape "$ours")" "$(shape "$out")" "memory none/rnd/local report has 1.0.20's layout"
else
  for i in 1 2 3 4 5 6 7; do skip "no reference sysbench at $REF_SB"; done
fi

# ---- memory: bad option values ---------------------------------------------------------------

# bad_value TEST OPTION=VALUE REGEX: exit 1 and one message naming the option
bad_value() {
  local test=$1 arg=$2 want=$3
  shift 3
  sb "$test" run --time=1 "$arg" "$@"
  is "$rc" 1 "$test $arg exits 1"
  like "$out$err" "$want" "$test $arg: the message names the option and what it accepts"
}

# (1.0.20's own first lines are compared by tests/compat/builtin.t; here: our hint)
bad_value memory --memory-block-size=3 \
  "^HINT: --memory-block-size expects a power of two of at least 8 bytes"
bad_value memory --memory-block-size=0 "^FATAL: Invalid value for memory-block-size: 0$"
bad_value memory --memory-block-size=4 "^HINT: --memory-block-size expects .*at least 8 bytes"
bad_value memory --memory-block-size=abc "^FATAL: Invalid value for memory-block-size: abc$"
bad_value memory --memory-total-size=-5 \
  "^HINT: --memory-total-size expects a size: a whole number with an optional K, M, G or T"
bad_value memory --memory-block-size=2K \
  "^FATAL: Invalid value for --memory-block-size: 2K \(.*no larger than --memory-total-size" \
  --memory-total-size=1K
bad_value memory --memory-total-size=4K \
  "^FATAL: Invalid value for --memory-total-size: 4K \(expected 0 for no limit.* 8192 bytes" \
  --threads=8
bad_value memory --memory-scope=foo "^HINT: --memory-scope expects global or local$"
bad_value memory --memory-oper=foo "^HINT: --memory-oper expects read, write or none$"
bad_value memory --memory-access-mode=foo "^HINT: --memory-access-mode expects seq or rnd$"
bad_value memory --memory-hugetlb=maybe \
  "^HINT: --memory-hugetlb is on or off: give on\|off, true\|false or 1\|0$"

# ---- threads ---------------------------------------------------------------------------------

sb threads run --events=100 --time=0
is "$rc" 0 "threads run succeeds"
like "$out" "total number of events: +100$" "threads --events=100 runs exactly 100 events"

sb threads run --events=100 --time=0 --threads=4 --thread-locks=1 --thread-yields=50
like "$out" "total number of events: +100$" "4 threads sharing one mutex run exactly 100 events"

sb threads run --events=10 --time=0 --thread-yields=0
is "$rc" 0 "--thread-yields=0 is accepted (empty events)"

sb threads run --events=1 --time=0 --verbosity=4
like "$out" "^Thread yields per test: 1000 Locks used: 8$" \
  "at verbosity 4 the mode line shows the defaults 1000 and 8"

bad_value threads --thread-yields=-1 "^FATAL: Invalid value for --thread-yields: -1 \(expected 0 to"
bad_value threads --thread-locks=0 "^FATAL: Invalid value for --thread-locks: 0 \(expected 1 to"
bad_value threads --thread-locks=x "^HINT: --thread-locks expects an integer$"

if have_ref; then
  args=(threads run --events=20 --time=0 --threads=2)
  sb "${args[@]}"; ours=$out
  ref "${args[@]}"
  is "$(shape "$ours")" "$(shape "$out")" "threads report has 1.0.20's layout"
else
  skip "no reference sysbench at $REF_SB"
fi

# ---- mutex -----------------------------------------------------------------------------------

sb mutex run --threads=4 --mutex-locks=2000
is "$rc" 0 "mutex run succeeds"
like "$out" "total number of events: +4$" "mutex with --threads=4 runs exactly 4 events"
like "$out" "events \(avg/stddev\): +1\.0000/0\.00$" "one event per thread"

sb mutex run --threads=4 --events=2 --mutex-locks=2000
like "$out" "total number of events: +2$" "--events=2 caps the mutex test at 2 events"

sb mutex run --threads=2 --mutex-num=1 --mutex-loops=0 --mutex-locks=10000
like "$out" "total number of events: +2$" "one mutex, no empty loops: still one event per thread"

bad_value mutex --mutex-num=0 "^FATAL: Invalid value for --mutex-num: 0 \(expected 1 to"
bad_value mutex --mutex-locks=0 "^FATAL: Invalid value for --mutex-locks: 0 \(expected 1 to"
bad_value mutex --mutex-loops=-1 "^FATAL: Invalid value for --mutex-loops: -1 \(expected 0 to"

if have_ref; then
  args=(mutex run --threads=2 --mutex-locks=2000)
  sb "${args[@]}"; ours=$out
  ref "${args[@]}"
  is "$(shape "$ours")" "$(shape "$out")" "mutex report has 1.0.20's layout"
else
  skip "no reference sysbench at $REF_SB"
fi

# ---- help ------------------------------------------------------------------------------------

for test in memory threads mutex; do
  sb "$test" help; ours=$out; our_rc=$rc
  is "$our_rc" 0 "sysbench $test help exits 0"
  is "$(printf '%s\n' "$ours" | tail -n 1)" "$test commands: run help" "... and ends with its commands"
  sb "$test" help --compat=1.0.20; exact=$out
  if have_ref; then
    ref "$test" help
    is "$(printf '%s\n' "$ours" | head -n -2 | tail -n +2)" "$(printf '%s\n' "$out" | tail -n +2)" \
      "sysbench $test help equals 1.0.20's, byte for byte after the header, before the commands"
    is "$exact" "$out" "... and with --compat=1.0.20 it is 1.0.20's whole"
  else
    skip "no reference sysbench at $REF_SB"
  fi
done

sb --help
for line in "  memory - Memory functions speed test" \
            "  threads - Threads subsystem performance test" \
            "  mutex - Mutex performance test"; do
  like "$out" "^$line$" "--help lists '${line# }'"
done

done_testing
