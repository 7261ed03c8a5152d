#!/usr/bin/env bash
# results.t: the results work beside 1.0.20. Scripts named compare.lua or merge still run as
# in 1.0.20 (the new commands step aside); the default reports of SQL and compiled-in tests stay
# 1.0.20's (our additions come after its blocks, declared in differences.txt); the single-value
# --percentile keeps its layout and its errors.
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/compat.sh"

# ---- compare / merge do not shadow scripts --------------------------------------------------
write compare.lua <<'LUA'
print("compare.lua body, command: " .. tostring(sysbench.cmdline.command))
function event() end
LUA
same "./compare.lua: 'sysbench compare' runs the script's body" --file compare.lua -- compare
same "./compare.lua: 'sysbench compare run' runs it" --file compare.lua -- compare run --events=3
same "./compare.lua: 'sysbench compare a.json b.json' is the script and two words" \
     --file compare.lua -- compare a.json b.json
mkdir -p "$TEST_TMP/modules"
cp "$TEST_TMP/compare.lua" "$TEST_TMP/modules/merge.lua"
write merge <<'LUA'
print("a file named merge")
LUA
same "a file named 'merge': 'sysbench merge' runs it" --file merge -- merge
same "a file named 'merge': 'sysbench merge x.json' is the script and a command" --file merge -- merge x.json
same "merge.lua found on LUA_PATH-less default path ./src/lua" --file modules --before "mkdir -p src/lua && cp modules/merge.lua src/lua/" -- merge run --events=2
declared compare-merge-commands thread-sweep percentile-list

# ---- default reports keep 1.0.20's text -----------------------------------------------------
same "oltp_read_write dry run: 1.0.20's report (our block after it)" -- \
     oltp_read_write --mysql-dry-run --events=20 run
same "oltp_point_select dry run, 2 threads" -- \
     oltp_point_select --mysql-dry-run --events=40 --threads=2 run
same "select_random_points dry run with --percentile=99" -- \
     select_random_points --mysql-dry-run --events=10 --percentile=99 run
same "cpu --percentile=50 (one value: 1.0.20's layout)" -- \
     cpu --events=20 --cpu-max-prime=1000 --percentile=50 run
same "an empty --percentile= runs as in 1.0.20" -- cpu --events=2 --cpu-max-prime=1000 --percentile= run
for bad in 101 -5 abc; do
  same "cpu --percentile=$bad" -- cpu --events=2 --percentile="$bad" run
done
same "cpu --threads=2: no sweep, 1.0.20's report" -- cpu --events=20 --cpu-max-prime=1000 --threads=2 run
for bad in 0 abc; do
  same "cpu --threads=$bad" -- cpu --events=2 --threads="$bad" run
done
same "cpu --threads=-1" --allow reject-negative-threads -- cpu --events=2 --threads=-1 run

done_testing
