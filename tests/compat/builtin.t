#!/usr/bin/env bash
# builtin.t: the compiled-in tests cpu, memory, threads and mutex, differentially: help, runs
# limited by --events (counts compared; times masked), every option with good and bad values,
# --histogram, --percentile, --report-interval and --debug.
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/compat.sh"

for t in cpu memory threads mutex; do
  same "$t help" -- "$t" help
  same "$t without a command" -- "$t"
  same "$t prepare" -- "$t" prepare
  same "$t cleanup" -- "$t" cleanup
done

# ---- cpu --------------------------------------------------------------------------------------
same "cpu run" -- cpu --events=20 --cpu-max-prime=1000 run
same "cpu with 2 threads" -- cpu --threads=2 --events=20 --cpu-max-prime=1000 run
same "cpu --histogram" -- cpu --events=20 --cpu-max-prime=1000 --histogram run
same "cpu --percentile=99" -- cpu --events=20 --cpu-max-prime=1000 --percentile=99 run
same "cpu --percentile=0" -- cpu --events=20 --cpu-max-prime=1000 --percentile=0 run
same "cpu --verbosity=0" -- cpu --events=20 --cpu-max-prime=1000 --verbosity=0 run
same "cpu --verbosity=5" -- cpu --events=20 --cpu-max-prime=1000 --verbosity=5 run
same "cpu --debug" -- cpu --events=20 --cpu-max-prime=1000 --debug run
same "cpu --validate" -- cpu --events=20 --cpu-max-prime=1000 --validate run
same "cpu --rate" -- cpu --events=5 --cpu-max-prime=1000 --rate=1000 run
same "cpu --rand-seed" -- cpu --events=5 --cpu-max-prime=1000 --rand-seed=7 run
for bad in --cpu-max-prime=0 --cpu-max-prime=-1 --cpu-max-prime=abc --cpu-max-prime=; do
  same "cpu $bad" -- cpu --events=2 "$bad" run
done

# ---- memory -----------------------------------------------------------------------------------
same "memory total size limits the run" -- memory --memory-total-size=64K --memory-block-size=1K run
same "memory 2 threads" -- memory --threads=2 --memory-total-size=64K --memory-block-size=1K run
for good in --memory-block-size=8 --memory-block-size=16K --memory-scope=local \
            --memory-scope=global --memory-oper=read --memory-oper=write --memory-oper=none \
            --memory-access-mode=rnd --memory-access-mode=seq --memory-hugetlb=off \
            --memory-block-size=32K; do
  same "memory $good" -- memory --memory-total-size=32K "$good" run
done
for bad in --memory-block-size=-1 --memory-block-size=0 --memory-block-size=3 \
           --memory-block-size=abc --memory-scope=foo --memory-oper=foo \
           --memory-access-mode=foo --memory-hugetlb=maybe; do
  same "memory $bad" -- memory --memory-total-size=1K "$bad" run
done
# 1.0.20 reads these as "no size limit" and runs for --time; ours refuses them.
declared unparsable-numbers memory-block-over-total
for bad in --memory-total-size=abc --memory-total-size=-5 --memory-block-size=2K; do
  sb memory --memory-total-size=1K "$bad" run
  is "$rc" 1 "memory $bad is refused (exit 1)"
  like "$out$err" "Invalid value for (the 'memory_(total|block)_size' option|--memory-(total|block)-size)" \
       "memory $bad: the message names the option"
done

# ---- threads ----------------------------------------------------------------------------------
same "threads run" -- threads --events=20 --thread-yields=10 run
same "threads 2 threads" -- threads --threads=2 --events=20 --thread-yields=10 --thread-locks=2 run
same "threads --verbosity=4" -- threads --events=5 --thread-yields=10 --verbosity=4 run
for bad in --thread-yields=abc --thread-locks=x; do
  same "threads $bad" -- threads --events=2 --thread-yields=10 "$bad" run
done

# ---- mutex ------------------------------------------------------------------------------------
same "mutex run" -- mutex --mutex-locks=100 --mutex-loops=10 run
same "mutex 2 threads" -- mutex --threads=2 --mutex-locks=100 --mutex-loops=10 run
same "mutex --verbosity=4" -- mutex --mutex-locks=100 --mutex-loops=10 --verbosity=4 run
for bad in --mutex-num=x --mutex-loops=x; do
  same "mutex $bad" -- mutex --mutex-locks=10 --mutex-loops=1 "$bad" run
done

# Counts 1.0.20 crashes on (--thread-locks=0: SIGFPE), hangs on (--mutex-num=0,
# --mutex-locks=0) or runs for ages with (negative counts read as unsigned): ours alone.
declared reject-nonsense-counts
for bad in "threads --thread-locks=0" "threads --thread-locks=-2" "threads --thread-yields=-1" \
           "mutex --mutex-num=0" "mutex --mutex-locks=0" "mutex --mutex-locks=-1" \
           "mutex --mutex-loops=-1"; do
  sb $bad --events=2 run
  is "$rc" 1 "$bad is refused (exit 1)"
  opt=${bad#* --}
  like "$out" "FATAL: Invalid value for --${opt%%=*}: ${opt#*=} \(expected" \
       "$bad: one line naming the option and the range"
done

done_testing
