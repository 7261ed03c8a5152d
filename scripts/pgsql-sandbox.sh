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

set -eu
set -o pipefail

PROG=${0##*/}
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin
export PATH

SB_USER=sbtest
SB_PASSWORD=sbtest-pw
SB_DB=sbtest
SUPERUSER=postgres

TIMEOUT=${PGSQL_SANDBOX_TIMEOUT:-60}
STOP_TIMEOUT=${PGSQL_SANDBOX_STOP_TIMEOUT:-60}
SHARED_BUFFERS=${PGSQL_SANDBOX_SHARED_BUFFERS:-256MB}
PORT_MIN=${PGSQL_SANDBOX_PORT_MIN:-20000}
PORT_MAX=${PGSQL_SANDBOX_PORT_MAX:-32000}

# pid of a server this invocation launched and must not leave behind on failure
CLEANUP_PID=
die() {
    echo "$PROG: error: $*" >&2
    if [ -n "$CLEANUP_PID" ] && kill -0 "$CLEANUP_PID" 2>/dev/null; then
        echo "$PROG: stopping the half-started server (pid $CLEANUP_PID)" >&2
        kill -INT "$CLEANUP_PID" 2>/dev/null || true
        local i
        for i in $(seq 1 80); do kill -0 "$CLEANUP_PID" 2>/dev/null || break; sleep 0.25; done
        kill -KILL "$CLEANUP_PID" 2>/dev/null || true
    fi
    exit 1
}
msg() { echo "$PROG: $*" >&2; }

usage() {
    cat >&2 <<EOF
usage: $PROG start  DIR [--port N] [--tls] [-- EXTRA_POSTGRES_OPTIONS...]
       $PROG stop   DIR [--remove]
       $PROG status DIR
       $PROG sql    DIR [PSQL_OPTIONS...] [SQL...]
       $PROG env    DIR
EOF
    exit 2
}

is_root() { [ "$(id -u)" = 0 ]; }

as_root() {
    if is_root; then
        "$@"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo -n "$@"
    else
        die "need root (or passwordless sudo) to run: $*"
    fi
}

# ---------------------------------------------------------------------------
# installation and tools

apt_install() {  # apt_install PKG...
    command -v apt-get >/dev/null 2>&1 || die "cannot install $*: apt-get not found"
    local created_policy=0 rc=0
    # never let the package start the system-wide cluster
    if ! as_root test -e /usr/sbin/policy-rc.d; then
        as_root sh -c 'printf "#!/bin/sh\nexit 101\n" > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d'
        created_policy=1
    fi
    msg "installing $* with apt-get"
    if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >&2; then
        msg "apt-get install failed; running apt-get update and retrying"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || true
        as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >&2 || rc=$?
    fi
    if [ "$created_policy" = 1 ]; then
        as_root rm -f /usr/sbin/policy-rc.d
    fi
    [ "$rc" = 0 ] || die "apt-get install $* failed (exit $rc)"
}

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
    local d=$1
    [ -n "$d" ] || usage
    if [ "${2:-}" = create ]; then
        mkdir -p -- "$d" || die "cannot create $d"
    fi
    [ -d "$d" ] || die "$d: no such directory"
    DIR=$(cd -- "$d" && pwd -P)
    case "$DIR" in
        /|/var/lib/postgresql|/var/lib/postgresql/*|/usr|/usr/*|/etc|/etc/*)
            die "refusing to use $DIR as a sandbox directory" ;;
    esac
    DATADIR=$DIR/data
    SOCKDIR=$DIR/sock
    LOGFILE=$DIR/server.log
    ENVFILE=$DIR/env
    TLSDIR=$DIR/tls
    MARKER=$DIR/.pgsql-sandbox
    PIDFILE=$DATADIR/postmaster.pid
    # unix socket paths are limited to 107 bytes (".s.PGSQL.NNNNN" is appended)
    [ "${#SOCKDIR}" -lt 90 ] || die "path too long for a unix socket: $SOCKDIR"
}

# pid of the server of this sandbox, if it is running (its command line names our data dir)
server_pid() {
    local pid
    [ -f "$PIDFILE" ] || return 1
    pid=$(head -n 1 "$PIDFILE" 2>/dev/null | tr -dc 0-9) || return 1
    [ -n "$pid" ] || return 1
    pid_is_ours "$pid" || return 1
    echo "$pid"
}

pid_is_ours() {
    local pid=$1
    [ -d "/proc/$pid" ] || kill -0 "$pid" 2>/dev/null || return 1
    if [ -r "/proc/$pid/cmdline" ]; then
        tr '\0' '\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -xF -- "$DATADIR" >/dev/null || return 1
    fi
    return 0
}

env_get() {  # env_get KEY -> value from DIR/env (empty if none)
    [ -f "$ENVFILE" ] || return 0
    ( set +u; unset "$1"; . "$ENVFILE" >/dev/null 2>&1; eval "printf '%s' \"\${$1:-}\"" )
}

# psql as the superuser over the sandbox's socket
super_sql() {  # super_sql PORT [psql options]
    local port=$1; shift
    "$PSQL" -X -q -v ON_ERROR_STOP=1 -h "$SOCKDIR" -p "$port" -U "$SUPERUSER" "$@"
}

# ---------------------------------------------------------------------------
# ports

port_in_use() {
    local p=$1
    if command -v ss >/dev/null 2>&1; then
        if ss -Htan exclude time-wait "( sport = :$p )" 2>/dev/null | grep . >/dev/null; then return 0; fi
    fi
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then return 0; fi
    return 1
}

pick_port() {
    local i p span=$((PORT_MAX - PORT_MIN + 1))
    for i in $(seq 1 200); do
        p=$(( PORT_MIN + ( (RANDOM << 15 | RANDOM) % span ) ))
        if ! port_in_use "$p"; then echo "$p"; return 0; fi
    done
    die "no free TCP port found in $PORT_MIN-$PORT_MAX"
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

setup_roles() {  # setup_roles PORT
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

cmd_start() {
    local dir="" port="" tls=0 extra=()
    while [ $# -gt 0 ]; do
        case "$1" in
            --port) [ $# -ge 2 ] || die "--port needs a value"; port=$2; shift 2 ;;
            --port=*) port=${1#--port=}; shift ;;
            --tls) tls=1; shift ;;
            --) shift; extra=("$@"); break ;;
            -*) die "unknown start option: $1" ;;
            *) [ -z "$dir" ] || die "unexpected argument: $1"; dir=$1; shift ;;
        esac
    done
    [ -n "$dir" ] || usage
    if [ -n "$port" ]; then
        case "$port" in *[!0-9]*) die "--port must be a number: $port" ;; esac
        [ "$port" -ge 1 ] && [ "$port" -le 65535 ] || die "--port out of range: $port"
        port_in_use "$port" && die "port $port on 127.0.0.1 is already in use"
    fi
    set_paths "$dir" create
    RUN_AS=$(server_user)

    # serialize concurrent 'start'/'stop' on the same DIR
    if command -v flock >/dev/null 2>&1; then
        exec 9>"$DIR/.lock"
        flock -w 120 9 || die "timed out waiting for the lock on $DIR"
    fi

    local pid
    if pid=$(server_pid); then
        local oldport
        oldport=$(env_get PGSQL_PORT)
        msg "sandbox in $DIR is already running (pid $pid, port ${oldport:-?})"
        [ -n "$oldport" ] || die "running server has no $ENVFILE"
        [ -z "$port" ] || [ "$port" = "$oldport" ] || msg "warning: --port $port ignored, server already listens on $oldport"
        echo "$oldport"
        return 0
    fi

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
    [ "$tls" = 1 ] && make_tls

    local forced=0 attempt rc
    if [ -n "$port" ]; then
        forced=1
    else
        port=$(env_get PGSQL_PORT)
        if [ -z "$port" ] || port_in_use "$port"; then port=$(pick_port); fi
    fi
    for attempt in 1 2 3 4 5 6; do
        msg "starting postgres on 127.0.0.1:$port (data directory $DATADIR, as $RUN_AS)"
        rc=0
        launch "$port" "$tls" "${extra[@]}" || rc=$?
        [ "$rc" = 0 ] && break
        [ "$rc" = 3 ] || die "server failed to start"
        [ "$forced" = 1 ] && die "port $port on 127.0.0.1 is already in use"
        msg "port $port was taken meanwhile, trying another"
        port=$(pick_port)
    done
    [ "$rc" = 0 ] || die "could not bind a free port after $attempt attempts"

    setup_roles "$port"
    # check the account over TCP with its password, as the tests will use it
    PGPASSWORD=$SB_PASSWORD "$PSQL" -X -q -h 127.0.0.1 -p "$port" -U "$SB_USER" -d "$SB_DB" \
        -c 'SELECT 1' >/dev/null 2>"$DIR/setup.log" \
        || { cat "$DIR/setup.log" >&2; die "cannot log in as $SB_USER over TCP on port $port"; }
    write_env "$port" "$LAUNCHED_PID" "$tls"
    CLEANUP_PID=
    msg "ready: pid $LAUNCHED_PID, port $port, env in $ENVFILE"
    echo "$port"
}

# ---------------------------------------------------------------------------
# stop / status / sql

wait_gone() {  # wait_gone PID SECONDS
    local i
    for i in $(seq 1 $(( $2 * 4 ))); do
        pid_is_ours "$1" || return 0
        sleep 0.25
    done
    ! pid_is_ours "$1"
}

cmd_stop() {
    local dir="" remove=0
    while [ $# -gt 0 ]; do
        case "$1" in
            --remove|--rm) remove=1; shift ;;
            -*) die "unknown stop option: $1" ;;
            *) [ -z "$dir" ] || die "unexpected argument: $1"; dir=$1; shift ;;
        esac
    done
    [ -n "$dir" ] || usage
    if [ ! -d "$dir" ]; then
        msg "$dir does not exist; nothing to stop"
        return 0
    fi
    set_paths "$dir"
    if command -v flock >/dev/null 2>&1; then
        exec 9>"$DIR/.lock"
        flock -w 120 9 || die "timed out waiting for the lock on $DIR"
    fi
    local pid
    if pid=$(server_pid); then
        msg "stopping server pid $pid in $DIR"
        # SIGINT is PostgreSQL's "fast" shutdown: sessions are ended, the data is kept clean
        kill -INT "$pid" 2>/dev/null || true
        if ! wait_gone "$pid" "$STOP_TIMEOUT"; then
            msg "server did not shut down in ${STOP_TIMEOUT}s; sending SIGQUIT"
            kill -QUIT "$pid" 2>/dev/null || true
            if ! wait_gone "$pid" 20; then
                msg "sending SIGKILL to $pid"
                kill -KILL "$pid" 2>/dev/null || true
                wait_gone "$pid" 10 || die "could not kill server pid $pid"
            fi
        fi
        msg "stopped"
    else
        msg "no server running in $DIR"
    fi
    if [ "$remove" = 1 ]; then
        if [ -e "$MARKER" ] || [ -d "$DATADIR" ] || [ -f "$ENVFILE" ]; then
            rm -rf -- "$DIR"
            msg "removed $DIR"
        else
            msg "not removing $DIR: it does not look like a sandbox directory"
        fi
    fi
}

cmd_status() {
    [ $# -eq 1 ] || usage
    [ -d "$1" ] || { msg "$1: not running (no such directory)"; exit 1; }
    set_paths "$1"
    local pid port
    if pid=$(server_pid); then
        port=$(env_get PGSQL_PORT)
        find_tools
        if ! "$PG_BINDIR/pg_isready" -q -h "$SOCKDIR" -p "$port" -t 3 >/dev/null 2>&1; then
            msg "$DIR: process $pid exists but does not answer"
            exit 1
        fi
        msg "$DIR: running (pid $pid, port $port)"
        exit 0
    fi
    msg "$DIR: not running"
    exit 1
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

cmd_env() {
    [ $# -eq 1 ] || usage
    set_paths "$1"
    [ -f "$ENVFILE" ] || die "no $ENVFILE (sandbox never started?)"
    cat -- "$ENVFILE"
}

[ $# -ge 1 ] || usage
cmd=$1; shift
case "$cmd" in
    start) cmd_start "$@" ;;
    stop) cmd_stop "$@" ;;
    status) cmd_status "$@" ;;
    sql) cmd_sql "$@" ;;
    env) cmd_env "$@" ;;
    -h|--help|help) usage ;;
    *) msg "unknown command: $cmd"; usage ;;
esac
