#!/usr/bin/env bash
# sql_api.t: the SQL API of sysbench.sql and the 0.5-era db_* functions against a private
# MariaDB, differentially: every error path (a statement on a missing table, a syntax error,
# a duplicate key, misuse of closed connections, statements and result sets, a bad password,
# bad driver names and options) and the normal paths with their read/write/other counts.
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/mysql.sh"
. "$SRCDIR/tests/lib/compat.sh"

mysql_sandbox_start

sql "CREATE TABLE sbtest.t (id INT PRIMARY KEY, v INT NOT NULL)" \
    "INSERT INTO sbtest.t SELECT seq, seq * 10 FROM seq_1_to_20"

# case NAME SCRIPT-BODY [ARGS...]: the script as a custom command 'go', through both binaries
case_cmd() {
  local name=$1 body=$2
  shift 2
  printf 'sysbench.cmdline.commands = { go = { function()\n%s\nend } }\n' "$body" > "$TEST_TMP/c.lua"
  same "$name" --db --file c.lua -- c.lua go "$@"
}
# case_run NAME SCRIPT-BODY [ARGS...]: the body as event(), one event, after a thread_init
# that connects; case_fails: the same for a body that stops the run
case_run() {
  local name=$1 body=$2
  shift 2
  printf 'function thread_init()\n  drv = sysbench.sql.driver()\n  con = drv:connect()\nend\nfunction event()\n%s\nend\n' \
    "$body" > "$TEST_TMP/r.lua"
  same "$name" --db ${allow:+--allow $allow} --file r.lua -- r.lua run --events=1 "$@"
}
case_fails() { allow=report-after-fatal-error case_run "$@"; }

# ---- the normal paths ---------------------------------------------------------------------------
case_cmd "query, fetch_row, nrows, nfields" '
local con = sysbench.sql.driver():connect()
local rs = con:query("SELECT id, v, NULL FROM t WHERE id <= 3 ORDER BY id")
print(rs.nrows, rs.nfields)
for i = 1, rs.nrows do local r = rs:fetch_row(); print(r[1], r[2], r[3]) end
print(con:query_row("SELECT v, id FROM t WHERE id = 7"))
print(con:query("UPDATE t SET v = v WHERE id = 1") == nil)
con:disconnect()'
case_cmd "prepared statements with integer and string binds" '
local con = sysbench.sql.driver():connect()
local st = con:prepare("UPDATE t SET v = ? WHERE id = ? OR id = ? OR id = ? OR v = ?")
local T = sysbench.sql.type
local p = { st:bind_create(T.TINYINT), st:bind_create(T.SMALLINT), st:bind_create(T.INT),
            st:bind_create(T.BIGINT), st:bind_create(T.VARCHAR, 10) }
st:bind_param(unpack(p))
p[1]:set(10) p[2]:set(1) p[3]:set(70000) p[4]:set(5000000000) p[5]:set("abc")
print(st:execute() == nil)
st:close()
con:disconnect()'
case_cmd "driver name and connection methods" '
local drv = sysbench.sql.driver()
print(drv:name())
local con = drv:connect()
print(type(con.query), type(con.prepare), type(con.bulk_insert_init), type(con.query_row))
con:bulk_insert_init("INSERT INTO t2 VALUES")
con:disconnect()' 
sql "CREATE TABLE sbtest.t2 (a INT)"
case_cmd "bulk insert" '
local con = sysbench.sql.driver():connect()
con:query("DELETE FROM t2")
con:bulk_insert_init("INSERT INTO t2 VALUES")
for i = 1, 1000 do con:bulk_insert_next("(" .. i .. ")") end
con:bulk_insert_done()
print(con:query_row("SELECT COUNT(*), SUM(a) FROM t2"))'

# ---- errors of the SQL API ------------------------------------------------------------------------
case_cmd "prepare on a missing table" '
local con = sysbench.sql.driver():connect()
local st = con:prepare("SELECT * FROM nonexisting WHERE id = ?")'
case_cmd "prepare on a missing table, --db-ps-mode=disable" '
local con = sysbench.sql.driver():connect()
local st = con:prepare("SELECT * FROM nonexisting WHERE id = ?")
print(st)' --db-ps-mode=disable
case_cmd "query on a missing table" '
local con = sysbench.sql.driver():connect()
con:query("SELECT * FROM nonexisting")'
case_cmd "query_row on a missing table" '
local con = sysbench.sql.driver():connect()
print(con:query_row("SELECT * FROM nonexisting"))'
case_cmd "query_row without rows" '
local con = sysbench.sql.driver():connect()
print(con:query_row("SELECT id FROM t WHERE id = 1000"))'
case_cmd "a syntax error" '
local con = sysbench.sql.driver():connect()
con:query("SELEKT 1")'
case_cmd "a duplicate key" '
local con = sysbench.sql.driver():connect()
con:query("INSERT INTO t VALUES (1, 1)")'
case_cmd "free a result set twice" '
local con = sysbench.sql.driver():connect()
local rs = con:query("SELECT 1")
rs:free()
rs:free()
print("after")'
case_cmd "use a closed connection" '
local con = sysbench.sql.driver():connect()
con:disconnect()
print(con:query("SELECT 1"))
print("after")'
case_cmd "close a connection twice" '
local con = sysbench.sql.driver():connect()
con:disconnect()
con:disconnect()
print("after")'

sql "CREATE TABLE IF NOT EXISTS sbtest.t2 (a INT)"
. "$SRCDIR/tests/lib/sql_api_cases.sh"
sql_api_result_cases case_cmd

# What 1.0.20 crashes on (SIGSEGV), ours reports: ours alone (differences.txt: no-crash-on-misuse)
declared no-crash-on-misuse fetch-prepared-rows
ours_cmd() {   # ours_cmd NAME BODY: the body as command 'go' through our binary alone
  printf 'sysbench.cmdline.commands = { go = { function()\n%s\nend } }\n' "$2" > "$TEST_TMP/o.lua"
  my "$TEST_TMP/o.lua" go
  out=$(printf '%s\n' "$out" | sed '1{/^sysbench /d}' | sed '1{/^$/d}')
}
ours_cmd "close twice" 'local con = sysbench.sql.driver():connect()
local st = con:prepare("SELECT 1")
st:close()
st:close()
print("after")'
is "$rc:$out" "0:$(printf 'ALERT: attempt to close an already closed statement\nafter')" \
   "closing a statement twice: an ALERT line, no crash (1.0.20: SIGSEGV)"
ours_cmd "execute closed" 'local con = sysbench.sql.driver():connect()
local st = con:prepare("SELECT 1")
st:close()
st:execute()'
like "$out" "ALERT: attempt to use an already closed statement" \
   "executing a closed statement: an ALERT line (1.0.20: SIGSEGV)"
like "$out" "function failed: [^ ]*o.lua:5: SQL API error$" "... and the script's 'SQL API error'"
is "$rc" 1 "... exit 1"
ours_cmd "use the result of an UPDATE" 'local con = sysbench.sql.driver():connect()
local rs = con:query("UPDATE t SET v = v + 0 WHERE id < 4")
print(rs, rs.nrows, rs.nfields, rs:fetch_row(), rs:free())
rs = con:prepare("UPDATE t SET v = v + 0 WHERE id < 4"):execute()
print(rs, rs.nrows, rs.nfields, rs:fetch_row(), rs:free())'
is "$rc:$out" "$(printf '0:<sql_result>\t0\t0\tnil\ttrue\tdb_free_results() failed\n<sql_result>\t0\t0\tnil\ttrue\tdb_free_results() failed')" \
   "the result of a statement without rows is an empty one (1.0.20: a NULL pointer that crashes when used)"
ours_cmd "double param" 'local con = sysbench.sql.driver():connect()
local st = con:prepare("SELECT ? + 1, ?")
local d, s = st:bind_create(sysbench.sql.type.DOUBLE), st:bind_create(sysbench.sql.type.VARCHAR, 8)
st:bind_param(d, s)
d:set(1.5) s:set("x")
local r = st:execute():fetch_row()
print(r[1], r[2])
s:set(nil)
print(st:execute():fetch_row()[2])'
is "$rc:$out" "$(printf '0:2.5\tx\nnil')" \
   "DOUBLE parameters and rows of prepared statements (1.0.20: corrupts memory, no rows)"

case_cmd "bind_param with too many parameters" '
local con = sysbench.sql.driver():connect()
local st = con:prepare("SELECT ?")
local a, b = st:bind_create(sysbench.sql.type.INT), st:bind_create(sysbench.sql.type.INT)
st:bind_param(a, b)
print("after")'
case_cmd "an unknown bind type" '
local con = sysbench.sql.driver():connect()
local st = con:prepare("SELECT ?")
local a = st:bind_create(12345)
print("after")'

case_fails "an SQL error in event()" 'con:query("SELECT * FROM nonexisting")'
case_fails "a duplicate key in event()" 'con:query("INSERT INTO t VALUES (2, 2)")'
# an ignored error restarts the event: fail on the first try only
case_run "an ignored error in event() (--mysql-ignore-errors=1062)" '
tries = (tries or 0) + 1
if tries == 1 then con:query("INSERT INTO t VALUES (2, 2)") end' --mysql-ignore-errors=1062
case_run "--mysql-ignore-errors=all" '
tries = (tries or 0) + 1
if tries < 3 then con:query("SELECT * FROM nonexisting") end' --mysql-ignore-errors=all

# the sql_error_ignorable hook
printf '%s\n' 'function thread_init() con = sysbench.sql.driver():connect() end' \
  'local n = 0' \
  'function event() n = n + 1; if n == 1 then con:query("SELECT * FROM nonexisting") end end' \
  'sysbench.hooks.sql_error_ignorable = function(err) print("hook", err.sql_errno, err.sql_state, err.sql_errmsg); return true end' \
  > "$TEST_TMP/hook.lua"
same "the sql_error_ignorable hook" --db --file hook.lua -- hook.lua run --events=3

# ---- the 0.5-era db_* API -------------------------------------------------------------------------
printf '%s\n' 'function event()' \
  '  db_connect()' \
  '  local rs = db_query("SELECT id FROM t WHERE id < 3")' \
  '  db_query("UPDATE t SET v = v WHERE id = 1")' \
  '  local st = db_prepare("SELECT v FROM t WHERE id = ?")' \
  '  local p = {1}' \
  '  db_bind_param(st, p)' \
  '  local rs2 = db_execute(st)' \
  '  db_store_results(rs2)' \
  '  db_free_results(rs2)' \
  '  db_close(st)' \
  '  db_disconnect()' \
  'end' > "$TEST_TMP/legacy.lua"
same "db_connect, db_query, db_prepare, db_bind_param, db_execute" --db --file legacy.lua -- \
     legacy.lua run --events=2
printf '%s\n' 'function event()' \
  '  db_connect()' \
  '  db_query("SELECT * FROM nonexisting")' \
  'end' > "$TEST_TMP/legacy_err.lua"
same "db_query on a missing table" --db --allow report-after-fatal-error --file legacy_err.lua -- \
     legacy_err.lua run --events=1
printf '%s\n' 'function event()' \
  '  db_connect()' \
  '  local rs = db_query("SELECT 1")' \
  '  db_free_results(rs)' \
  '  db_free_results(rs)' \
  'end' > "$TEST_TMP/legacy_free.lua"
same "db_free_results twice" --db --allow report-after-fatal-error --file legacy_free.lua -- \
     legacy_free.lua run --events=1

# ---- connections and driver options --------------------------------------------------------------
printf 'function thread_init() con = sysbench.sql.driver():connect() end\nfunction event() end\n' \
  > "$TEST_TMP/conn.lua"
same "a wrong password" --file conn.lua -- conn.lua run --events=1 --mysql-host="$MYSQL_HOST" \
     --mysql-port="$MYSQL_PORT" --mysql-user="$MYSQL_USER" --mysql-password=wrong-pw
# 1.0.20 says it once per thread; ours once (differences.txt: connect-failure-once)
declared connect-failure-once driver-options-once
sb conn.lua run --events=1 --threads=3 --mysql-host="$MYSQL_HOST" --mysql-port="$MYSQL_PORT" \
   --mysql-user="$MYSQL_USER" --mysql-password=wrong-pw
is "$rc" 1 "a wrong password with 3 threads: exit 1"
is "$(count "$out" "^FATAL: unable to connect to MySQL server on host")/$(count "$out" "^FATAL: error 1045")/$(count "$out" "thread_init' function failed: .*connection creation failed$")/$(count "$out" "^FATAL: Thread initialization failed!$")" \
   "1/1/1/1" "... each of 1.0.20's lines once, not once per thread"
unlike "$out" "sbtest-pw|wrong-pw" "... and no password in the output"
# (sorted: 1.0.20's threads print their lines in any order)
same "a wrong password, 3 threads (each line once)" --allow connect-failure-once --sort \
     --file conn.lua -- \
     conn.lua run --events=1 --threads=3 --mysql-host="$MYSQL_HOST" --mysql-port="$MYSQL_PORT" \
     --mysql-user="$MYSQL_USER" --mysql-password=wrong-pw
same "a port nobody listens on" --file conn.lua -- conn.lua run --events=1 \
     --mysql-host=127.0.0.1 --mysql-port="$(free_port)"
same "a port nobody listens on, 3 threads (each line once)" --allow connect-failure-once --sort \
     --file conn.lua -- conn.lua run --events=1 --threads=3 --mysql-host=127.0.0.1 \
     --mysql-port="$(free_port)"
# An unknown driver name or --db-ps-mode: 1.0.20's lines, when a script first asks for a
# driver (1.0.20: from every thread; ours once, and every thread in the exact mode), the
# header first, and our HINT after all of 1.0.20's lines.
last_line() { printf '%s\n' "$1" | tail -n 1; }
drivers=$("$SB" --help | sed -n '/^Compiled-in database drivers:/,/^$/s/^  \([a-z]*\) - .*/\1/p' |
          paste -sd, - | sed 's/,/, /g')
for threads in 1 3; do
  same "an unknown database driver, $threads thread(s)" --db --allow driver-options-once \
       --file conn.lua -- conn.lua run --events=1 --threads=$threads --db-driver=x
  is "$(last_line "$out")" "HINT: --db-driver expects one of the drivers compiled in: $drivers" \
     "... and last, a hint naming the drivers compiled in"
done
same "--db-driver=help" --db --allow driver-options-once --file conn.lua -- \
     conn.lua run --events=1 --db-driver=help
same "an unknown database driver in a parallel prepare" --db --allow driver-options-once \
     --allow errors-exit-1 -- oltp_read_write prepare --threads=3 --db-driver=x
same "an unknown database driver in cleanup of a bundled workload" --db -- \
     oltp_read_write cleanup --db-driver=x
like "$(last_line "$out")" "^HINT: --db-driver expects " "... the hint after 1.0.20's lines"
same "an unknown database driver in prepare, one thread" --db -- \
     oltp_read_write prepare --db-driver=x
same "an unknown database driver in prewarm" --db -- oltp_read_write prewarm --db-driver=x
same "an unknown database driver: help works" --db -- oltp_read_write help --db-driver=x
same "an unknown database driver: a script without cleanup says so" --db --file conn.lua -- \
     conn.lua cleanup --db-driver=x
same "an unknown database driver: a test using no database runs" -- \
     cpu run --events=1 --cpu-max-prime=10 --db-driver=x
same "an unknown --db-ps-mode in run" --db --allow driver-options-once --file conn.lua -- \
     conn.lua run --events=1 --db-ps-mode=x
like "$(last_line "$out")" "^HINT: --db-ps-mode expects auto or disable" \
     "... the hint after 1.0.20's lines"
same "an unknown --db-ps-mode in cleanup of a bundled workload" --db -- \
     oltp_read_write cleanup --db-ps-mode=x
same "an unknown --db-ps-mode and --db-driver: --db-ps-mode's line" --db \
     --allow driver-options-once --file conn.lua -- conn.lua run --events=1 --db-ps-mode=x \
     --db-driver=x
# The exact mode prints a thread_init failure in every thread, as 1.0.20 does (lines of their
# own, so that no logger folds them; the same line in every thread: tests/cli/exact_output.t).
write tid_fail.lua <<'LUA'
function thread_init() error("thread " .. sysbench.tid .. " cannot start") end
function event() end
LUA
SYSBENCH_COMPAT=1.0.20 sb tid_fail.lua run --threads=3 --events=1
is "$(count "$out" "thread_init' function failed: tid_fail.lua:1: thread [0-2] cannot start$")" 3 \
   "exact mode: thread_init's failure in each of 3 threads, as 1.0.20"
sb tid_fail.lua run --threads=3 --events=1
is "$(count "$out" "thread_init' function failed")" 3 \
   "... and as it is: the logger says a line once, and each thread's is another"
for bad in --mysql-port=abc --mysql-port=3306,70000 --mysql-ignore-errors=abc --mysql-ssl=maybe; do
  sb conn.lua run --events=1 "$bad"
  is "$rc" 1 "$bad: exit 1"
  like "$out" "^FATAL: Invalid value for ${bad%%=*}: " "$bad: one line naming the option ..."
  unlike "$out" "Threads started|Initializing worker" "$bad: ... before anything runs"
done
# values 1.0.20 takes that work
same "--mysql-ignore-errors=ALL,1062" --db --file conn.lua -- conn.lua run --events=2 \
     --mysql-ignore-errors=ALL,1062
same "--mysql-compression=on" --db --file conn.lua -- conn.lua run --events=2 --mysql-compression=on
same "--mysql-compression=maybe" --db --file conn.lua -- conn.lua run --events=2 --mysql-compression=maybe
same "--mysql-dry-run=maybe" --db --file conn.lua -- conn.lua run --events=2 --mysql-dry-run=maybe
same "--db-debug=on" --db --file conn.lua -- conn.lua run --events=2 --db-debug=on
same "--db-debug=maybe" --db --file conn.lua -- conn.lua run --events=2 --db-debug=maybe
same "--mysql-socket to a missing file" --file conn.lua -- conn.lua run --events=2 \
     --mysql-socket=/nonexistent.sock --mysql-user=sbtest --mysql-password=x
same "--mysql-ssl-cipher" --db --file conn.lua -- conn.lua run --events=2 --mysql-ssl-cipher=xyz
same "an unknown database" --file conn.lua -- conn.lua run --events=1 --mysql-host="$MYSQL_HOST" \
     --mysql-port="$MYSQL_PORT" --mysql-user="$MYSQL_USER" --mysql-password="$MYSQL_PASSWORD" \
     --mysql-db=nosuchdb

done_testing
