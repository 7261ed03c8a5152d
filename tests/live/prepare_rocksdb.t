#!/usr/bin/env bash
# prepare_rocksdb.t: loading the OLTP tables into the embedded RocksDB driver (issue 15): the
# same --rand-seed gives the same table (the checksum verify prints) for any --threads, the size
# report gives the sizes of the SST files, verify catches a deleted row and a changed k, and
# Ctrl-C leaves tables that the next prepare refuses and --resume loads again. Issue 22: verify
# checks the seed and --table-size the load recorded, and --resume goes on with the seed of
# the interrupted prepare.
. "$(dirname "$0")/../lib/tap.sh"

need_driver rocksdb librocksdb-dev

db="$TEST_TMP/rocks"
rk() { sb "$@" --db-driver=rocksdb --rocksdb-path="$db"; }
checksums() {   # the checksums verify read back, one per table
  printf '%s\n' "$out" | grep -oE "checksum [0-9a-f]{16}$" | tr '\n' ' '
}

size=(--table-size=60000 --tables=2 --rand-seed=31)

# interrupted_prepare REGEX ARGS...: a slowed-down prepare with ARGS, sent SIGINT once its
# output matches REGEX (interrupt_when)
interrupted_prepare() {
  local until=$1
  shift
  SYSBENCH_TEST_LOAD_DELAY=0.3 interrupt_when "$until" oltp_read_write "$@" \
    --report-interval=0.2 prepare --db-driver=rocksdb --rocksdb-path="$db"
}

rk oltp_read_write "${size[@]}" prepare
is "$rc" 0 "prepare with one thread"
like "$out" "Loaded 120000 rows into 2 tables in [0-9.]+s \([0-9]+ rows/s\), rows from --rand-seed=31" \
  "the report says how many rows, how fast and from which seed"
like "$out" "  sbtest1 +60000 +11\.1 +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9]{2}$" \
  "... and the sizes of each table's rows and index in the SST files"
rk oltp_read_write "${size[@]}" verify
is "$rc" 0 "verify of fresh tables exits 0"
like "$out" "sbtest1: ok: 60000 rows \(loaded 60000, from --rand-seed=31\), checksum matches, secondary index consistent \(60000 entries, 0 wrong\), ids 1..60000 without gaps" \
  "... saying what it checked"
reference=$(checksums)
rk oltp_read_write --tables=2 cleanup >/dev/null

rk oltp_read_write "${size[@]}" --threads=5 prepare
rk oltp_read_write "${size[@]}" verify
is "$rc/$(checksums)" "0/$reference" "prepare with 5 threads: the same rows (checksums) as with one"

cat > "$TEST_TMP/damage.lua" <<'EOF'
-- deletes row 77 of sbtest1, adds 1 to the k of row 1234 of sbtest2 (through the key-value
-- forms of the workloads' statements)
sysbench.cmdline.commands = { damage = { function()
  local con = sysbench.sql.driver():connect()
  local INT = sysbench.sql.type.INT
  for _, step in ipairs({{"deletes", 1, 77}, {"index_updates", 2, 1234}}) do
    local s = con:prepare_kv(step[1], step[2])
    local id = s:bind_create(INT)
    s:bind_param(id)
    id:set(step[3])
    s:execute()
  end
end } }
EOF
sb damage.lua --db-driver=rocksdb --rocksdb-path="$db" damage
rk oltp_read_write "${size[@]}" verify
is "$rc" 1 "verify of damaged tables exits 1"
like "$out" "sbtest1: WRONG: 59999 rows \(loaded 60000, from --rand-seed=31\), checksum DIFFERS, .* ids with 1 GAPS \(the first at id 77\)" \
  "... naming the missing row"
like "$out" "sbtest2: WRONG: 60000 rows \(loaded 60000, from --rand-seed=31\), checksum DIFFERS" "... and the changed k"
like "$out" "Verified 2 tables: 2 wrong" "... counting both"
rk oltp_read_write --tables=2 cleanup >/dev/null

# Ctrl-C, then --resume (a RocksDB table is loaded again whole). With 4 threads every table is
# cut into 8 ranges, each written to files of its own and ingested when done: the tables hold
# some ranges when the load stops.
interrupted_prepare "\[ .*s \] loaded [1-9]" "${size[@]}" --threads=4
is "$rc" 130 "prepare stopped by Ctrl-C exits 130"
like "$(cat "$TEST_TMP/bg.out")" "Incomplete tables: sbtest1 \([0-9]+ of 60000 rows\)" "... naming the incomplete tables"
rk oltp_read_write "${size[@]}" prepare
is "$rc" 1 "the next prepare refuses them"
like "$out" "HINT: sbtest1 was left incomplete by an interrupted prepare: \`cleanup\` drops the tables, the same prepare with --resume loads it again" \
  "... naming cleanup and --resume"
rk oltp_read_write "${size[@]}" --resume prepare
is "$rc" 0 "prepare --resume finishes the tables"
like "$out" "Table 'sbtest1' was left incomplete by an interrupted prepare: loading it again" \
  "... loading an incomplete table again"
rk oltp_read_write "${size[@]}" verify
is "$rc/$(checksums)" "0/$reference" "... into the tables a fresh load gives"
rk oltp_read_write "${size[@]}" prepare
is "$rc" 1 "a prepare over complete tables fails"
like "$out" "HINT: sbtest1 exists already: \`cleanup\` drops sbtest1..sbtest2" "... naming cleanup"
rk oltp_read_write --tables=2 cleanup >/dev/null

# verify checks a table against the --table-size and the seed its load recorded: given others,
# it says so (and exits 1), even though the rows read back as they were written.
rk oltp_read_write --table-size=6000 --rand-seed=3 prepare
rk oltp_read_write --table-size=6000 --rand-seed=999 verify
is "$rc" 1 "verify with another --rand-seed than prepare's exits 1"
like "$out" "^sbtest1: WRONG: its rows come from --rand-seed=3, not from the --rand-seed=999 verify was given; 6000 rows \(loaded 6000, from --rand-seed=3\), checksum matches" \
  "... saying which seed the rows come from"
rk oltp_read_write --table-size=3000 verify
is "$rc" 1 "verify with another --table-size than prepare's exits 1"
like "$out" "^sbtest1: WRONG: the table holds the 6000 rows of a prepare with --table-size=6000, where verify was given --table-size=3000: verify needs the --table-size prepare used; " \
  "... saying how many rows the table holds, and that --table-size must be prepare's"
rk oltp_read_write --table-size=6000 verify
is "$rc" 0 "without --rand-seed, verify checks the rows against the seed their load recorded"
like "$out" "^sbtest1: ok: 6000 rows \(loaded 6000, from --rand-seed=3\), checksum matches" "... and names it"
rk oltp_read_write cleanup >/dev/null

# --resume without --rand-seed goes on with the seed the interrupted prepare drew from the
# clock: one thread, interrupted once sbtest1 is complete, while it loads sbtest2.
small=(--table-size=40000 --tables=2)
interrupted_prepare "1 of 2 tables done" "${small[@]}"
is "$rc" 130 "prepare without --rand-seed stopped by Ctrl-C while it loads sbtest2"
like "$(cat "$TEST_TMP/bg.out")" "Complete tables: sbtest1" "... with sbtest1 complete"
rk oltp_read_write "${small[@]}" --rand-seed=999 --resume prepare
is "$rc" 1 "prepare --resume with another --rand-seed is refused"
like "$out" "sbtest1 was loaded with --rand-seed=[0-9]+: resume with that seed, or without --rand-seed" \
  "... naming the seed the tables were loaded with"
rk oltp_read_write "${small[@]}" --resume prepare
is "$rc" 0 "prepare --resume without --rand-seed finishes the tables"
seed=$(printf '%s\n' "$out" | sed -nE 's/.*rows from --rand-seed=([0-9]+).*/\1/p')
rk oltp_read_write "${small[@]}" verify
resumed=$(checksums)
is "$rc/$(count "$out" "from --rand-seed=$seed\)")" "0/2" "... both from the seed the report names"
rk oltp_read_write --tables=2 cleanup >/dev/null
rk oltp_read_write "${small[@]}" --rand-seed="$seed" prepare
rk oltp_read_write "${small[@]}" verify
is "$(checksums)" "$resumed" "... which are the tables a fresh load with that seed gives"
rk oltp_read_write --tables=2 cleanup >/dev/null

done_testing
