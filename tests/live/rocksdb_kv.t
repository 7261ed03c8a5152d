#!/usr/bin/env bash
# rocksdb_kv.t: the embedded RocksDB driver on a temporary directory: the generic key-value
# Lua API, transactions under contention in each --rocksdb-txn mode, loading and checking
# tables, and the bad inputs (paths, locks, corruption, a full disk).
. "$(dirname "$0")/../lib/tap.sh"

need_driver rocksdb librocksdb-dev

db="$TEST_TMP/db"
kv() { sb "$@" --db-driver=rocksdb --rocksdb-path="$db"; }

# ---------------------------------------------------------------------------------------------
# The generic API

cat > "$TEST_TMP/api.lua" <<'EOF'
sysbench.cmdline.commands = {
  prepare = {function()
    local con = sysbench.sql.driver():connect()
    sysbench.kv.create_table(con, 1, 0, {})   -- creates the database; no rows
  end},
  api = {function()
    local con = sysbench.sql.driver():connect()
    con:kv_put("a", "1"); con:kv_put("b", "2"); con:kv_put("c", "3"); con:kv_put("d\0x", "4")
    print("get", con:kv_get("b"), tostring(con:kv_get("zz")))
    local v = con:kv_multi_get({"a", "nope", "c"})
    print("multi", v[1], tostring(v[2]), v[3])
    local keys = {}
    for k, val in con:kv_scan("b", 0) do keys[#keys + 1] = k .. "=" .. val end
    print("scan", table.concat(keys, ","):gsub("%z", "\\0"))
    keys = {}
    for k, val in con:kv_scan("a", 2) do keys[#keys + 1] = k end
    print("limit", table.concat(keys, ","))
    keys = {}
    for k, val in con:kv_scan("a", 0, "c") do keys[#keys + 1] = k end
    print("upper", table.concat(keys, ","))
    con:kv_delete("a")
    print("deleted", tostring(con:kv_get("a")))
    local b = con:kv_batch(); b:put("x", "9"); b:delete("b"); b:write()
    print("batch", con:kv_get("x"), tostring(con:kv_get("b")))
    con:query("BEGIN"); con:kv_put("t", "in-txn"); con:query("ROLLBACK")
    print("rollback", tostring(con:kv_get("t")))
    con:query("BEGIN"); con:kv_put("t", "kept"); con:query("COMMIT")
    print("commit", con:kv_get("t"))
  end},
}
EOF
kv "$TEST_TMP/api.lua" prepare
is "$rc" 0 "prepare of a script creates the database directory"
[ -f "$db/SYSBENCH-CREATED" ] && [ -f "$db/CURRENT" ]
ok $? "the new directory holds a RocksDB database and our marker file"
kv "$TEST_TMP/api.lua" api
is "$rc" 0 "the key-value API script runs"
like "$out" "get	2	nil" "kv_get returns the value, and nil for a missing key"
like "$out" "multi	1	nil	3" "kv_multi_get returns values in key order with nil holes"
like "$out" 'scan	b=2,c=3,d\\0x=4' "kv_scan walks keys in order from the start key, binary keys intact"
like "$out" "limit	a,b" "kv_scan stops at its limit"
like "$out" "upper	a,b" "kv_scan stops before its upper bound"
like "$out" "deleted	nil" "kv_delete removes a key"
like "$out" "batch	9	nil" "a batch's puts and deletes are written together"
like "$out" "rollback	nil" "ROLLBACK discards a transaction's writes"
like "$out" "commit	kept" "COMMIT keeps them"

# ---------------------------------------------------------------------------------------------
# Counting: reads, writes and other as a SQL server would count them

cat > "$TEST_TMP/count.lua" <<'EOF'
function thread_init() con = sysbench.sql.driver():connect() end
function event()
  con:query("BEGIN")
  con:kv_put("k" .. sysbench.tid, "v")
  local v = con:kv_get("k" .. sysbench.tid)
  con:query("COMMIT")
end
EOF
kv "$TEST_TMP/count.lua" run --events=100 --time=0 --threads=2
is "$rc" 0 "a counting run succeeds"
like "$out" "read: +100$" "each kv_get counts as one read"
like "$out" "write: +100$" "each kv_put counts as one write"
like "$out" "other: +200$" "BEGIN and COMMIT count as other"
like "$out" "transactions: +100 " "100 events"

# ---------------------------------------------------------------------------------------------
# Transactions under contention: every increment survives in the transactional modes

cat > "$TEST_TMP/contend.lua" <<'EOF'
sysbench.cmdline.commands = {
  setup = {function()
    local con = sysbench.sql.driver():connect()
    for i = 1, 2 do con:kv_put("ctr" .. i, "0") end
  end},
  total = {function()
    local con = sysbench.sql.driver():connect()
    print("total", tonumber(con:kv_get("ctr1")) + tonumber(con:kv_get("ctr2")))
  end},
}
function thread_init() con = sysbench.sql.driver():connect() end
function event()
  con:query("BEGIN")
  for i = 1, 2 do
    local key = "ctr" .. i
    local v = tonumber(con:kv_get(key, true))
    con:kv_put(key, tostring(v + 1))
  end
  con:query("COMMIT")
end
EOF
for mode in pessimistic optimistic; do
  kv "$TEST_TMP/contend.lua" setup
  kv "$TEST_TMP/contend.lua" run --rocksdb-txn=$mode --threads=4 --events=2000 --time=0
  is "$rc" 0 "--rocksdb-txn=$mode: conflicting transactions run to the end"
  like "$out" "transactions: +2000 " "--rocksdb-txn=$mode: exactly 2000 transactions committed"
  conflicts=$(field "$out" "ignored errors:")
  kv "$TEST_TMP/contend.lua" total
  like "$out" "total	4000" "--rocksdb-txn=$mode: no increment lost (2 counters x 2000 = 4000)"
  [ "$mode" = optimistic ] && num_cmp "$conflicts" ">=" 0 "--rocksdb-txn=optimistic: conflicts are counted as ignored errors ($conflicts)"
done

# ---------------------------------------------------------------------------------------------
# Loading tables and reading them back

cat > "$TEST_TMP/load.lua" <<'EOF'
sysbench.cmdline.options = { table_size = {"rows", 20000}, tables = {"tables", 2} }
local c_tpl = string.rep("###########", 10, "-")
local pad_tpl = string.rep("###########", 5, "-")
sysbench.cmdline.commands = {
  prepare = {function()
    local con = sysbench.sql.driver():connect()
    for t = 1, sysbench.opt.tables do
      sysbench.kv.create_table(con, t, sysbench.opt.table_size, {secondary_index = true,
        slice = sysbench.tid, slices = sysbench.opt.threads, c_template = c_tpl,
        pad_template = pad_tpl})
    end
  end, sysbench.cmdline.PARALLEL_COMMAND},
  check = {function()
    local con = sysbench.sql.driver():connect()
    for t = 1, sysbench.opt.tables do
      local ok, msg = sysbench.kv.check_table(con, t)
      print(ok and "OK" or "BAD", msg)
    end
  end},
  cleanup = {function()
    local con = sysbench.sql.driver():connect()
    for t = 1, sysbench.opt.tables do sysbench.kv.drop_table(con, t) end
  end},
}
EOF
rm -rf "$db"
kv "$TEST_TMP/load.lua" prepare --threads=3
is "$rc" 0 "two tables load in parallel, split across 3 threads"
like "$out" "Loaded 40000 rows into 2 table\(s\)" "the load reports the rows it wrote"
like "$out" "Data size: [0-9.]+ MiB logical .*[0-9.]+ MiB on disk, ratio [0-9.]+" "the load reports logical and on-disk size"
kv "$TEST_TMP/load.lua" check
like "$out" "OK	sbtest1: 20000 rows \(loaded 20000, from --rand-seed=[0-9]+\), checksum matches, secondary index consistent \(20000 entries, 0 wrong\)" "table 1 reads back exactly as written, index included"
like "$out" "OK	sbtest2: 20000 rows" "table 2 reads back exactly as written"

kv "$TEST_TMP/load.lua" prepare --threads=3
is "$rc" 1 "preparing tables that exist fails"
like "$out" "Table 'sbtest1' already exists" "... saying which table exists"
kv "$TEST_TMP/load.lua" check
like "$out" "OK	sbtest1: 20000 rows" "... and leaves the existing data untouched"

kv "$TEST_TMP/load.lua" cleanup
is "$rc" 0 "cleanup drops the tables"
[ ! -e "$db" ]
ok $? "cleanup removes the directory it created once no table is left"

# A directory we did not create is never removed, only the files of the database.
mkdir -p "$TEST_TMP/own"
db="$TEST_TMP/own/db"
kv "$TEST_TMP/load.lua" prepare --threads=1 --tables=1 --table-size=100
rm -f "$db/SYSBENCH-CREATED"
kv "$TEST_TMP/load.lua" cleanup --tables=1
is "$rc" 0 "cleanup of a directory without our marker succeeds"
like "$out" "^Removed the files of the RocksDB database from '$db' and kept the directory, which existed before prepare$" \
  "... removing the database's files, saying it keeps the directory"
is "$(ls -A "$db" | tr '\n' ' ')" "" "... which is left empty"

# ---------------------------------------------------------------------------------------------
# Bad input: one clear line, exit 1, nothing touched

db="$TEST_TMP/missing"
kv "$TEST_TMP/count.lua" run --events=1
is "$rc" 1 "run without a database fails"
like "$out" "No RocksDB database at '.*missing': run the 'prepare' command first" "... telling the user to prepare"
kv "$TEST_TMP/count.lua" run --events=1 --threads=3
is "$rc/$(count "$out" "No RocksDB database at|last message repeated")/$(count "$out" "function failed")" \
  "1/1/1" "with 3 threads: the driver's line and the script's once, not once per thread"
kv "$TEST_TMP/count.lua" run --events=1 --threads=3 --rocksdb-options-file="$TEST_TMP/no-such-file"
is "$rc/$out" "1/FATAL: Invalid value for --rocksdb-options-file: $TEST_TMP/no-such-file (expected the path of a readable RocksDB OPTIONS file)" \
  "an OPTIONS file that cannot be read: one line, before anything runs"
[ ! -e "$db" ]
ok $? "... without creating a directory"

mkdir -p "$TEST_TMP/notdb"; echo hello > "$TEST_TMP/notdb/file.txt"
db="$TEST_TMP/notdb"
kv "$TEST_TMP/api.lua" prepare
is "$rc" 1 "a non-empty directory that is not a RocksDB database is refused"
like "$out" "is not a RocksDB database \(no CURRENT file\) and not empty" "... with the reason"
is "$(ls "$TEST_TMP/notdb")" "file.txt" "... and its contents untouched"

if [ "$(id -u)" != 0 ]; then
  mkdir -p "$TEST_TMP/ro"; chmod 555 "$TEST_TMP/ro"
  db="$TEST_TMP/ro/db"
  kv "$TEST_TMP/api.lua" prepare
  is "$rc" 1 "an unwritable parent directory is refused"
  like "$out" "Cannot create the RocksDB directory" "... with the reason"
else
  db="/proc/sbtest-db"
  kv "$TEST_TMP/api.lua" prepare
  is "$rc" 1 "an unwritable path is refused"
  like "$out" "Cannot create the RocksDB directory '/proc/sbtest-db'" "... with the reason"
fi

db="$TEST_TMP/locked"
kv "$TEST_TMP/api.lua" prepare
cat > "$TEST_TMP/open.lua" <<'EOF'
function thread_init() sysbench.sql.driver():connect() end
function event() end
EOF
cat > "$TEST_TMP/hold.lua" <<'EOF'
ffi.cdef "int usleep(unsigned int);"
function thread_init() con = sysbench.sql.driver():connect() end
function event() ffi.C.usleep(100000) end
EOF
(cd "$TEST_TMP" && exec "$SB" hold.lua --db-driver=rocksdb --rocksdb-path="$db" --time=4 run \
  >/dev/null 2>&1) &
holder=$!
sleep 1.5
kv "$TEST_TMP/open.lua" run --events=1
is "$rc" 1 "a database held by another process is refused"
like "$out" "in use by another process" "... saying it is locked"
wait $holder

db="$TEST_TMP/corrupt"
kv "$TEST_TMP/api.lua" prepare
manifest=$(ls "$db"/MANIFEST-* | head -1)
head -c 64 /dev/urandom > "$manifest"
kv "$TEST_TMP/open.lua" run --events=1
is "$rc" 1 "a damaged database is refused"
like "$out" "FATAL: .*(damaged|Corruption|corrupt)" "... with RocksDB's diagnosis"

if [ "$(id -u)" = 0 ] && mkdir -p "$TEST_TMP/small" &&
   mount -t tmpfs -o size=3m tmpfs "$TEST_TMP/small" 2>/dev/null; then
  db="$TEST_TMP/small/db"
  kv "$TEST_TMP/load.lua" prepare --tables=1 --table-size=200000 --threads=1
  is "$rc" 1 "a load that fills the disk fails"
  like "$out" "(No space left|space)" "... naming the full disk"
  umount "$TEST_TMP/small"
else
  skip "full-disk check needs root to mount a small tmpfs"
fi

# An INSERT of an id that exists: error 1062 with transactions (as MySQL); without them
# (--rocksdb-txn=none) the row is replaced, with or without the secondary index.
cat > "$TEST_TMP/dup.lua" <<'EOF'
sysbench.cmdline.commands = {
  prepare = {function()
    local con = sysbench.sql.driver():connect()
    sysbench.kv.create_table(con, 1, 10, {secondary_index = os.getenv("SECONDARY") == "1"})
  end},
  dup = {function()
    local con = sysbench.sql.driver():connect()
    local ins = con:prepare_kv("inserts", 1)
    local p = {ins:bind_create(sysbench.sql.type.INT), ins:bind_create(sysbench.sql.type.INT),
               ins:bind_create(sysbench.sql.type.CHAR, 120), ins:bind_create(sysbench.sql.type.CHAR, 60)}
    ins:bind_param(unpack(p))
    p[1]:set(5); p[2]:set(77); p[3]:set("replaced"); p[4]:set("pad")
    local ok, err = pcall(ins.execute, ins)
    print("insert", ok, ok and "" or (type(err) == "table" and err.sql_errno or tostring(err)))
    local sel = con:prepare_kv("point_selects", 1)
    local q = {sel:bind_create(sysbench.sql.type.INT)}
    sel:bind_param(unpack(q)); q[1]:set(5)
    local rs = sel:execute()
    print("row", rs:fetch_row()[1])
  end},
}
EOF
for mode in none pessimistic; do
  for secondary in 0 1; do
    d="$TEST_TMP/dup-$mode-$secondary"
    SECONDARY=$secondary sb "$TEST_TMP/dup.lua" --db-driver=rocksdb --rocksdb-path="$d" \
      --rocksdb-txn=$mode prepare
    SECONDARY=$secondary sb "$TEST_TMP/dup.lua" --db-driver=rocksdb --rocksdb-path="$d" \
      --rocksdb-txn=$mode dup
    if [ $mode = none ]; then
      like "$out" "^insert	true	$" "txn=none, secondary index $secondary: an INSERT of an existing id succeeds"
      like "$out" "^row	replaced$" "... and replaces the row"
    else
      like "$out" "^insert	false	SQL error, errno = 1062, state = '23000': Duplicate entry '5' for key 'PRIMARY'$" \
           "txn=$mode, secondary index $secondary: an INSERT of an existing id is error 1062"
      unlike "$out" "^row	replaced$" "... and the row stays"
    fi
  done
done

done_testing
