#!/usr/bin/env bash
# results_mysql.t: the report additions and the result file against a real MariaDB: ignored
# errors by code (1213 and 1644 from a trigger, and one a sql_error_ignorable hook accepts),
# statements by kind counting the statements that succeeded, rows read by an OLTP workload,
# and the server's version and the driver in the result file; the effective options (a table
# size given or not), no password anywhere, a server that is down still leaving a document,
# and compare warning about runs of other table sizes.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mysql.sh"

mysql_sandbox_start

py() { python3 - "$@"; }

# Rows 10, 20, ..., 100 fail their first UPDATE: the odd tens with 1213, the even with 1644.
sql <<'EOF'
CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL);
INSERT INTO t SELECT seq, 0 FROM seq_1_to_100;
CREATE TABLE fail_once (id INT PRIMARY KEY, errno INT NOT NULL, n INT NOT NULL) ENGINE=Aria;
INSERT INTO fail_once SELECT seq * 10, IF(seq % 2 = 1, 1213, 1644), 1 FROM seq_1_to_10;
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

my update.lua run --events=100 --time=0 --mysql-ignore-errors=1213,1644 --report-file=u.json
is "$rc/$(stat 'ignored errors')" "0/10" "10 ignored errors, the events ran again"
block=$(printf '%s\n' "$out" | sed -n '/^Queries by statement kind:/,$p')
like "$block" "
    UPDATE:                              100    \([0-9.]+ per sec\.\)
" "statements by kind: the 100 UPDATEs that succeeded (not the 10 that failed)"
like "$block" "Ignored errors by code:
    1213:                                5      \([0-9.]+ per sec\.\)
    1644:                                5      \([0-9.]+ per sec\.\)$" \
     "ignored errors by code: 5 of 1213 and 5 of 1644, adding up to 10"
is "$(py "$TEST_TMP/u.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
f = r["final"]
print(r["driver"], "MariaDB" in (r["server_version"] or ""), f["errors"],
      sorted(f["errors_by_code"].items()), f["statements"]["update"], f["writes"])
PY
)" "mysql True 10 [('1213', 5), ('1644', 5)] 100 100" \
   "the result file: driver, server version, errors by code, statements"

# A hook that makes the driver's fatal 1644 ignorable: counted under its code too. (t is reset
# before the failures are armed: its UPDATE would fire the trigger and use up row 10's.)
sql "UPDATE t SET v = 0" "UPDATE fail_once SET n = 1, errno = 1644"
cat "$TEST_TMP/update.lua" - > "$TEST_TMP/hook.lua" <<'EOF'
function sysbench.hooks.sql_error_ignorable(err) return err.sql_errno == 1644 end
EOF
my hook.lua run --events=100 --time=0
like "$out" "Ignored errors by code:
    1644:                                10     " "an error a hook makes ignorable is counted by its code"

# An OLTP workload: rows read, statements by kind.
my oltp_read_only --tables=1 --table-size=1000 prepare
my oltp_read_only --tables=1 --table-size=1000 --events=20 --report-file=ro.json run
is "$rc" 0 "oltp_read_only, 20 events"
like "$out" "    SELECT:                              280    \([0-9.]+ per sec\.\)
    INSERT:                              0      \(0\.00 per sec\.\)
    UPDATE:                              0      \(0\.00 per sec\.\)
    DELETE:                              0      \(0\.00 per sec\.\)
    BEGIN:                               20     \([0-9.]+ per sec\.\)
    COMMIT:                              20     \([0-9.]+ per sec\.\)
    other statements:                    0      \(0\.00 per sec\.\)
Rows returned by reads:                  [0-9]+ +\([0-9.]+ per sec\.\)" \
     "14 SELECTs, a BEGIN and a COMMIT per event, and the rows they read"
rows=$(printf '%s\n' "$out" | sed -nE 's/^Rows returned by reads: +([0-9]+) .*/\1/p')
num_cmp "$rows" ">=" 2200 "rows read: at least 10 point selects and two 100-row ranges per event"
is "$(py "$TEST_TMP/ro.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["runs"][0]["final"]
print(f["rows"], f["reads"], f["statements"]["select"])
PY
)" "$rows 280 280" "the result file has the same rows, reads and statements"
is "$(py "$TEST_TMP/ro.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(r["effective_options"]["table_size"], r["effective_options"]["range_size"],
      r["effective_options"]["mysql_password"], r["options"]["mysql_password"])
PY
)" "1000 100 ***** *****" "effective options: the table size given, the range size by default; the password masked"
my oltp_read_only --tables=1 --table-size=500 --events=20 --report-file=ro500.json run
sb compare ro.json ro500.json
like "$out" "^WARNING: B differs from A in options: table_size=500 \(A: 1000\)$" \
     "compare: runs on other table sizes are said to differ"
is "$(cat "$TEST_TMP/u.json" "$TEST_TMP/ro.json" "$TEST_TMP/ro500.json" | grep -c -- "$MYSQL_PASSWORD")" 0 \
   "the sandbox's password is in none of the result files"
my oltp_read_only --tables=1 cleanup

# A server that is down: the run fails before its measurement, and says so in its document.
down_port=$(free_port)
sb oltp_read_only --mysql-host=127.0.0.1 --mysql-port="$down_port" --mysql-user="$MYSQL_USER" \
   --mysql-password="$MYSQL_PASSWORD" --events=5 --report-format=json run
is "$rc" 1 "a server that is down: exit 1"
printf '%s' "$out" > "$TEST_TMP/down.json"
is "$(py "$TEST_TMP/down.json" "$down_port" <<'PY' 2>&1
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(r["exit_code"], r["measured"], r["driver"], r["final"]["events"],
      any(sys.argv[2] in e for e in r["errors"]))
PY
)" "1 False mysql 0 True" "standard output is a document: exit code 1, not measured, the connection error"
is "$(grep -c -- "$MYSQL_PASSWORD" "$TEST_TMP/down.json" "$TEST_TMP/.err" | awk -F: '{s += $2} END {print s}')" 0 \
   "... with no password in it or in the messages"

done_testing
