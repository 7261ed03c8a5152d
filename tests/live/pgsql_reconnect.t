#!/usr/bin/env bash
# pgsql_reconnect.t: a connection ended mid-run by pg_terminate_backend() (SQLSTATE 57P01, or
# 08006 when the client finds the socket closed before the server's word). With that SQLSTATE
# in --pgsql-ignore-errors (or "all") the driver reconnects, counts one reconnect (not an
# ignored error), prepares the statements again and the run goes on; without it the run stops
# with the error and exits 1 (1.0.20 crashes). A server restarted mid-run is waited for.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/pgsql.sh"

pgsql_sandbox_start

psql_do "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)" \
        "INSERT INTO t SELECT g, 0 FROM generate_series(1, 100) g" \
        "GRANT ALL ON t TO sbtest" >/dev/null

write select.lua <<'EOF2'
function thread_init()
  con = sysbench.sql.driver():connect()
  stmt = con:prepare("SELECT v FROM t WHERE id = ?")
  id = stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(id)
end
function event()
  id:set(sysbench.rand.uniform(1, 100))
  stmt:execute()
  con:query("SELECT pg_sleep(0.001)")
end
EOF2

sessions() {
  psql_do "SELECT count(*) FROM pg_stat_activity WHERE usename = 'sbtest'"
}

# terminate_one_when N: once N sessions of sbtest exist, waits a little and ends the oldest.
terminate_one_when() {
  local i
  for ((i = 0; i < 100; i++)); do
    [ "$(sessions)" -ge "$1" ] && break
    sleep 0.1
  done
  sleep 0.7
  psql_do "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'sbtest' ORDER BY backend_start LIMIT 1" >/dev/null
}

lost_states="57P01,08006"
for ignore in "$lost_states" all; do
  for mode in auto disable; do
    terminate_one_when 2 &
    killer=$!
    pg select.lua run --threads=2 --time=3 --pgsql-ignore-errors=$ignore --db-ps-mode=$mode
    wait $killer
    is "$rc" 0 "--pgsql-ignore-errors=$ignore, ps-mode=$mode: the run survives a terminated backend"
    is "$(stat reconnects)/$(stat 'ignored errors')" "1/0" \
      "--pgsql-ignore-errors=$ignore, ps-mode=$mode: one reconnect is counted, not as an ignored error"
    num_cmp "$(stat read)" ">" 200 \
      "--pgsql-ignore-errors=$ignore, ps-mode=$mode: queries went on (statements prepared again on the new session)"
    unlike "$out" "FATAL" "--pgsql-ignore-errors=$ignore, ps-mode=$mode: nothing fatal is printed"
  done
done

# Without the SQLSTATE in the list the lost connection is fatal.
terminate_one_when 2 &
killer=$!
pg select.lua run --threads=2 --time=3
wait $killer
is "$rc" 1 "default --pgsql-ignore-errors: a terminated backend stops the run with exit 1"
like "$out" "FATAL: \`thread_run' function failed: select\.lua:[0-9]+: SQL error, errno = 0, state = '(57P01|08006)': (terminating connection due to administrator command|server closed the connection unexpectedly)" \
  "... naming the SQLSTATE and the reason"

# The bundled workloads keep going too.
pg oltp_point_select prepare --table-size=1000
terminate_one_when 2 &
killer=$!
pg oltp_point_select run --table-size=1000 --threads=2 --time=3 --pgsql-ignore-errors=$lost_states
wait $killer
is "$rc/$(stat reconnects)" "0/1" "oltp_point_select reconnects once and goes on"
num_cmp "$(stat read)" ">" 1000 "oltp_point_select kept reading after the reconnect"

# A server restarted mid-run: every connection is lost, each waits for the server and
# reconnects.
(
  sleep 1
  "$SRCDIR/scripts/pgsql-sandbox.sh" stop "$PGSQL_SANDBOX_DIR" >/dev/null 2>&1
  sleep 0.5
  "$SRCDIR/scripts/pgsql-sandbox.sh" start "$PGSQL_SANDBOX_DIR" >/dev/null 2>&1
) &
restarter=$!
pg oltp_point_select run --table-size=1000 --threads=2 --time=5 --pgsql-ignore-errors=all
wait $restarter
is "$rc/$(stat reconnects)" "0/2" "a restarted server: both connections wait for it and reconnect"
num_cmp "$(stat read)" ">" 1000 "... and the run goes on"

# --reconnect=N (oltp_common): a new session every N events, statements prepared again.
pg oltp_point_select run --table-size=1000 --events=100 --time=0 --reconnect=10
is "$rc/$(stat read)" "0/100" "--reconnect=10: a new session every 10 events, every query done"
pg oltp_point_select cleanup

done_testing
