#!/usr/bin/env bash
# mysql_servers.t: where connections go. Each new connection takes the next host x port
# pair (ports varying fastest), or the next socket when --mysql-socket is given. One private
# MariaDB listens on two TCP ports (its port and extra_port) and on its socket.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mysql.sh"

extra_port=$(free_port)
mysql_sandbox_start -- --extra-port="$extra_port" --extra-max-connections=100

# Each thread holds one connection open for the whole run.
write hold.lua <<'EOF'
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT SLEEP(0.02)") end
EOF

# run_and_look SECONDS_TO_WAIT COMMAND...: runs our binary in the background, and after the
# wait saves (in $peers) the remote address of each of its TCP connections and (in $hosts)
# the Host column of the sandbox's sbtest sessions.
run_and_look() {
  local wait=$1
  shift
  (cd "$TEST_TMP" && exec "$SB" "$@") >"$TEST_TMP/bg.out" 2>&1 &
  local pid=$!
  sleep "$wait"
  peers=$(ss -tnp state established 2>/dev/null | grep "pid=$pid," | awk '{print $4}' | sort)
  hosts=$(sql "SELECT IF(host LIKE '127.0.0.1:%', '127.0.0.1', host) FROM information_schema.processlist WHERE user = 'sbtest' ORDER BY 1")
  wait $pid
  rc=$?
  out=$(cat "$TEST_TMP/bg.out")
}

common=(--mysql-user="$MYSQL_USER" --mysql-password="$MYSQL_PASSWORD" --threads=4 --time=2)

run_and_look 1 hold.lua run "${common[@]}" --mysql-host=127.0.0.1 \
  --mysql-port="$MYSQL_PORT,$extra_port"
is "$rc" 0 "two ports: the run succeeds"
is "$(printf '%s\n' "$peers" | grep -c ":$MYSQL_PORT\$")/$(printf '%s\n' "$peers" | grep -c ":$extra_port\$")" \
   "2/2" "two ports of one server: 4 connections, 2 on each port"

# the client library takes "localhost"'s socket from MYSQL_UNIX_PORT
MYSQL_UNIX_PORT="$MYSQL_SOCKET" run_and_look 1 hold.lua run "${common[@]}" \
  --mysql-host=127.0.0.1,localhost --mysql-port="$MYSQL_PORT"
is "$rc" 0 "two hosts: the run succeeds"
is "$(printf '%s\n' "$hosts" | tr '\n' ' ')" "127.0.0.1 127.0.0.1 localhost localhost " \
   "two hosts (127.0.0.1 over TCP, localhost over the socket): SHOW PROCESSLIST has 2 of each"

run_and_look 1 hold.lua run "${common[@]}" --mysql-host=127.0.0.1,127.0.0.1 \
  --mysql-port="$MYSQL_PORT,$extra_port" --threads=8
is "$(printf '%s\n' "$peers" | grep -c ":$MYSQL_PORT\$")/$(printf '%s\n' "$peers" | grep -c ":$extra_port\$")" \
   "4/4" "2 hosts x 2 ports, 8 threads: 4 connections on each port"

run_and_look 1 hold.lua run "${common[@]}" --mysql-socket="$MYSQL_SOCKET,$MYSQL_SOCKET" \
  --mysql-host=192.0.2.1 --mysql-port=1
is "$rc" 0 "--mysql-socket wins over host and port (an unreachable host is never tried)"
is "$(printf '%s\n' "$hosts" | sort -u)" "localhost" "... every connection came over the socket"

# A connection that cannot be made names the server it tried.
port=$(free_port)
sb hold.lua run "${common[@]}" --mysql-host=127.0.0.1 --mysql-port="$MYSQL_PORT,$port" --time=1
is "$rc" 1 "one closed port among two: the run fails"
like "$out" "unable to connect to MySQL server on host '127\.0\.0\.1', port $port, aborting" \
  "... naming the closed port"

done_testing
