#!/usr/bin/env bash
# mariadb-sandbox.sh - private, throw-away MariaDB servers for tests and benchmarks.
#
#   mariadb-sandbox.sh start  DIR [--port N] [--tls] [-- EXTRA_MARIADBD_OPTIONS...]
#   mariadb-sandbox.sh stop   DIR [--remove]
#   mariadb-sandbox.sh status DIR
#   mariadb-sandbox.sh sql    DIR [CLIENT_OPTIONS...] [SQL...]   (SQL from stdin if none)
#   mariadb-sandbox.sh env    DIR                                (print DIR/env)
#
# The server listens on 127.0.0.1 only, on a free port, with its data, socket,
# pid file and error log inside DIR.  'start' writes DIR/env (shell assignments:
# MYSQL_HOST MYSQL_PORT MYSQL_SOCKET MYSQL_USER MYSQL_PASSWORD MYSQL_DB
# MYSQL_PID ...) and prints the port as the last (only) line on stdout.
# Users: root (no password, over the socket), sbtest/sbtest-pw (all privileges).
# See docs/testing-servers.md.
#
# Environment knobs (all optional):
#   MARIADB_SANDBOX_TIMEOUT       seconds to wait for startup (default 60)
#   MARIADB_SANDBOX_STOP_TIMEOUT  seconds to wait for a clean shutdown (default 60)
#   MARIADB_SANDBOX_BUFFER_POOL   innodb_buffer_pool_size (default 256M)
#   MARIADB_SANDBOX_PORT_MIN/MAX  random port range (default 20000-32000)
#   MARIADBD                      server binary to use (default: mariadbd, else mysqld)

# The commands' flow, the ports, the pid checks and the messages are scripts/lib/sandbox.sh's,
# shared with pgsql-sandbox.sh; this file holds what is MariaDB's own.

TIMEOUT=${MARIADB_SANDBOX_TIMEOUT:-60}
STOP_TIMEOUT=${MARIADB_SANDBOX_STOP_TIMEOUT:-60}
BUFFER_POOL=${MARIADB_SANDBOX_BUFFER_POOL:-256M}
PORT_MIN=${MARIADB_SANDBOX_PORT_MIN:-20000}
PORT_MAX=${MARIADB_SANDBOX_PORT_MAX:-32000}

ENV_PREFIX=MYSQL
EXTRA_OPTIONS_NAME=EXTRA_MARIADBD_OPTIONS
SQL_OPTIONS_NAME=CLIENT_OPTIONS
HALF_STARTED_SIGNAL=TERM
FORCE_STOP_SIGNAL=TERM

# shellcheck source=scripts/lib/sandbox.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/sandbox.sh"

# ---------------------------------------------------------------------------
# tools

first_cmd() {  # print the path of the first command found
    local c
    for c in "$@"; do
        if command -v "$c" >/dev/null 2>&1; then command -v "$c"; return 0; fi
    done
    return 1
}

find_server() {
    if [ -n "${MARIADBD:-}" ]; then
        [ -x "$MARIADBD" ] || MARIADBD=$(command -v "$MARIADBD" 2>/dev/null) \
            || die "MARIADBD=$MARIADBD is not an executable"
        return 0
    fi
    MARIADBD=$(first_cmd mariadbd mysqld) || MARIADBD=
    [ -z "$MARIADBD" ] && [ -x /usr/libexec/mysqld ] && MARIADBD=/usr/libexec/mysqld
    [ -n "$MARIADBD" ]
}

find_tools() {  # sets MARIADBD CLIENT ADMIN INSTALL_DB, installing when missing
    if ! find_server || ! first_cmd mariadb mysql >/dev/null || ! first_cmd mariadb-admin mysqladmin >/dev/null; then
        apt_install mariadb-server mariadb-client
        find_server || die "mariadbd/mysqld still not found after installing mariadb-server"
    fi
    CLIENT=$(first_cmd mariadb mysql) || die "mariadb/mysql client not found"
    ADMIN=$(first_cmd mariadb-admin mysqladmin) || die "mariadb-admin/mysqladmin not found"
    INSTALL_DB=$(first_cmd mariadb-install-db mysql_install_db) || INSTALL_DB=
}

# ---------------------------------------------------------------------------
# sandbox layout

set_paths() {  # set_paths DIR [create]
    sandbox_dir "$1" "${2:-}" /var/lib/mysql
    DATADIR=$DIR/data
    SOCKET=$DIR/mysqld.sock
    PIDFILE=$DIR/mysqld.pid
    ERRLOG=$DIR/error.log
    ENVFILE=$DIR/env
    TLSDIR=$DIR/tls
    MARKER=$DIR/.mariadb-sandbox
    PID_CMDLINE_WORD=--datadir=$DATADIR
    # unix socket paths are limited to 107 bytes
    [ "${#SOCKET}" -lt 108 ] || die "path too long for a unix socket: $SOCKET"
}

clean_stale() {
    if [ -f "$PIDFILE" ] && ! server_pid >/dev/null; then
        msg "removing stale pid file $PIDFILE"
        rm -f -- "$PIDFILE"
    fi
    if [ -e "$SOCKET" ] && ! server_pid >/dev/null; then
        rm -f -- "$SOCKET" "$SOCKET.lock"
    fi
}

root_sql() {  # root_sql [client options] -e SQL
    "$CLIENT" --no-defaults --protocol=socket --socket="$SOCKET" -uroot "$@"
}

# ---------------------------------------------------------------------------
# TLS

make_tls() {
    if ! command -v openssl >/dev/null 2>&1; then
        apt_install openssl
    fi
    [ -s "$TLSDIR/server-cert.pem" ] && [ -s "$TLSDIR/client-cert.pem" ] && [ -s "$TLSDIR/cacert.pem" ] && return 0
    msg "generating TLS CA, server and client certificates in $TLSDIR"
    mkdir -p -- "$TLSDIR"
    (
        set -e
        cd "$TLSDIR"
        umask 077
        openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -sha256 \
            -subj "/CN=mariadb-sandbox test CA" \
            -keyout ca-key.pem -out ca.pem
        printf 'basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > server.ext
        openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=127.0.0.1" \
            -keyout server-key.pem -out server.csr
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial \
            -days 3650 -sha256 -extfile server.ext -out server-cert.pem
        printf 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n' > client.ext
        openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=$SB_USER" \
            -keyout client-key.pem -out client.csr
        openssl x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial \
            -days 3650 -sha256 -extfile client.ext -out client-cert.pem
        rm -f server.csr client.csr server.ext client.ext
        # sysbench 1.0.20 --mysql-ssl=on reads cacert.pem, client-cert.pem and
        # client-key.pem from its current directory: run it from here
        cp ca.pem cacert.pem
        chmod 644 ca.pem cacert.pem server-cert.pem client-cert.pem
        chmod 600 ca-key.pem server-key.pem client-key.pem
    ) > "$TLSDIR/openssl.log" 2>&1 || { tail -n 20 "$TLSDIR/openssl.log" >&2; die "certificate generation failed (see $TLSDIR/openssl.log)"; }
}

# ---------------------------------------------------------------------------
# start

init_datadir() {
    local log=$DIR/install-db.log
    msg "initializing data directory $DATADIR"
    mkdir -p -- "$DATADIR"
    local user_opt=()
    is_root && user_opt=(--user=root)
    local version help
    version=$("$MARIADBD" --version 2>&1 || true)
    if [ -n "$INSTALL_DB" ] && [[ "$version" == *[Mm]aria[Dd][Bb]* ]]; then
        help=$("$INSTALL_DB" --help 2>&1 || true)
        local auth_opt=() extra=()
        # root must be a password-less *normal* account (not unix_socket),
        # so that it works for any OS user
        [[ "$help" == *--auth-root-authentication-method* ]] \
            && auth_opt=(--auth-root-authentication-method=normal)
        [[ "$help" == *--skip-test-db* ]] && extra+=(--skip-test-db)
        # its own tmpdir, as the server's: bootstraps of several sandboxes at once share
        # /tmp otherwise, and one lost its temporary table there ("Could not remove
        # temporary table '/tmp/#sql-temptable-...', error: 2", then "Aborting")
        mkdir -p -- "$DIR/tmp"
        if ! "$INSTALL_DB" --no-defaults --datadir="$DATADIR" "${user_opt[@]}" \
                "${auth_opt[@]}" "${extra[@]}" --skip-name-resolve --force \
                --tmpdir="$DIR/tmp" \
                --innodb-log-file-size=64M >"$log" 2>&1 </dev/null; then
            tail -n 30 "$log" >&2
            rm -rf -- "$DATADIR"
            die "mariadb-install-db failed (full log: $log)"
        fi
    else
        # MySQL-style server (mysqld --initialize-insecure); best effort
        if ! "$MARIADBD" --no-defaults --initialize-insecure --datadir="$DATADIR" \
                "${user_opt[@]}" >"$log" 2>&1 </dev/null; then
            tail -n 30 "$log" >&2
            rm -rf -- "$DATADIR"
            die "$MARIADBD --initialize-insecure failed (full log: $log)"
        fi
    fi
    touch -- "$MARKER"
}

write_env() {  # write_env PORT PID TLS
    local tmp=$ENVFILE.tmp.$$
    {
        echo "# written by $PROG start; source it with: . $(printf '%q' "$ENVFILE")"
        printf 'MYSQL_HOST=%s\n' 127.0.0.1
        printf 'MYSQL_PORT=%s\n' "$1"
        printf 'MYSQL_SOCKET=%q\n' "$SOCKET"
        printf 'MYSQL_USER=%s\n' "$SB_USER"
        printf 'MYSQL_PASSWORD=%s\n' "$SB_PASSWORD"
        printf 'MYSQL_DB=%s\n' "$SB_DB"
        printf 'MYSQL_PID=%s\n' "$2"
        printf 'MYSQL_DATADIR=%q\n' "$DATADIR"
        printf 'MYSQL_ERROR_LOG=%q\n' "$ERRLOG"
        if [ "$3" = 1 ]; then
            printf 'MYSQL_TLS=1\n'
            printf 'MYSQL_SSL_DIR=%q\n' "$TLSDIR"
            printf 'MYSQL_SSL_CA=%q\n' "$TLSDIR/ca.pem"
            printf 'MYSQL_SSL_CERT=%q\n' "$TLSDIR/client-cert.pem"
            printf 'MYSQL_SSL_KEY=%q\n' "$TLSDIR/client-key.pem"
        else
            printf 'MYSQL_TLS=0\n'
        fi
    } > "$tmp"
    mv -f -- "$tmp" "$ENVFILE"
}

# launch the server on PORT; returns 0 when ready, 3 if the port was taken,
# dies on other failures
launch() {  # launch PORT TLS EXTRA...
    local port=$1 tls=$2; shift 2
    local opts=(
        --no-defaults
        --datadir="$DATADIR"
        --socket="$SOCKET"
        --pid-file="$PIDFILE"
        --log-error="$ERRLOG"
        --tmpdir="$DIR/tmp"
        --bind-address=127.0.0.1
        --port="$port"
        --skip-name-resolve
        --innodb-buffer-pool-size="$BUFFER_POOL"
        --innodb-log-file-size=64M
        --innodb-flush-log-at-trx-commit=2
        --max-connections=500
        --max-prepared-stmt-count=1048576
        --max-allowed-packet=64M
        --table-open-cache=2000
    )
    is_root && opts+=(--user=root)
    if [ "$tls" = 1 ]; then
        opts+=(--ssl-ca="$TLSDIR/ca.pem" --ssl-cert="$TLSDIR/server-cert.pem" --ssl-key="$TLSDIR/server-key.pem")
    fi
    mkdir -p -- "$DIR/tmp"
    local logpos=0
    [ -f "$ERRLOG" ] && logpos=$(wc -c < "$ERRLOG")
    echo "$MARIADBD ${opts[*]} $*" > "$DIR/cmdline"
    # detach: own session, no inherited stdio (so $(... start ...) does not hang)
    if command -v setsid >/dev/null 2>&1; then
        setsid "$MARIADBD" "${opts[@]}" "$@" </dev/null >>"$DIR/mysqld.out" 2>&1 9>&- &
    else
        nohup "$MARIADBD" "${opts[@]}" "$@" </dev/null >>"$DIR/mysqld.out" 2>&1 9>&- &
    fi
    local pid=$! waited=0
    CLEANUP_PID=$pid
    while :; do
        if "$ADMIN" --no-defaults --protocol=socket --socket="$SOCKET" -uroot \
                --connect-timeout=2 ping >/dev/null 2>&1; then
            LAUNCHED_PID=$(tr -dc 0-9 < "$PIDFILE" 2>/dev/null || true)
            [ -n "$LAUNCHED_PID" ] || LAUNCHED_PID=$pid
            return 0
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            wait "$pid" 2>/dev/null || true
            if tail -c +"$((logpos + 1))" "$ERRLOG" 2>/dev/null | grep -iE "bind on tcp/ip port|address already in use" >/dev/null; then
                return 3
            fi
            msg "server exited during startup; last lines of $ERRLOG:"
            tail -n 25 "$ERRLOG" >&2 2>/dev/null || tail -n 25 "$DIR/mysqld.out" >&2 2>/dev/null || true
            die "server failed to start (log: $ERRLOG)"
        fi
        if [ "$waited" -ge "$((TIMEOUT * 4))" ]; then
            msg "server not ready after ${TIMEOUT}s; last lines of $ERRLOG:"
            tail -n 25 "$ERRLOG" >&2 2>/dev/null || true
            kill -TERM "$pid" 2>/dev/null || true
            sleep 2
            kill -KILL "$pid" 2>/dev/null || true
            die "timed out waiting for the server to accept connections"
        fi
        sleep 0.25
        waited=$((waited + 1))
    done
}

setup_accounts() {  # setup_accounts PORT: the user sbtest and its database
    local hosts=("%" "localhost" "127.0.0.1") h sql=""
    # drop anonymous accounts (they would shadow sbtest for local logins)
    sql+="DELETE FROM mysql.global_priv WHERE User='';"
    for h in "${hosts[@]}"; do
        sql+="CREATE USER IF NOT EXISTS '$SB_USER'@'$h' IDENTIFIED BY '$SB_PASSWORD';"
        sql+="ALTER USER '$SB_USER'@'$h' IDENTIFIED BY '$SB_PASSWORD';"
        sql+="GRANT ALL PRIVILEGES ON *.* TO '$SB_USER'@'$h' WITH GRANT OPTION;"
    done
    sql+="CREATE DATABASE IF NOT EXISTS \`$SB_DB\`;"
    sql+="FLUSH PRIVILEGES;"
    if ! "$CLIENT" --no-defaults --protocol=socket --socket="$SOCKET" -uroot -e "$sql" >"$DIR/setup.log" 2>&1; then
        # MySQL has no mysql.global_priv: retry without that statement
        sql=${sql#*;}
        root_sql -e "DROP USER IF EXISTS ''@'localhost';$sql" >"$DIR/setup.log" 2>&1 \
            || { cat "$DIR/setup.log" >&2; die "creating user $SB_USER failed"; }
    fi
}

# the hooks of scripts/lib/sandbox.sh's start
start_setup() { :; }

prepare_server() {
    find_tools
    clean_stale
    if [ ! -d "$DATADIR/mysql" ]; then
        if [ -d "$DATADIR" ] && [ -n "$(ls -A -- "$DATADIR" 2>/dev/null)" ]; then
            die "$DATADIR exists but is not an initialized data directory"
        fi
        init_datadir
    fi
}

starting() { msg "starting $(basename "$MARIADBD") on 127.0.0.1:$1 (datadir $DATADIR)"; }

port_taken() { clean_stale; }

# the account over TCP, as the tests will use it
check_login() {  # check_login PORT
    "$CLIENT" --no-defaults --protocol=tcp -h127.0.0.1 -P"$1" -u"$SB_USER" -p"$SB_PASSWORD" \
        "$SB_DB" -e 'SELECT 1' >/dev/null 2>"$DIR/setup.log" \
        || { cat "$DIR/setup.log" >&2; die "cannot log in as $SB_USER over TCP on port $1"; }
}

# ---------------------------------------------------------------------------
# the hooks of stop and status; sql

shutdown_server() {  # shutdown_server PID
    local admin
    admin=$(first_cmd mariadb-admin mysqladmin) || admin=
    if [ -n "$admin" ]; then
        if ! timeout "$STOP_TIMEOUT" "$admin" --no-defaults --protocol=socket --socket="$SOCKET" \
                -uroot --connect-timeout=5 shutdown >/dev/null 2>&1; then
            # e.g. root got a password: SIGTERM is a clean shutdown too
            kill -TERM "$1" 2>/dev/null || true
        fi
    else
        kill -TERM "$1" 2>/dev/null || true
    fi
}

after_stop() { rm -f -- "$PIDFILE" "$SOCKET" "$SOCKET.lock"; }

server_answers() {  # server_answers PID: mariadb-admin ping, when there is one
    local admin
    admin=$(first_cmd mariadb-admin mysqladmin) || admin=
    [ -z "$admin" ] || "$admin" --no-defaults --protocol=socket --socket="$SOCKET" -uroot \
        --connect-timeout=3 ping >/dev/null 2>&1
}

cmd_sql() {
    [ $# -ge 1 ] || usage
    set_paths "$1"; shift
    server_pid >/dev/null || die "no server running in $DIR"
    CLIENT=$(first_cmd mariadb mysql) || die "mariadb/mysql client not found"
    local opts=() stmts=() s
    while [ $# -gt 0 ] && [[ "$1" == -* ]] && [[ "$1" != "-- "* ]]; do
        opts+=("$1"); shift
    done
    for s in "$@"; do
        # strip trailing blanks and semicolons, statements are joined with ';'
        s=$(printf '%s' "$s" | sed -e ':a' -e 's/[[:space:];]*$//' -e '/[[:space:];]$/ba')
        [ -n "$s" ] && stmts+=("$s")
    done
    if [ ${#stmts[@]} -eq 0 ]; then
        root_sql "${opts[@]}"
    else
        local joined
        joined=$(printf '%s;\n' "${stmts[@]}")
        root_sql "${opts[@]}" -e "$joined"
    fi
}

sandbox_main "$@"
