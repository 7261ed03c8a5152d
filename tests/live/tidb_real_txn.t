#!/usr/bin/env bash
# tidb_real_txn.t: the tidb driver's connections and transactions against a real TiDB
# (tests/lib/tidb.sh): TiDB is accepted and MariaDB refused; --tidb-txn-mode and
# --tidb-session-vars reach every connection; conflicts made on purpose by a second
# connection (9007 in optimistic mode, 1205 in pessimistic mode) are retried and counted per
# code, exactly, where 1.0.20 stops; many threads on few rows in both modes finish every event;
# connections killed by the server (KILL) reconnect with their session settings; a dead
# server beside the live one is skipped.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/tidb.sh"

tidb_server_start
db=sbtest_txn_$$
tsql "CREATE DATABASE $db"
tsql -D "$db" "CREATE TABLE hot (id INT PRIMARY KEY, v INT NOT NULL); INSERT INTO hot VALUES (1, 0), (2, 0)"
o() { tidb "$@" --mysql-db="$db"; }
q() { tsql -D "$db" "$1"; }
mariadb_dir=""
cleanup_all() {
  [ -n "$mariadb_dir" ] && "$SRCDIR/scripts/mariadb-sandbox.sh" stop "$mariadb_dir" --remove >/dev/null 2>&1
  [ "$TIDB_OWN" = 1 ] || tsql "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1
  _tidb_cleanup
}
trap cleanup_all EXIT

# ---------------------------------------------------------------------------------------------
# TiDB is accepted, MariaDB is not

cat > "$TEST_TMP/ping.lua" <<'EOF'
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT 1") end
EOF
o ping.lua --events=10 --time=0 run
is "$rc" 0 "the tidb driver accepts a real TiDB"
like "$out" "^TiDB servers:$" "... and adds the per-server section"
like "$out" "host '127.0.0.1', port $TIDB_PORT +connections: 1 +queries: 10 +failed connects: 0$" \
     "... with this server's one connection and 10 queries"

mariadb_dir=$(mktemp -d /tmp/tidb-mariadb.XXXXXX)
if "$SRCDIR/scripts/mariadb-sandbox.sh" start "$mariadb_dir" >"$TEST_TMP/mariadb.log" 2>&1; then
  . "$mariadb_dir/env"
  sb ping.lua --db-driver=tidb --mysql-host="$MYSQL_HOST" --mysql-port="$MYSQL_PORT" \
     --mysql-user="$MYSQL_USER" --mysql-password="$MYSQL_PASSWORD" --mysql-db="$MYSQL_DB" \
     --events=10 --time=0 run
  is "$rc" 1 "the tidb driver refuses MariaDB"
  like "$out" "The server on host '127.0.0.1', port $MYSQL_PORT is not TiDB \(SELECT tidb_version\(\) failed: .*\): use --db-driver=mysql for MySQL or MariaDB" \
       "... saying which server and what to use"
  unlike "$out" "TiDB servers:" "... before running anything"
elif [ "${CI:-}" = true ]; then
  fail "a MariaDB sandbox starts: $(tail -1 "$TEST_TMP/mariadb.log")"
else
  skip "cannot start a MariaDB sandbox: $(tail -1 "$TEST_TMP/mariadb.log")"
fi

# ---------------------------------------------------------------------------------------------
# Session settings on every connection

cat > "$TEST_TMP/show.lua" <<'EOF'
sysbench.cmdline.options = {vars = {"variables to print", "tidb_txn_mode"}}
function thread_init() con = sysbench.sql.driver():connect() end
function event()
  for name in string.gmatch(sysbench.opt.vars, "[^,]+") do
    print(name .. "=" .. tostring(con:query_row("SELECT @@session." .. name)))
  end
end
EOF
o show.lua --tidb-txn-mode=optimistic --events=1 --time=0 run
like "$out" "^tidb_txn_mode=optimistic$" "--tidb-txn-mode=optimistic is set on the connection"
o show.lua --tidb-txn-mode=pessimistic --events=1 --time=0 run
like "$out" "^tidb_txn_mode=pessimistic$" "--tidb-txn-mode=pessimistic is set on the connection"

vars="tidb_distsql_scan_concurrency=30,sql_mode='STRICT_ALL_TABLES,NO_ZERO_DATE',tidb_enable_async_commit=OFF,tidb_mem_quota_query=536870912"
o show.lua --tidb-session-vars="$vars" \
   --vars=tidb_distsql_scan_concurrency,sql_mode,tidb_enable_async_commit,tidb_mem_quota_query \
   --events=1 --time=0 run
is "$rc" 0 "--tidb-session-vars with numbers, a quoted list and ON/OFF is taken by TiDB"
like "$out" "^tidb_distsql_scan_concurrency=30$" "... a number"
like "$out" "^sql_mode=STRICT_ALL_TABLES,NO_ZERO_DATE$" "... a quoted value with a comma"
like "$out" "^tidb_enable_async_commit=0$" "... OFF"
like "$out" "^tidb_mem_quota_query=536870912$" "... a big number"
o show.lua --tidb-session-vars="tidb_no_such_variable=1" --events=1 --time=0 run
is "$rc" 1 "a variable TiDB does not know stops the run"
like "$out" "tidb_no_such_variable" "... naming it"

# ---------------------------------------------------------------------------------------------
# Conflicts made on purpose: each event's first attempt meets one, its retry does not.

cat > "$TEST_TMP/conflict.lua" <<'EOF'
-- optimistic: a second connection commits the same row between our UPDATE and COMMIT (9007 at
-- COMMIT). pessimistic: a second connection holds the row's lock while we wait for it (1205
-- after innodb_lock_wait_timeout), and lets it go before the retry.
sysbench.cmdline.options = {mode = {"optimistic or pessimistic", "optimistic"},
                            set_mode = {"set tidb_txn_mode in the script (1.0.20)", false}}
function thread_init()
  con = sysbench.sql.driver():connect()
  other = sysbench.sql.driver():connect()
  if sysbench.opt.set_mode then
    con:query("SET SESSION tidb_txn_mode = '" .. sysbench.opt.mode .. "'")
  end
end
local attempt = 0
function event()
  attempt = attempt + 1
  local first = attempt % 2 == 1
  local pessimistic = sysbench.opt.mode == "pessimistic"
  if pessimistic and first then
    other:query("BEGIN PESSIMISTIC")
    other:query("UPDATE hot SET v = v + 1 WHERE id = 1")
  elseif pessimistic then
    other:query("COMMIT")
  end
  con:query("BEGIN")
  con:query("UPDATE hot SET v = v + 1 WHERE id = 1")
  if first and not pessimistic then
    other:query("UPDATE hot SET v = v + 1 WHERE id = 1")
  end
  con:query("COMMIT")
end
EOF
v() { q "SELECT v FROM hot WHERE id = 1"; }

before=$(v)
o conflict.lua --mode=optimistic --tidb-txn-mode=optimistic --events=5 --time=0 run
is "$rc/$(field "$out" "transactions:")" "0/5" "optimistic: 5 events, each meeting a write conflict once, all commit"
is "$(field "$out" "ignored errors:")" 5 "... 5 retries counted as ignored errors"
like "$out" "^    9007 +write conflict +5$" "... and as 5 of code 9007"
is "$(( $(v) - before ))" 10 "... 5 commits of ours and 5 of the other connection"
if have_ref; then
  ref conflict.lua --mode=optimistic --set-mode=on --db-driver=mysql "${TIDB_CONN[@]}" \
      --mysql-db="$db" --events=5 --time=0 run
  isnt_zero=$([ "$rc" != 0 ] && echo yes)
  is "$isnt_zero" yes "the reference 1.0.20 (--db-driver=mysql) stops at the first write conflict"
  like "$out" "errno = 9007" "... error 9007"
fi

before=$(v)
o conflict.lua --mode=pessimistic --tidb-txn-mode=pessimistic \
   --tidb-session-vars=innodb_lock_wait_timeout=1 --events=2 --time=0 run
is "$rc/$(field "$out" "transactions:")" "0/2" "pessimistic: 2 events, each timing out on a held lock once, both commit"
like "$out" "^    1205 +lock wait timeout +2$" "... 2 retries of code 1205"
is "$(( $(v) - before ))" 4 "... 2 commits of ours and 2 of the other connection"

# ---------------------------------------------------------------------------------------------
# Contention: 8 threads on 10 rows. Whatever conflicts happen, every event ends committed and
# every retry is counted under its code.

o oltp_update_index --table-size=10 prepare
codes_sum() {
  printf '%s\n' "$out" | sed -n '/^TiDB errors by code:/,/^$/p' |
    awk '/^    [0-9]+ / { s += $NF } END { print s + 0 }'
}
for mode in optimistic pessimistic; do
  o oltp_read_write --table-size=10 --threads=8 --events=400 --time=0 --tidb-txn-mode=$mode run
  is "$rc/$(field "$out" "transactions:")" "0/400" "$mode, 8 threads on 10 rows: all 400 transactions commit"
  is "$(codes_sum)" "$(field "$out" "ignored errors:")" "... every retry counted under its code"
done
o oltp_update_index --table-size=10 --threads=8 --events=400 --time=0 --tidb-txn-mode=optimistic run
is "$rc/$(field "$out" "transactions:")" "0/400" "optimistic oltp_update_index on 10 rows: all 400 commit"
o oltp_update_index cleanup

# ---------------------------------------------------------------------------------------------
# KILL: the server ends two connections; each reconnects with its session settings and the
# event is retried.

cat > "$TEST_TMP/kill.lua" <<'EOF'
function thread_init()
  con = sysbench.sql.driver():connect()
  other = sysbench.sql.driver():connect()
end
local calls = 0
function event()
  calls = calls + 1
  local scan = con:query_row("SELECT @@session.tidb_distsql_scan_concurrency")
  if tonumber(scan) ~= 30 then error("tidb_distsql_scan_concurrency is " .. tostring(scan), 0) end
  if calls == 2 or calls == 5 then   -- events 2 and 4 (call 3 retries event 2)
    other:query("KILL " .. con:query_row("SELECT CONNECTION_ID()"))
  end
  con:query("SELECT 1")
end
EOF
o kill.lua --tidb-session-vars=tidb_distsql_scan_concurrency=30 --events=6 --time=0 run
is "$rc/$(field "$out" "transactions:")" "0/6" "connections killed by the server: the run completes"
is "$(field "$out" "reconnects:")" 2 "... 2 reconnects counted"
unlike "$out" "distsql_scan_concurrency is" "... each new connection has the session variable again"
like "$out" "port $TIDB_PORT +connections: 4 +queries: [0-9]+ +failed connects: 0$" \
     "... 4 connections, none failed (a killed connection is no failed connect)"

# ---------------------------------------------------------------------------------------------
# A dead server beside the live one

if [ "$TIDB_HOST" != 127.0.0.1 ]; then
  skip "the dead-port check needs the server on 127.0.0.1"
  done_testing; exit
fi
closed=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sb ping.lua --db-driver=tidb --mysql-host=127.0.0.1 --mysql-port="$closed,$TIDB_PORT" \
   --mysql-user="$TIDB_USER" --mysql-password="$TIDB_PASSWORD" --mysql-db="$db" \
   --threads=4 --events=200 --time=0 run
is "$rc/$(field "$out" "transactions:")" "0/200" "with one of two ports dead, the run uses the live TiDB"
like "$out" "port $TIDB_PORT +connections: 4 +queries: 200 " "... all connections and queries on it"
like "$out" "port $closed +connections: 0 +queries: 0 +failed connects: [1-9]" "... failed connects on the dead one"

done_testing
