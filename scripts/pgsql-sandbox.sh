#!/usr/bin/env bash
# pgsql-sandbox.sh - private, throw-away PostgreSQL servers for tests and benchmarks.
#
#   pgsql-sandbox.sh start  DIR [--port N] [--tls] [-- EXTRA_POSTGRES_OPTIONS...]
#   pgsql-sandbox.sh stop   DIR [--remove]
#   pgsql-sandbox.sh status DIR
#   pgsql-sandbox.sh sql    DIR [PSQL_OPTIONS...] [SQL...]   (SQL from stdin if none)
#   pgsql-sandbox.sh env    DIR                              (print DIR/env)
#
# The server listens on 127.0.0.1 only, on a free port, with its data directory, Unix socket
# directory, pid file and log inside DIR. 'start' writes DIR/env (shell assignments:
# PGSQL_HOST PGSQL_PORT PGSQL_SOCKET_DIR PGSQL_USER PGSQL_PASSWORD PGSQL_DB PGSQL_PID ...) and
# prints the port as the last (only) line on stdout.
# Roles: postgres (superuser, no password, over the socket only), sbtest/sbtest-pw (login over
# TCP with a password, owner of the database sbtest). See docs/testing-servers.md.
#
# PostgreSQL refuses to run as root: as root the server runs as the system user `postgres`
# (Debian's postgresql package creates it), or as `sbpgsql`, created here when there is no
# `postgres`. DIR is then given to that user.
#
# Environment knobs (all optional):
#   PGSQL_SANDBOX_TIMEOUT       seconds to wait for startup (default 60)
#   PGSQL_SANDBOX_STOP_TIMEOUT  seconds to wait for a clean shutdown (default 60)
#   PGSQL_SANDBOX_SHARED_BUFFERS shared_buffers (default 256MB)
#   PGSQL_SANDBOX_PORT_MIN/MAX  random port range (default 20000-32000)
#   PGSQL_SANDBOX_USER          system user running the server when started as root
#   PG_BINDIR                   directory of initdb/pg_ctl/postgres (default: the newest
#                               /usr/lib/postgresql/*/bin, else from pg_config --bindir)

# The commands' flow, the ports, the pid checks and the messages are scripts/lib/sandbox.sh's,
# shared with mariadb-sandbox.sh; this file holds what is PostgreSQL's own.

SUPERUSER=postgres

TIMEOUT=${PGSQL_SANDBOX_TIMEOUT:-60}
STOP_TIMEOUT=${PGSQL_SANDBOX_STOP_TIMEOUT:-60}
SHARED_BUFFERS=${PGSQL_SANDBOX_SHARED_BUFFERS:-256MB}
PORT_MIN=${PGSQL_SANDBOX_PORT_MIN:-20000}
PORT_MAX=${PGSQL_SANDBOX_PORT_MAX:-32000}

ENV_PREFIX=PGSQL
EXTRA_OPTIONS_NAME=EXTRA_POSTGRES_OPTIONS
SQL_OPTIONS_NAME=PSQL_OPTIONS
# SIGINT is PostgreSQL's "fast" shutdown: sessions are ended, the data is kept clean
HALF_STARTED_SIGNAL=INT
FORCE_STOP_SIGNAL=QUIT

# shellcheck source=scripts/lib/sandbox.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/sandbox.sh"

# ---------------------------------------------------------------------------
# tools

find_bindir() {
    if [ -n "${PG_BINDIR:-}" ]; then
        [ -x "$PG_BINDIR/postgres" ] || return 1
        return 0
    fi
    local d
    # the newest server installed (Debian keeps each major version in its own directory)
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4,4 -rn); do
        if [ -x "$d/postgres" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
            PG_BINDIR=$d
            return 0
        fi
    done
    if command -v pg_config >/dev/null 2>&1; then
        d=$(pg_config --bindir 2>/dev/null || true)
        if [ -n "$d" ] && [ -x "$d/postgres" ] && [ -x "$d/initdb" ]; then
            PG_BINDIR=$d
            return 0
        fi
    fi
    return 1
}

find_tools() {  # sets PG_BINDIR INITDB PG_CTL PSQL, installing postgresql when missing
    if ! find_bindir; then
        apt_install postgresql postgresql-client
        find_bindir || die "initdb/pg_ctl/postgres still not found after installing postgresql"
    fi
    INITDB=$PG_BINDIR/initdb
    PG_CTL=$PG_BINDIR/pg_ctl
    PSQL=$PG_BINDIR/psql
    [ -x "$PSQL" ] || PSQL=$(command -v psql) || die "psql not found"
}

# The system user the server runs as: ourselves, or an unprivileged one when we are root.
server_user() {
    if ! is_root; then
        id -un
        return 0
    fi
    if [ -n "${PGSQL_SANDBOX_USER:-}" ]; then
        id "$PGSQL_SANDBOX_USER" >/dev/null 2>&1 || die "PGSQL_SANDBOX_USER=$PGSQL_SANDBOX_USER: no such user"
        echo "$PGSQL_SANDBOX_USER"
        return 0
    fi
    if id postgres >/dev/null 2>&1; then
        echo postgres
        return 0
    fi
    if ! id sbpgsql >/dev/null 2>&1; then
        useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin sbpgsql >&2 \
            || die "cannot create the system user sbpgsql to run PostgreSQL as"
    fi
    echo sbpgsql
}

# Run a command as the server's user, from DIR (the server's tools want a readable cwd).
as_server() {
    if is_root; then
        (cd "$DIR" && runuser -u "$RUN_AS" -- "$@")
    else
        (cd "$DIR" && "$@")
    fi
}

# ---------------------------------------------------------------------------
# sandbox layout

set_paths() {  # set_paths DIR [create]
    sandbox_dir "$1" "${2:-}" /var/lib/postgresql
    DATADIR=$DIR/data
    SOCKDIR=$DIR/sock
    LOGFILE=$DIR/server.log
    ENVFILE=$DIR/env
    TLSDIR=$DIR/tls
    MARKER=$DIR/.pgsql-sandbox
    PIDFILE=$DATADIR/postmaster.pid
    PID_CMDLINE_WORD=$DATADIR
    # unix socket paths are limited to 107 bytes (".s.PGSQL.NNNNN" is appended)
    [ "${#SOCKDIR}" -lt 90 ] || die "path too long for a unix socket: $SOCKDIR"
}

# psql as the superuser over the sandbox's socket
super_sql() {  # super_sql PORT [psql options]
    local port=$1; shift
    "$PSQL" -X -q -v ON_ERROR_STOP=1 -h "$SOCKDIR" -p "$port" -U "$SUPERUSER" "$@"
}

# ---------------------------------------------------------------------------
# TLS: a CA and a server certificate for 127.0.0.1/localhost

make_tls() {
    if ! command -v openssl >/dev/null 2>&1; then
        apt_install openssl
    fi
    [ -s "$TLSDIR/server.crt" ] && [ -s "$TLSDIR/ca.pem" ] && return 0
    msg "generating a TLS CA and server certificate in $TLSDIR"
    mkdir -p -- "$TLSDIR"
    (
        set -e
        cd "$TLSDIR"
        umask 077
        openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -sha256 \
            -subj "/CN=pgsql-sandbox test CA" -keyout ca-key.pem -out ca.pem
        printf 'basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > server.ext
        openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=localhost" \
            -keyout server.key -out server.csr
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial \
            -days 3650 -sha256 -extfile server.ext -out server.crt
        rm -f server.csr server.ext
        chmod 644 ca.pem server.crt
        chmod 600 ca-key.pem server.key
    ) > "$TLSDIR/openssl.log" 2>&1 || { tail -n 20 "$TLSDIR/openssl.log" >&2; die "certificate generation failed (see $TLSDIR/openssl.log)"; }
    is_root && chown -R "$RUN_AS" "$TLSDIR"
    return 0
}

# ---------------------------------------------------------------------------
# start

init_datadir() {
    local log=$DIR/initdb.log
    msg "initializing data directory $DATADIR"
    # trust for the superuser over the socket only; every TCP login needs a password
    if ! as_server "$INITDB" -D "$DATADIR" -U "$SUPERUSER" -E UTF8 --locale=C \
            --auth-local=trust --auth-host=scram-sha-256 >"$log" 2>&1 </dev/null; then
        tail -n 30 "$log" >&2
        rm -rf -- "$DATADIR"
        die "initdb failed (full log: $log)"
    fi
    touch -- "$MARKER"
}

write_env() {  # write_env PORT PID TLS
    local tmp=$ENVFILE.tmp.$$
    {
        echo "# written by $PROG start; source it with: . $(printf '%q' "$ENVFILE")"
        printf 'PGSQL_HOST=%s\n' 127.0.0.1
        printf 'PGSQL_PORT=%s\n' "$1"
        printf 'PGSQL_SOCKET_DIR=%q\n' "$SOCKDIR"
        printf 'PGSQL_USER=%s\n' "$SB_USER"
        printf 'PGSQL_PASSWORD=%s\n' "$SB_PASSWORD"
        printf 'PGSQL_DB=%s\n' "$SB_DB"
        printf 'PGSQL_SUPERUSER=%s\n' "$SUPERUSER"
        printf 'PGSQL_PID=%s\n' "$2"
        printf 'PGSQL_DATADIR=%q\n' "$DATADIR"
        printf 'PGSQL_LOG=%q\n' "$LOGFILE"
        printf 'PGSQL_RUN_AS=%s\n' "$RUN_AS"
        if [ "$3" = 1 ]; then
            printf 'PGSQL_TLS=1\n'
            printf 'PGSQL_SSL_CA=%q\n' "$TLSDIR/ca.pem"
        else
            printf 'PGSQL_TLS=0\n'
        fi
    } > "$tmp"
    mv -f -- "$tmp" "$ENVFILE"
}

# launch the server on PORT; returns 0 when ready, 3 if the port was taken, dies otherwise
launch() {  # launch PORT TLS EXTRA...
    local port=$1 tls=$2; shift 2
    local opts=(
        -c listen_addresses=127.0.0.1
        -c port="$port"
        -c unix_socket_directories="$SOCKDIR"
        -c shared_buffers="$SHARED_BUFFERS"
        -c max_connections=300
        # a throw-away server: no need to survive a power cut
        -c fsync=off
        -c synchronous_commit=off
        -c full_page_writes=off
        -c max_wal_size=2GB
        -c logging_collector=off
        -c log_min_messages=warning
    )
    if [ "$tls" = 1 ]; then
        opts+=(-c ssl=on -c ssl_cert_file="$TLSDIR/server.crt" -c ssl_key_file="$TLSDIR/server.key")
    fi
    opts+=("$@")
    mkdir -p -- "$SOCKDIR"
    is_root && chown "$RUN_AS" "$SOCKDIR"
    local logpos=0
    [ -f "$LOGFILE" ] && logpos=$(wc -c < "$LOGFILE")
    echo "$PG_BINDIR/postgres -D $DATADIR ${opts[*]}" > "$DIR/cmdline"
    # detach: own session, no inherited stdio (so $(... start ...) does not hang) and not the
    # lock on DIR (fd 9); started from DIR, which the server's user can read
    cd "$DIR"
    if is_root; then
        setsid runuser -u "$RUN_AS" -- "$PG_BINDIR/postgres" -D "$DATADIR" "${opts[@]}" \
            </dev/null >>"$LOGFILE" 2>&1 9>&- &
    else
        setsid "$PG_BINDIR/postgres" -D "$DATADIR" "${opts[@]}" </dev/null >>"$LOGFILE" 2>&1 9>&- &
    fi
    local waited=0 pid=""
    while :; do
        if [ -z "$pid" ] && [ -f "$PIDFILE" ]; then
            pid=$(head -n 1 "$PIDFILE" 2>/dev/null | tr -dc 0-9 || true)
            [ -n "$pid" ] && CLEANUP_PID=$pid
        fi
        if [ -n "$pid" ] && "$PG_BINDIR/pg_isready" -q -h "$SOCKDIR" -p "$port" -t 2 >/dev/null 2>&1; then
            LAUNCHED_PID=$pid
            return 0
        fi
        if tail -c +"$((logpos + 1))" "$LOGFILE" 2>/dev/null | grep -E "could not (bind|create listen socket)|Address already in use" >/dev/null; then
            [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && kill -INT "$pid" 2>/dev/null
            sleep 0.5
            return 3
        fi
        if tail -c +"$((logpos + 1))" "$LOGFILE" 2>/dev/null | grep -E "^(FATAL|PANIC):|database system is shut down" >/dev/null \
           && { [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; }; then
            msg "server exited during startup; last lines of $LOGFILE:"
            tail -n 25 "$LOGFILE" >&2 2>/dev/null || true
            die "server failed to start (log: $LOGFILE)"
        fi
        if [ "$waited" -ge "$((TIMEOUT * 4))" ]; then
            msg "server not ready after ${TIMEOUT}s; last lines of $LOGFILE:"
            tail -n 25 "$LOGFILE" >&2 2>/dev/null || true
            die "timed out waiting for the server to accept connections"
        fi
        sleep 0.25
        waited=$((waited + 1))
    done
}

setup_accounts() {  # setup_accounts PORT: the role sbtest and its database
    local port=$1
    super_sql "$port" -d postgres >"$DIR/setup.log" 2>&1 <<EOF || { cat "$DIR/setup.log" >&2; die "creating role $SB_USER failed"; }
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$SB_USER') THEN
    CREATE ROLE $SB_USER LOGIN;
  END IF;
END \$\$;
ALTER ROLE $SB_USER LOGIN CREATEDB PASSWORD '$SB_PASSWORD';
SELECT 'CREATE DATABASE $SB_DB OWNER $SB_USER'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$SB_DB') \gexec
EOF
}

# the hooks of scripts/lib/sandbox.sh's start
start_setup() { RUN_AS=$(server_user); }

prepare_server() {
    find_tools
    if is_root; then
        chown "$RUN_AS" "$DIR"
        chmod 700 "$DIR"
        runuser -u "$RUN_AS" -- test -w "$DIR" ||
            die "$RUN_AS cannot write $DIR (a parent directory is closed to it): use a directory under /tmp"
    fi
    rm -f -- "$SOCKDIR"/.s.PGSQL.* 2>/dev/null || true
    if [ ! -f "$DATADIR/PG_VERSION" ]; then
        if [ -d "$DATADIR" ] && [ -n "$(ls -A -- "$DATADIR" 2>/dev/null)" ]; then
            die "$DATADIR exists but is not an initialized data directory"
        fi
        init_datadir
    fi
}

starting() { msg "starting postgres on 127.0.0.1:$1 (data directory $DATADIR, as $RUN_AS)"; }

port_taken() { :; }

# the account over TCP with its password, as the tests will use it
check_login() {  # check_login PORT
    PGPASSWORD=$SB_PASSWORD "$PSQL" -X -q -h 127.0.0.1 -p "$1" -U "$SB_USER" -d "$SB_DB" \
        -c 'SELECT 1' >/dev/null 2>"$DIR/setup.log" \
        || { cat "$DIR/setup.log" >&2; die "cannot log in as $SB_USER over TCP on port $1"; }
}

# ---------------------------------------------------------------------------
# the hooks of stop and status; sql

# SIGINT is PostgreSQL's "fast" shutdown: sessions are ended, the data is kept clean
shutdown_server() { kill -INT "$1" 2>/dev/null || true; }

after_stop() { :; }

server_answers() {  # server_answers PID: pg_isready on the sandbox's socket
    local port
    port=$(env_get PGSQL_PORT)
    find_tools
    "$PG_BINDIR/pg_isready" -q -h "$SOCKDIR" -p "$port" -t 3 >/dev/null 2>&1
}

cmd_sql() {
    [ $# -ge 1 ] || usage
    set_paths "$1"; shift
    server_pid >/dev/null || die "no server running in $DIR"
    find_tools
    local port opts=() stmts=() s
    port=$(env_get PGSQL_PORT)
    while [ $# -gt 0 ] && [[ "$1" == -* ]]; do
        opts+=("$1"); shift
    done
    for s in "$@"; do
        [ -n "$s" ] && stmts+=("$s")
    done
    if [ ${#stmts[@]} -eq 0 ]; then
        super_sql "$port" -d "$SB_DB" "${opts[@]}"
    else
        # each statement on its own (-c runs one command, in its own transaction)
        local cmds=()
        for s in "${stmts[@]}"; do cmds+=(-c "$s"); done
        super_sql "$port" -d "$SB_DB" "${opts[@]}" "${cmds[@]}"
    fi
}

sandbox_main "$@"
