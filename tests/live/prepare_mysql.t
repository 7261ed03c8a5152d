#!/usr/bin/env bash
# prepare_mysql.t: loading the OLTP tables on a private MariaDB (issue 15):
#   - the same --rand-seed gives the same table (CHECKSUM TABLE) for any --threads and either
#     --prepare-method, and one table is loaded on every thread;
#   - LOAD DATA LOCAL INFILE where the server allows it, INSERTs where it does not (said once),
#     and --prepare-method=load-data fails there with a hint;
#   - progress lines when the output is not a terminal; the size report's fields;
#   - verify: exit 0 on a fresh table, exit 1 naming a deleted row, a changed k, a missing index;
#   - Ctrl-C: exit 130, the tables left marked incomplete, the next prepare refuses naming
#     `cleanup` and --resume, prepare --resume finishes them into what a fresh load gives;
#   - a table the tool did not create is never changed, --resume or not.
# Loads are slowed down with SYSBENCH_TEST_LOAD_DELAY where a test needs one to be in progress,
# so nothing here depends on the machine's speed.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mysql.sh"

mysql_sandbox_start

checksum() {   # checksum TABLE: CHECKSUM TABLE's number
  sql "CHECKSUM TABLE $1" | cut -f2
}
comment_of() {
  sql "SELECT TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = '$1'"
}
drop_all() {
  sql "DROP TABLE IF EXISTS sbtest1, sbtest2, sbtest3" >/dev/null
}
size=(--table-size=20000 --rand-seed=11)

# ---------------------------------------------------------------------------------------------
# The same seed, the same table, however it is loaded

my oltp_read_write "${size[@]}" prepare
is "$rc" 0 "prepare with one thread"
reference=$(checksum sbtest1)
like "$out" "Loaded 20000 rows into 1 table in [0-9.]+s \([0-9]+ rows/s\), rows from --rand-seed=11" \
  "the report says how many rows, how fast and from which seed"
my oltp_read_write cleanup >/dev/null

for run in "--threads=4 --prepare-method=load-data" "--threads=3 --prepare-method=insert" \
           "--threads=1 --prepare-method=insert"; do
  # shellcheck disable=SC2086
  my oltp_read_write "${size[@]}" $run --db-debug --verbosity=5 prepare
  is "$rc/$(checksum sbtest1)" "0/$reference" "prepare $run: CHECKSUM TABLE equals the one-thread load's"
  case $run in
    *load-data*) like "$out" "stream: LOAD DATA LOCAL INFILE 'sbtest1' INTO TABLE sbtest1" \
                   "... loaded with LOAD DATA LOCAL INFILE" ;;
    *insert*) unlike "$out" "stream: LOAD DATA" "... loaded with INSERTs only" ;;
  esac
  my oltp_read_write cleanup >/dev/null
done

# 4 threads on one table: each thread takes part (the server sees 4 loading connections)
sql "SET GLOBAL general_log_file = '$SANDBOX_DIR/general.log'" "SET GLOBAL general_log = 1"
my oltp_read_write "${size[@]}" --threads=4 prepare
sql "SET GLOBAL general_log = 0"
loaders=$(grep -E "Query\s+LOAD DATA LOCAL INFILE 'sbtest1'" "$SANDBOX_DIR/general.log" |
          awk '{ for (i = 1; i <= NF; i++) if ($i == "Query") print $(i - 1) }' | sort -u | wc -l)
is "$loaders" 4 "with --threads=4 one table is loaded over 4 connections"
is "$(grep -c "LOAD DATA LOCAL INFILE 'sbtest1'" "$SANDBOX_DIR/general.log")" 20 \
  "... in 20 statements, one per block of 1000 rows"
is "$(checksum sbtest1)" "$reference" "... into the same table"

# ---------------------------------------------------------------------------------------------
# The size report

like "$out" "Table sizes \(MiB; logical: rows x \(8 \+ c \+ pad bytes\) \+ 8 per index entry on k\):" \
  "the size report says what logical means"
like "$out" "  table +rows +logical +data +index +on disk +ratio" "... has its columns"
# 20000 x (8 + 119 + 59) + 20000 x 8 bytes = 3.7 MiB
like "$out" "  sbtest1 +20000 +3\.7 +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9]{2}$" \
  "... and a line per table: rows, logical MiB, data, index and total MiB on disk, ratio"
data=$(sql "SELECT ROUND(DATA_LENGTH / 1048576, 1) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = 'sbtest1'")
like "$out" "  sbtest1 +20000 +3\.7 +$data " "... data on disk as information_schema gives it"
is "$(comment_of sbtest1)" "" "a complete table carries no marker"

# ---------------------------------------------------------------------------------------------
# verify

my oltp_read_write "${size[@]}" verify
is "$rc" 0 "verify of a fresh table exits 0"
like "$out" "sbtest1: ok: 20000 rows, ids 1..20000 without gaps, index k_1 consistent with the rows, rows as generated from --rand-seed=11" \
  "... and says what it checked"
my oltp_read_write --table-size=20000 verify
like "$out" "contents not compared" "without --rand-seed verify says it did not compare the rows"
my oltp_read_write --table-size=10000 verify
is "$rc" 1 "verify with half the --table-size of prepare exits 1"
like "$out" "^HINT: sbtest1 holds 20000 rows: verify needs the --table-size prepare used \(--table-size=20000 if it loaded them all\)$" \
  "... saying how many rows the table holds, and that --table-size must be prepare's"
my oltp_read_write --table-size=40000 verify
like "$out" "^HINT: sbtest1 holds 20000 rows: verify needs the --table-size prepare used" \
  "... and so with twice it"
my oltp_read_write --table-size=10000 --compat=1.0.20 verify
is "$rc/$(count "$out" "HINT")" "1/0" "... a hint: none with --compat=1.0.20 (still exit 1)"
sql "DELETE FROM sbtest1 WHERE id = 777" "UPDATE sbtest1 SET k = k + 1 WHERE id = 1234"
my oltp_read_write "${size[@]}" --threads=3 verify
is "$rc" 1 "verify of a damaged table exits 1"
like "$out" "sbtest1: WRONG: 19999 rows where --table-size is 20000; 1 id of 1..table-size missing; 1 row whose k is not the generated one" \
  "... saying what is wrong"
like "$out" "  sbtest1: id 777 is missing" "... which id is missing"
unlike "$out" "HINT: sbtest1 holds" "... and no --table-size hint: the table is not one of another size"
like "$out" "  sbtest1: id 1234: k is [0-9]+, the generated row has [0-9]+" "... and which k differs"
like "$out" "Verified 1 table: 1 wrong" "... and counting the wrong tables"
sql "DROP INDEX k_1 ON sbtest1"
my oltp_read_write --table-size=20000 verify
is "$rc" 1 "verify of a table without its index exits 1"
like "$out" "the index on k is missing" "... saying so"
my oltp_read_write cleanup >/dev/null

# ---------------------------------------------------------------------------------------------
# Progress lines when the output is not a terminal

SYSBENCH_TEST_LOAD_DELAY=0.1 my oltp_read_write "${size[@]}" --tables=2 --threads=2 \
  --report-interval=0.3 prepare
like "$out" "\[ [0-9]+\.[0-9]s \] loaded [0-9]+ of 40000 rows \([0-9.]+%\), [0-9]+ rows/s, ETA [0-9hms]+, [0-2] of 2 tables done" \
  "a progress line every --report-interval seconds when stdout is not a terminal"
unlike "$out" $'\033' "... without terminal escapes"
my oltp_read_write --tables=2 cleanup >/dev/null

# On a terminal (script(1) gives the command one): a live line per table, redrawn in place
if command -v script >/dev/null; then
  (cd "$TEST_TMP" && SYSBENCH_TEST_LOAD_DELAY=0.1 script -qfec \
    "$SB oltp_read_write ${size[*]} --tables=2 --threads=2 prepare ${MYSQL_ARGS[*]}" /dev/null) \
    >"$TEST_TMP/tty.out" 2>&1
  tty_out=$(tr -d '\r' <"$TEST_TMP/tty.out")
  like "$tty_out" $'\033\\[K  sbtest[12]: [0-9]+ of 20000 rows loaded \\([0-9.]+%\\), [0-9]+ rows/s, ETA [0-9hms]+' \
    "on a terminal, a live line per table being loaded (rows, rows/s, ETA)"
  unlike "$tty_out" "\[ [0-9.]+s \] loaded" "... instead of the plain lines"
  like "$tty_out" "Creating a secondary index on 'sbtest2'" "... and 1.0.20's messages above them"
  my oltp_read_write --tables=2 cleanup >/dev/null
else
  skip "script(1) is not installed (util-linux): no terminal to test the live lines on"
fi

# ---------------------------------------------------------------------------------------------
# The server refuses LOAD DATA LOCAL INFILE

sql "SET GLOBAL local_infile = 0"
my oltp_read_write "${size[@]}" --threads=2 prepare
is "$rc/$(checksum sbtest1)" "0/$reference" "with local_infile off, prepare loads the same table"
is "$(printf '%s\n' "$out" | grep -cE "^NOTE: the server refused LOAD DATA LOCAL INFILE \(error [0-9]+: .*\); loading with multi-row INSERTs$")" 1 \
  "... with INSERTs, saying so once"
my oltp_read_write cleanup >/dev/null
my oltp_read_write "${size[@]}" --prepare-method=load-data prepare
is "$rc" 1 "--prepare-method=load-data fails where the server refuses it"
like "$out" "errno = (1148|4166|3948)" "... with the server's error"
like "$out" "^FATAL: mysql_drv_query\(\) returned error (1148|4166|3948) \(.*\) for query 'LOAD DATA LOCAL INFILE " \
  "... naming the LOAD DATA statement the server refused"
unlike "$out" "for query 'CREATE TABLE" "... not the CREATE TABLE before it, which succeeded"
like "$out" "HINT: .*local_infile.*--prepare-method=insert" "... and what to do"
sql "SET GLOBAL local_infile = 1"
drop_all

# ---------------------------------------------------------------------------------------------
# Ctrl-C and --resume

# Interrupted once 3000 rows went out: the test delay falls inside each streamed statement, and
# one of the two threads (a table each, blocks of 1000 rows) has sent 1500 of them, so at least
# its first block is in and --resume has rows to find.
SYSBENCH_TEST_LOAD_DELAY=0.2 interrupt_when "\[ .*s \] loaded ([3-9][0-9]{3}|[0-9]{5,}) of" \
  oltp_read_write "${size[@]}" --tables=2 --threads=2 --report-interval=0.2 prepare "${MYSQL_ARGS[@]}"
is "$rc" 130 "prepare stopped by Ctrl-C exits 130 (128 + SIGINT)"
like "$out" "WARNING: prepare was interrupted by signal 2" "... says so"
like "$out" "Incomplete tables: sbtest1 \([0-9]+ of 20000 rows\), sbtest2 \([0-9]+ of 20000 rows\)" \
  "... and which tables are incomplete"
like "$out" "Run \`cleanup\` to drop the tables, or the same \`prepare\` with --resume" \
  "... and what to do next"
like "$(comment_of sbtest1)" "^sysbench prepare: incomplete; seed=11; rows=20000; k=special/" \
  "an interrupted table carries the marker"
num_cmp "$(sql 'SELECT COUNT(*) FROM sbtest1')" "<" 20000 "... and holds only part of the rows"

my oltp_read_write "${size[@]}" --tables=2 prepare
is "$rc" 1 "the next prepare refuses the incomplete tables"
like "$out" "HINT: sbtest[12] was left incomplete by an interrupted prepare: \`cleanup\` drops the tables, the same prepare with --resume finishes loading them" \
  "... naming cleanup and --resume"

my oltp_read_write --table-size=20000 --tables=2 --threads=3 --resume prepare
is "$rc" 0 "prepare --resume (other threads, the seed taken from the marker) finishes them"
like "$out" "Resuming table 'sbtest1', left incomplete by an interrupted prepare" "... saying so"
like "$out" "rows were there already \(--resume\)" "... and what it found"
is "$(checksum sbtest1)" "$reference" "... into exactly the table a fresh load gives"
is "$(comment_of sbtest1)/$(comment_of sbtest2)" "/" "... and takes the markers off"
my oltp_read_write "${size[@]}" --tables=2 verify
is "$rc" 0 "... verify finds both tables right"
my oltp_read_write "${size[@]}" --tables=2 --resume prepare
is "$rc" 0 "prepare --resume of complete tables succeeds"
like "$out" "Table 'sbtest2' is complete: kept \(--resume\)" "... and keeps them"
my oltp_read_write --tables=2 cleanup >/dev/null

# ---------------------------------------------------------------------------------------------
# 1.0.20's own oltp_common.lua first on the Lua path (./oltp_common.lua)

if [ -f /usr/share/sysbench/oltp_common.lua ]; then
  mkdir -p "$TEST_TMP/legacy"
  cp /usr/share/sysbench/oltp_common.lua "$TEST_TMP/legacy/"
  sb_in "$TEST_TMP/legacy" oltp_read_write --table-size=3000 --threads=2 prepare "${MYSQL_ARGS[@]}"
  is "$rc" 0 "with 1.0.20's oltp_common.lua first on the path, prepare is its own"
  unlike "$out" "Table sizes" "... (no size report)"
  sb_in "$TEST_TMP/legacy" oltp_read_write --table-size=3000 --threads=2 verify "${MYSQL_ARGS[@]}"
  is "$rc" 0 "... and verify is there (sysbench.oltp_compat adds it)"
  like "$out" "sbtest1: ok: 3000 rows, ids 1..3000 without gaps, index k_1 consistent with the rows" \
    "... checking the table 1.0.20's module loaded"
  sql "DELETE FROM sbtest1 WHERE id = 5"
  sb_in "$TEST_TMP/legacy" oltp_read_write --table-size=3000 verify "${MYSQL_ARGS[@]}"
  is "$rc" 1 "... and finding a missing row"
  drop_all
else
  skip "no /usr/share/sysbench/oltp_common.lua (sysbench 1.0.20 is not installed)"
fi

# ---------------------------------------------------------------------------------------------
# Tables the tool did not create

sql "CREATE TABLE sbtest1 (id INT PRIMARY KEY, k INT, c CHAR(120), pad CHAR(60))" \
    "INSERT INTO sbtest1 VALUES (1, 1, 'x', 'y'), (2, 2, 'x', 'y')"
my oltp_read_write "${size[@]}" prepare
is "$rc" 1 "prepare refuses a table it did not create"
like "$out" "HINT: sbtest1 exists already: \`cleanup\` drops sbtest1" "... naming cleanup"
my oltp_read_write "${size[@]}" --resume prepare
is "$rc" 1 "prepare --resume refuses it too"
like "$out" "was not left by an interrupted prepare, so --resume leaves it alone" "... saying why"
is "$(sql 'SELECT COUNT(*), MAX(id) FROM sbtest1' | tr '\t' ' ')/$(comment_of sbtest1)" "2 2/" \
  "... and leaves it as it was"
drop_all

done_testing
