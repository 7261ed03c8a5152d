#!/usr/bin/env bash
# tidb_mariadb.t: the tidb driver against a private MariaDB made to look like TiDB (a
# tidb_version() function in the test database): TiDB's error codes raised by triggers with
# SIGNAL ... SET MYSQL_ERRNO = n drive its retries, a closed port stands for a dead server,
# and killed connections check that session variables come back after a reconnect. Also:
# refusing a server that is not TiDB, and TiDB's defaults (port 4000, user root).
. "$(dirname "$0")/../lib/tap.sh"

need_driver tidb libmariadb-dev

sandbox="$SRCDIR/scripts/mariadb-sandbox.sh"
dir=$(mktemp -d /tmp/sbtidb.XXXXXX)
trap '"$sandbox" stop "$dir" --remove >/dev/null 2>&1; rm -rf "$TEST_TMP"' EXIT
if ! "$sandbox" start "$dir" >"$TEST_TMP/start.log" 2>&1; then
  if [ "${CI:-}" = true ]; then
    fail "a private MariaDB starts (see the log below)"; cat "$TEST_TMP/start.log" | sed 's/^/# /'
  else
    skip "cannot start a private MariaDB: $(tail -1 "$TEST_TMP/start.log")"
  fi
  done_testing; exit
fi
. "$dir/env"
# root over the private socket; SQL from stdin (statements may use DELIMITER)
sql() { mariadb --no-defaults -uroot --socket="$MYSQL_SOCKET" "$@"; }

sql <<SQL
CREATE DATABASE IF NOT EXISTS tidbish;
CREATE DATABASE IF NOT EXISTS plain;
CREATE FUNCTION tidbish.tidb_version() RETURNS VARCHAR(64) DETERMINISTIC
  RETURN 'Release Version: v0-fake (a MariaDB sandbox for tests)';
SQL
conn=(--mysql-host="$MYSQL_HOST" --mysql-port="$MYSQL_PORT" --mysql-user="$MYSQL_USER"
      --mysql-password="$MYSQL_PASSWORD")
tidb() { sb "$@" --db-driver=tidb "${conn[@]}"; }

# ---------------------------------------------------------------------------------------------
cat > "$TEST_TMP/ping.lua" <<'EOF'
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT 1") end
EOF
tidb ping.lua --mysql-db=plain --events=10 --time=0 run
is "$rc" 1 "a server without tidb_version() is refused"
like "$out" "is not TiDB \(SELECT tidb_version\(\) failed: .*\): use --db-driver=mysql" "... saying to use the mysql driver"
tidb ping.lua --mysql-db=tidbish --events=10 --time=0 run
is "$rc" 0 "a server answering tidb_version() is accepted"
like "$out" "TiDB servers:" "the report adds the per-server section"
like "$out" "host '127.0.0.1', port $MYSQL_PORT +connections: 1 +queries: 10 " "... with this server's connections and queries"

sb ping.lua --db-driver=tidb --mysql-host=127.0.0.1 --events=1 run
is "$rc" 1 "without --mysql-port the tidb driver goes to port 4000 (nothing listens there)"
like "$out$err" "port 4000" "... and says so"
unlike "$out$err" "$MYSQL_PASSWORD" "no password in the message"
cat > "$TEST_TMP/who.lua" <<'EOF'
function thread_init() con = sysbench.sql.driver():connect() end
function event() print("user", con:query_row("SELECT CURRENT_USER()")) end
EOF
sb who.lua --db-driver=tidb --mysql-host=127.0.0.1 --mysql-port="$MYSQL_PORT" --mysql-db=tidbish --events=1 --time=0 run
like "$out" "user	root@" "without --mysql-user the tidb driver logs in as root"

# ---------------------------------------------------------------------------------------------
# Errors: SIGNAL raises the TiDB codes for some rows; others go through.
sql tidbish <<'SQL'
CREATE TABLE t (v INT) ENGINE=InnoDB;
DELIMITER //
CREATE TRIGGER t_bi BEFORE INSERT ON t FOR EACH ROW BEGIN
  IF NEW.v = 1 THEN SIGNAL SQLSTATE '40001' SET MYSQL_ERRNO = 9007, MESSAGE_TEXT = 'Write conflict';
  ELSEIF NEW.v = 2 THEN SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 9005, MESSAGE_TEXT = 'Region is unavailable';
  ELSEIF NEW.v = 3 THEN SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 8028, MESSAGE_TEXT = 'Information schema is changed';
  ELSEIF NEW.v = 9 THEN SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 8004, MESSAGE_TEXT = 'Transaction is too large';
  END IF;
END//
DELIMITER ;
SQL
cat > "$TEST_TMP/ins.lua" <<'EOF'
sysbench.cmdline.options = { values = {"largest value inserted", 6}, lowest = {"lowest", 1} }
function thread_init() con = sysbench.sql.driver():connect() end
function event()
  con:query("INSERT INTO t (v) VALUES (" ..
            sysbench.rand.uniform(sysbench.opt.lowest, sysbench.opt.values) .. ")")
end
EOF
tidb ins.lua --mysql-db=tidbish --values=5 --lowest=3 --events=200 --time=0 --threads=2 run
is "$rc" 0 "8028 (schema changed) restarts the transaction: the run completes"
like "$out" "transactions: +200 " "... all 200 events done"
num_cmp "$(field "$out" "ignored errors:")" ">" 0 "... the restarts are counted as ignored errors"
like "$out" "8028 +information schema changed +[0-9]+" "... and listed by code"

tidb ins.lua --mysql-db=tidbish --values=5 --lowest=1 --events=300 --time=0 --threads=2 --mysql-ignore-errors=1062 run
is "$rc" 0 "9007 (write conflict) and 9005 (region unavailable) are retried by default"
like "$out" "transactions: +300 " "... all 300 events done"
like "$out" "9007 +write conflict +[0-9]+" "9007 counted by code"
like "$out" "9005 +region unavailable +[0-9]+" "9005 counted by code"

tidb ins.lua --mysql-db=tidbish --values=9 --lowest=9 --events=10 --time=0 run
is "$rc" 1 "8004 (transaction too large) is fatal"
like "$out" "TiDB error 8004 \(transaction too large\) cannot succeed on retry: .*txn-total-size-limit" "... with what to change"

tidb ins.lua --mysql-db=tidbish --values=1 --lowest=1 --events=5 --time=0 --tidb-retry-errors=1213 run
is "$rc" 1 "--tidb-retry-errors replaces the list: 9007 is then fatal"
like "$out" "errno = 9007" "... naming the error"

tidb ins.lua --mysql-db=tidbish --tidb-retry-errors=abc --events=1 run
is "$rc" 1 "a bad --tidb-retry-errors is refused"
like "$out" "Invalid value for --tidb-retry-errors: abc" "... with the item and what is accepted"
tidb ins.lua --mysql-db=tidbish --tidb-session-vars=novalue --threads=3 --events=1 run
is "$rc/$(count "$out" "tidb-session-vars")" "1/1" "a bad --tidb-session-vars with 3 threads: said once"

# ---------------------------------------------------------------------------------------------
# Several servers: one port has nothing listening.
closed=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
sb ping.lua --db-driver=tidb --mysql-host=127.0.0.1 --mysql-port="$closed,$MYSQL_PORT" \
   --mysql-user="$MYSQL_USER" --mysql-password="$MYSQL_PASSWORD" --mysql-db=tidbish \
   --threads=4 --events=400 --time=0 run
is "$rc" 0 "with one of two servers down, the run uses the other"
like "$out" "transactions: +400 " "... and completes"
like "$out" "port $closed: .*the other servers take its connections" "... warning about the dead one"
like "$out" "port $MYSQL_PORT +connections: 4 +queries: 400 " "... all connections and queries on the live server"
like "$out" "port $closed +connections: 0 +queries: 0 +failed connects: [1-9]" "... and failed connects on the dead one"

# ---------------------------------------------------------------------------------------------
# Session variables after reconnects: connections are killed during the run.
cat > "$TEST_TMP/vars.lua" <<'EOF'
ffi.cdef "int usleep(unsigned int);"
function thread_init() con = sysbench.sql.driver():connect() end
function event()
  local v = con:query_row("SELECT @@session.max_join_size")
  if tonumber(v) ~= 123456 then error("max_join_size is " .. tostring(v)) end
  ffi.C.usleep(2000)
end
EOF
(cd "$TEST_TMP" && "$SB" vars.lua --db-driver=tidb "${conn[@]}" --mysql-db=tidbish \
   --tidb-session-vars="max_join_size=123456,sql_mode='STRICT_ALL_TABLES,NO_ZERO_DATE'" \
   --threads=2 --time=4 run >"$TEST_TMP/vars.out" 2>&1) &
runner=$!
sleep 1.5
for i in 1 2; do
  sql -N -e "SELECT id FROM information_schema.processlist WHERE user='$MYSQL_USER' AND db='tidbish'" |
    while read -r id; do sql -e "KILL CONNECTION $id" >/dev/null 2>&1; done
  sleep 0.7
done
wait $runner
rc=$?
out=$(cat "$TEST_TMP/vars.out")
is "$rc" 0 "killed connections reconnect and the run finishes"
num_cmp "$(field "$out" "reconnects:")" ">=" 1 "... counting the reconnects"
unlike "$out" "max_join_size is" "... with the session variables set again on every new connection"

tidb vars.lua --mysql-db=tidbish --tidb-session-vars="max_join_size" --events=1 run
is "$rc" 1 "a session variable without a value is refused"
like "$out" "^FATAL: Invalid value for --tidb-session-vars: max_join_size \(expected name=value pairs" \
  "... naming it, before anything runs"

# ---------------------------------------------------------------------------------------------
# prepare through the TiDB backend (TiDB's comments are ignored by MariaDB)
tidb oltp_read_write --mysql-db=tidbish --tables=2 --table-size=1000 --tidb-clustered-index=on prepare
is "$rc" 0 "oltp_read_write prepare with the tidb driver"
like "$out" "Creating a secondary index on 'sbtest1'" "... creates the index on k with the table"
is "$(sql -N -e "SELECT COUNT(*) FROM tidbish.sbtest2")" 1000 "... and loads every row"
like "$(sql -N -e "SHOW CREATE TABLE tidbish.sbtest1")" "KEY .k_1. \(.k.\)" "... index k_1 on k exists"
tidb oltp_read_write --mysql-db=tidbish --tables=2 --table-size=1000 --events=50 --time=0 run
is "$rc" 0 "oltp_read_write runs on it"
like "$out" "read: +700$" "... with 1.0's counts (700 reads for 50 events)"
tidb oltp_read_write --mysql-db=tidbish --tables=2 cleanup
is "$rc" 0 "cleanup works"

tidb oltp_read_write --mysql-db=tidbish --tables=1 --tidb-shard-row-id-bits=4 prepare
is "$rc" 1 "shard row id bits with a clustered key are refused"
like "$out" "needs --tidb-clustered-index=off" "... saying what to change"

done_testing
