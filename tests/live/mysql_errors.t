#!/usr/bin/env bash
# mysql_errors.t: what server errors do to a run. An error listed in --mysql-ignore-errors (or
# any error with "all", or one a sql_error_ignorable hook accepts) is counted as an ignored
# error and its event runs again; any other error stops the run with one line naming errno,
# SQLSTATE, message and query, then the report, exit 1. A wrong password or a closed port is
# one clear line and exit 1; no output ever shows the password, --db-debug and --mysql-debug
# included.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mysql.sh"

mysql_sandbox_start

# Rows 10, 20, ..., 100 fail their first UPDATE with the chosen errno: the countdown lives in
# an Aria table, which the failing statement does not roll back, so the retry succeeds.
sql <<'EOF'
CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL);
INSERT INTO t SELECT seq, 0 FROM seq_1_to_100;
CREATE TABLE fail_once (id INT PRIMARY KEY, errno INT NOT NULL, n INT NOT NULL) ENGINE=Aria;
DELIMITER //
CREATE TRIGGER t_fail BEFORE UPDATE ON t FOR EACH ROW BEGIN
  DECLARE code INT DEFAULT 0;
  SELECT errno INTO code FROM fail_once WHERE id = NEW.id AND n > 0;
  UPDATE fail_once SET n = n - 1 WHERE id = NEW.id AND n > 0;
  IF code = 1213 THEN
    SIGNAL SQLSTATE '40001' SET MYSQL_ERRNO = 1213, MESSAGE_TEXT = 'Deadlock found (test)';
  ELSEIF code = 1644 THEN
    SIGNAL SQLSTATE '45000' SET MYSQL_ERRNO = 1644, MESSAGE_TEXT = 'chosen failure';
  END IF;
END//
DELIMITER ;
EOF

arm() {   # arm ERRNO: the first UPDATE of rows 10, 20, ..., 100 fails with ERRNO
  sql "DELETE FROM fail_once" "UPDATE t SET v = 0" \
      "INSERT INTO fail_once SELECT seq * 10, $1, 1 FROM seq_1_to_10"
}

# Event i (per thread, counted only when it completes) updates row i.
write update.lua <<'EOF'
function thread_init()
  con = sysbench.sql.driver():connect()
  stmt = con:prepare("UPDATE t SET v = v + 1 WHERE id = ?")
  id = stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(id)
  next_id = 1
end
function event()
  id:set(next_id)
  stmt:execute()
  next_id = next_id + 1
end
EOF

for mode in auto disable; do
  arm 1213
  my update.lua run --events=100 --time=0 --db-ps-mode=$mode
  is "$rc" 0 "ps-mode=$mode: errors in the default ignore list (1213) do not stop the run"
  is "$(stat 'ignored errors')/$(stat write)/$(stat transactions)" "10/100/100" \
    "ps-mode=$mode: 10 ignored errors, and the 10 failed events ran again (100 writes, 100 events)"
  is "$(sql 'SELECT COUNT(*), SUM(v) FROM t WHERE v = 1' | tr '\t' ' ')" "100 100" \
    "ps-mode=$mode: every row was updated exactly once"
done

if have_ref; then
  arm 1213
  ref_my update.lua run --events=100 --time=0
  is "$(stat 'ignored errors')/$(stat write)/$(stat transactions)" "10/100/100" \
    "the reference 1.0.20 counts the same ignored errors"
else
  skip "no reference sysbench at $REF_SB"
fi

arm 1644
my update.lua run --events=100 --time=0 --mysql-ignore-errors=all
is "$rc/$(stat 'ignored errors')/$(stat write)" "0/10/100" \
  "--mysql-ignore-errors=all ignores any error (here 1644) and retries the event"

arm 1644
my update.lua run --events=100 --time=0 --mysql-ignore-errors=1205,1644
is "$rc/$(stat 'ignored errors')/$(stat write)" "0/10/100" "an error listed by number is ignored"

# A hook may downgrade an error the driver thinks fatal.
cat "$TEST_TMP/update.lua" - > "$TEST_TMP/hook.lua" <<'EOF'
function sysbench.hooks.sql_error_ignorable(err)
  return err.sql_errno == 1644 and err.sql_state == "45000"
end
EOF
arm 1644
my hook.lua run --events=100 --time=0
is "$rc/$(stat 'ignored errors')/$(stat write)" "0/10/100" \
  "sysbench.hooks.sql_error_ignorable can make an error ignorable"

# ---------------------------------------------------------------------------------------------
# A fatal error: one line, then the report, exit 1.

for mode in auto disable; do
  arm 1644
  my update.lua run --events=100 --time=0 --db-ps-mode=$mode
  is "$rc" 1 "ps-mode=$mode: an error not in the ignore list exits 1"
  if [ $mode = auto ]; then call="mysql_stmt_execute()"; query="UPDATE t SET v = v + 1 WHERE id = ?"
  else call="mysql_drv_query()"; query="UPDATE t SET v = v + 1 WHERE id = 10"; fi
  like "$out" "^FATAL: $(printf '%s' "$call" | sed 's/[()]/\\&/g') returned error 1644 \(chosen failure\) for query '$(printf '%s' "$query" | sed 's/[?+()]/\\&/g')'$" \
    "ps-mode=$mode: 1.0.20's driver line names the call, errno, message and the statement"
  like "$out" "^FATAL: \`thread_run' function failed: update\.lua:[0-9]+: SQL error, errno = 1644, state = '45000': chosen failure$" \
    "ps-mode=$mode: then the script's line names errno, SQLSTATE and message"
  is "$(count "$out" '^(FATAL|ALERT|WARNING)')" 2 "ps-mode=$mode: these are the only error lines"
  like "$out" "SQL statistics:" "ps-mode=$mode: the report follows"
  is "$(stat write)" 9 "ps-mode=$mode: the report counts the 9 updates done before the error"
done

arm 1644
my update.lua run --events=1000 --time=0 --threads=4
is "$rc" 1 "with 4 threads a fatal error in one still exits 1"
like "$out" "General statistics:" "... after printing the report"

# ---------------------------------------------------------------------------------------------
# Connections that cannot be made.

write connect.lua <<'EOF'
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT 1") end
EOF
secret="Wr0ng-Pass-Zq7"
sb connect.lua run --events=1 --time=0 --mysql-host=127.0.0.1 --mysql-port="$MYSQL_PORT" \
  --mysql-user=sbtest --mysql-password="$secret"
is "$rc" 1 "a wrong password exits 1"
like "$out" "^FATAL: unable to connect to MySQL server on host '127\.0\.0\.1', port $MYSQL_PORT, aborting\.\.\.$" \
  "a wrong password: 1.0.20's line naming the server"
like "$out" "^FATAL: error 1045: Access denied for user 'sbtest'@'[^']*' \(using password: YES\)$" \
  "... then the server's errno and message"
like "$out" "^FATAL: \`thread_init' function failed: connect\.lua:1: connection creation failed$" \
  "... then the script's error"
unlike "$out$err" "$secret" "the wrong password is not printed"

port=$(free_port)
sb connect.lua run --events=1 --time=0 --mysql-host=127.0.0.1 --mysql-port="$port"
is "$rc" 1 "a closed port exits 1"
like "$out" "^FATAL: unable to connect to MySQL server on host '127\.0\.0\.1', port $port, aborting\.\.\.$" \
  "a closed port: 1.0.20's line naming host and port"
like "$out" "^FATAL: error 2002: " "... then error 2002"
is "$(count "$out" 'connection creation failed')" 1 "... printed once"

sb connect.lua run --events=1 --time=0 --threads=4 --mysql-host=127.0.0.1 --mysql-port="$port"
is "$(count "$out" 'connection creation failed')" 1 "with 4 threads the same failure is printed once"

# ---------------------------------------------------------------------------------------------
# Debug output: queries yes, password never.

my connect.lua run --events=2 --time=0 --db-debug --verbosity=5
is "$rc" 0 "--db-debug runs"
like "$out" "DEBUG: query: SELECT 1" "--db-debug prints the queries"
unlike "$out$err" "$MYSQL_PASSWORD" "--db-debug does not print the password"

my connect.lua run --events=2 --time=0 --mysql-debug
is "$rc" 0 "--mysql-debug runs"
like "$out" "DEBUG: mysql_real_connect\(.*\"\*\*\*\"" "--mysql-debug traces the connect, password masked"
unlike "$out$err" "$MYSQL_PASSWORD" "--mysql-debug does not print the password"

done_testing
