#!/usr/bin/env bash
# mysql_reconnect.t: a connection killed mid-run (KILL CONNECTION from another session). With
# the lost-connection error in --mysql-ignore-errors (2013, or "all") the driver reconnects,
# counts one reconnect (not an ignored error), re-prepares the statements and the run goes
# on (with no outage reported: the server never was unreachable); without it the run stops
# with the error and exits 1. Scripts that re-prepare by themselves in before_restart_event
# (the bundled oltp_common) keep working too.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mysql.sh"

mysql_sandbox_start

sql "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)" \
    "INSERT INTO t SELECT seq, 0 FROM seq_1_to_100"

write select.lua <<'EOF'
function thread_init()
  con = sysbench.sql.driver():connect()
  stmt = con:prepare("SELECT v FROM t WHERE id = ?")
  id = stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(id)
end
function event()
  id:set(sysbench.rand.uniform(1, 100))
  stmt:execute()
  con:query("SELECT SLEEP(0.001)")
end
EOF

sbtest_connections() {
  sql "SELECT COUNT(*) FROM information_schema.processlist WHERE user = 'sbtest'"
}

# kill_one_when N: once N sbtest sessions exist, waits a little and kills the oldest one.
kill_one_when() {
  local i
  for ((i = 0; i < 100; i++)); do
    [ "$(sbtest_connections)" -ge "$1" ] && break
    sleep 0.1
  done
  sleep 0.7
  sql "KILL CONNECTION $(sql "SELECT MIN(id) FROM information_schema.processlist WHERE user = 'sbtest'")"
}

prepares() {
  sql "SHOW GLOBAL STATUS LIKE 'Com_stmt_prepare'" | cut -f2
}

for ignore in 2013 all; do
  before=$(prepares)
  kill_one_when 2 &
  killer=$!
  my select.lua run --threads=2 --time=3 --mysql-ignore-errors=$ignore
  wait $killer
  is "$rc" 0 "--mysql-ignore-errors=$ignore: the run survives a killed connection"
  is "$(stat reconnects)" 1 "--mysql-ignore-errors=$ignore: one reconnect is counted"
  is "$(stat 'ignored errors')" 0 "--mysql-ignore-errors=$ignore: the reconnect is not an ignored error"
  is "$(( $(prepares) - before ))" 3 \
    "--mysql-ignore-errors=$ignore: the statement was prepared again on the new connection (2 + 1)"
  num_cmp "$(stat read)" ">" 200 "--mysql-ignore-errors=$ignore: queries went on for the whole run"
  unlike "$out" "FATAL" "--mysql-ignore-errors=$ignore: nothing fatal is printed"
  unlike "$out" "[Ss]erver unreachable" \
    "--mysql-ignore-errors=$ignore: a reconnect that worked at once is no outage"
done

# Client-side statements have nothing to re-prepare.
kill_one_when 2 &
killer=$!
my select.lua run --threads=2 --time=3 --mysql-ignore-errors=2013 --db-ps-mode=disable
wait $killer
is "$rc/$(stat reconnects)" "0/1" "--db-ps-mode=disable: reconnected once, the run went on"

# Without 2013 in the list the lost connection is fatal.
kill_one_when 2 &
killer=$!
my select.lua run --threads=2 --time=3
wait $killer
is "$rc" 1 "default --mysql-ignore-errors: a killed connection stops the run with exit 1"
like "$out" "SQL error, errno = 2013, state = 'HY000': Lost connection" \
  "... naming error 2013"
like "$out" "SQL statistics:" "... and still prints the report"

# oltp_common re-prepares its statements itself after 2013 (before_restart_event).
my oltp_point_select prepare --table-size=1000
kill_one_when 2 &
killer=$!
my oltp_point_select run --table-size=1000 --threads=2 --time=3 --mysql-ignore-errors=2013
wait $killer
is "$rc/$(stat reconnects)" "0/1" "oltp_point_select reconnects once and goes on"
num_cmp "$(stat read)" ">" 1000 "oltp_point_select kept reading after the reconnect"

# Reconnects the script asks for are reconnects too (1.0.20 crashes on con:reconnect()).
write explicit.lua <<'LUA'
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:reconnect(); con:query("SELECT 1") end
LUA
my explicit.lua run --events=5 --time=0
is "$rc/$(stat reconnects)/$(stat read)" "0/5/5" "con:reconnect() in each of 5 events: 5 reconnects"
my oltp_point_select run --table-size=1000 --events=40 --time=0 --reconnect=10
is "$rc/$(stat reconnects)" "0/4" "--reconnect=10 over 40 events: 4 reconnects"
my oltp_point_select cleanup

done_testing
