#!/usr/bin/env bash
# pgsql_reconnect.t: a connection ended mid-run by pg_terminate_backend() (SQLSTATE 57P01, or
# 08006 when the client finds the socket closed before the server's word). With that SQLSTATE
# in --pgsql-ignore-errors (or "all") the driver reconnects, counts one reconnect (not an
# ignored error), prepares the statements again and the run goes on; without it the run stops
# with the error and exits 1 (1.0.20 crashes). A server restarted mid-run is waited for; one
# that never comes back is reported (since when, how many reconnects failed, why) and the run
# exits 1.
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
like "$out" "^Server unreachable from [0-9.]+s to [0-9.]+s: [1-9][0-9]* failed reconnects by [12] threads?, then reconnected$" \
  "... and the report says for how long the server was unreachable"

# --reconnect=N (oltp_common): a new session every N events, statements prepared again.
pg oltp_point_select run --table-size=1000 --events=100 --time=0 --reconnect=10
is "$rc/$(stat read)" "0/100" "--reconnect=10: a new session every 10 events, every query done"
pg oltp_point_select cleanup

# A server that stops for good mid-run: the threads reconnect until --time is up, the
# intervals and the report say the server was unreachable, and as no event succeeded after
# it went away, the run failed (it exited 0).
pg oltp_point_select prepare --table-size=1000
(
  for ((i = 0; i < 100; i++)); do
    [ "$(sessions)" -ge 2 ] && break
    sleep 0.1
  done
  sleep 1
  "$SRCDIR/scripts/pgsql-sandbox.sh" stop "$PGSQL_SANDBOX_DIR" >/dev/null 2>&1
) &
stopper=$!
pg oltp_point_select run --table-size=1000 --threads=2 --time=6 --report-interval=1 \
   --pgsql-ignore-errors=all --report-file=outage.json
wait $stopper
is "$rc" 1 "a server stopped for good: exit 1 (it was 0)"
like "$out" "^\[ [0-9]+s \] thds: 2 tps: 0\.00 qps: 0\.00 \(r/w/o: 0\.00/0\.00/0\.00\) lat \(ms,95%\): 0\.00 err/s: 0\.00 reconn/s: 0\.00$" \
  "... 1.0.20's interval line is unchanged while it is down"
like "$out" "^\[ [0-9]+s \] server unreachable: failed reconn/s: [0-9]*[1-9][0-9]*\.[0-9]{2} threads reconnecting: 2$" \
  "... and followed by ours, with the failed reconnects"
like "$out" "^Server unreachable from [0-9.]+s to the end \([0-9.]+s\): [1-9][0-9]* failed reconnects by 2 threads$" \
  "... the report says since when and how many reconnects failed"
like "$out" "^    last error: .*port $PGSQL_PORT failed: " "... naming the server and the error"
like "$out" "^    no event succeeded after [0-9.]+s: the run failed \(exit code 1\)$" "... and why the run failed"
is "$(python3 - "$TEST_TMP/outage.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))["runs"][0]["outage"]
print(o["until_end"], o["run_failed"], o["threads_unreachable_at_end"])
PY
)" "True True 2" "... and the result file has it"

done_testing
