#!/usr/bin/env bash
# pgsql_servers.t: where pgsql connections go and how. Lists in --pgsql-host and --pgsql-port
# spread the connections over the servers (ports fastest, then hosts; a host starting with
# '/' is a Unix socket directory); --pgsql-sslmode picks TLS (the default, prefer, is libpq's
# and 1.0.20's), --pgsql-sslrootcert the CA for verify-ca and verify-full; --pgsql-db may be a
# connection string, as with 1.0.20.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/pgsql.sh"

pgsql_sandbox_start --tls
first_port=$PGSQL_PORT
first_sock=$PGSQL_SOCKET_DIR
first_ca=$PGSQL_SSL_CA

# A second server for the port list, stopped with the first.
second=$(mktemp -d /tmp/sbp.XXXXXX)
trap '"$SRCDIR/scripts/pgsql-sandbox.sh" stop "$second" --remove >/dev/null 2>&1; _pgsql_sandbox_cleanup' EXIT
second_port=$("$SRCDIR/scripts/pgsql-sandbox.sh" start "$second" 2>/dev/null)
if [ -z "$second_port" ]; then
  fail "a second sandbox starts"
fi

write where.lua <<'EOF2'
function thread_init()
  con = sysbench.sql.driver():connect()
  local row = {con:query_row("SELECT current_setting('port'), coalesce(host(inet_client_addr()), 'socket'), " ..
                             "(SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), current_database()")}
  print(string.format("thread %d port %s via %s ssl %s db %s", sysbench.tid, row[1], row[2], row[3], row[4]))
end
function event() end
EOF2

where() {   # where ARGS...: the sorted "port via ssl" lines of a run of where.lua
  sb where.lua run --events=1 --time=0 --db-driver=pgsql --pgsql-user=sbtest \
    --pgsql-password="$PGSQL_PASSWORD" "$@"
  printf '%s\n' "$out" | sed -n 's/^thread [0-9]* //p' | sort | uniq -c | sed 's/^ *//'
}

got=$(where --threads=4 --pgsql-host=127.0.0.1 --pgsql-port="$first_port,$second_port" --pgsql-sslmode=disable)
is "$got" "$(printf '2 port %s via 127.0.0.1 ssl f db sbtest\n' "$first_port" "$second_port" | sort)" \
  "a port list: connections alternate between the two servers"

got=$(where --threads=4 --pgsql-host="127.0.0.1,$first_sock" --pgsql-port="$first_port" --pgsql-sslmode=disable)
is "$got" "2 port $first_port via 127.0.0.1 ssl f db sbtest
2 port $first_port via socket ssl f db sbtest" "a host list with a socket directory: TCP and Unix socket in turn"

sb oltp_point_select --db-driver=pgsql --pgsql-host="$first_sock" --pgsql-port="$first_port" \
  --pgsql-password="$PGSQL_PASSWORD" --table-size=100 prepare
sb oltp_point_select --db-driver=pgsql --pgsql-host="$first_sock" --pgsql-port="$first_port" \
  --pgsql-password="$PGSQL_PASSWORD" --table-size=100 --events=200 --time=0 --threads=2 run
is "$rc/$(stat read)" "0/200" "oltp_point_select over the Unix socket"

# TLS
got=$(where --pgsql-host=127.0.0.1 --pgsql-port="$first_port")
is "$got" "1 port $first_port via 127.0.0.1 ssl t db sbtest" "default sslmode (libpq's prefer): TLS when the server has it"
if have_ref; then
  ref where.lua run --events=1 --time=0 --db-driver=pgsql --pgsql-host=127.0.0.1 \
    --pgsql-port="$first_port" --pgsql-password="$PGSQL_PASSWORD"
  like "$out" "via 127.0.0.1 ssl t" "... as 1.0.20 does"
else
  skip "no reference sysbench at $REF_SB"
fi
got=$(where --pgsql-host=127.0.0.1 --pgsql-port="$first_port" --pgsql-sslmode=disable)
is "$got" "1 port $first_port via 127.0.0.1 ssl f db sbtest" "--pgsql-sslmode=disable: plain"
got=$(where --pgsql-host=127.0.0.1 --pgsql-port="$first_port" --pgsql-sslmode=require)
is "$got" "1 port $first_port via 127.0.0.1 ssl t db sbtest" "--pgsql-sslmode=require: TLS"
got=$(where --pgsql-host=127.0.0.1 --pgsql-port="$first_port" --pgsql-sslmode=verify-full --pgsql-sslrootcert="$first_ca")
is "$got" "1 port $first_port via 127.0.0.1 ssl t db sbtest" "--pgsql-sslmode=verify-full with the CA: TLS, certificate checked"
where --pgsql-host=127.0.0.1 --pgsql-port="$second_port" --pgsql-sslmode=require >/dev/null
is "$rc" 1 "--pgsql-sslmode=require against a server without TLS fails"
like "$out" "FATAL: Connection to database failed: .*server does not support SSL" "... with libpq's reason"
where --pgsql-host=127.0.0.1 --pgsql-port="$first_port" --pgsql-sslmode=verify-ca --pgsql-sslrootcert="$TEST_TMP/none.pem" >/dev/null
like "$rc/$out" "root certificate file .*none\.pem.* does not exist" "verify-ca without a CA file: libpq's reason"

sb oltp_point_select --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port="$first_port" \
  --pgsql-password="$PGSQL_PASSWORD" --pgsql-sslmode=require --table-size=100 --events=200 --time=0 --threads=2 run
is "$rc/$(stat read)" "0/200" "oltp_point_select over TLS (prepared statements through libpq)"
sb oltp_point_select --db-driver=pgsql --pgsql-host="$first_sock" --pgsql-port="$first_port" \
  --pgsql-password="$PGSQL_PASSWORD" --table-size=100 cleanup

# --pgsql-db as a connection string (PQsetdbLogin did the same for 1.0.20); the options
# given on the command line win.
got=$(where --pgsql-host=127.0.0.1 --pgsql-port="$first_port" --pgsql-db="dbname=postgres sslmode=disable")
is "$got" "1 port $first_port via 127.0.0.1 ssl f db postgres" "--pgsql-db='dbname=postgres sslmode=disable': a connection string"

done_testing
