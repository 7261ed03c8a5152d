# shellcheck shell=bash
# scripts/lib/sandbox.sh: what the private database servers of scripts/mariadb-sandbox.sh and
# scripts/pgsql-sandbox.sh have in common; sourced by them, not run.
#
# Both keep a throw-away server in a directory DIR, on 127.0.0.1 and a free port, and take the
# same commands: start DIR [--port N] [--tls] [-- EXTRA...], stop DIR [--remove], status DIR,
# sql DIR ..., env DIR (docs/testing-servers.md). This file holds the commands' flow, the
# ports, the pid checks, the lock on DIR and the messages; the server script holds what is
# the server's own. It sets, before sandbox_main "$@":
#
#   TIMEOUT STOP_TIMEOUT PORT_MIN PORT_MAX   its environment knobs
#   ENV_PREFIX             the prefix of DIR/env's names (MYSQL: MYSQL_PORT ...)
#   EXTRA_OPTIONS_NAME     what start passes on after --, for the usage (EXTRA_MARIADBD_OPTIONS)
#   SQL_OPTIONS_NAME       what sql passes to the client, for the usage (CLIENT_OPTIONS)
#   HALF_STARTED_SIGNAL    the signal that stops a server start gave up on (TERM, INT)
#   FORCE_STOP_SIGNAL      the signal stop sends when the clean shutdown timed out (TERM, QUIT)
#
# and defines these functions:
#
#   set_paths DIR [create] DIR's layout: sandbox_dir, then DATADIR, PIDFILE, ENVFILE,
#                          TLSDIR, MARKER and PID_CMDLINE_WORD (an argument of the server's
#                          command line that names this sandbox's data directory)
#   start_setup            start, after set_paths, before DIR is locked
#   prepare_server         start, when no server runs: find the tools, initialize the data
#   make_tls               start --tls: the certificates in TLSDIR
#   starting PORT          start: the message before a launch
#   launch PORT TLS EXTRA... start the server: 0 when it answers (LAUNCHED_PID set), 3 when
#                          the port was taken meanwhile; dies on anything else
#   port_taken             start: after a launch found its port taken
#   setup_accounts PORT    start: the test user and database
#   check_login PORT       start: log in as the test user over TCP, or die
#   write_env PORT PID TLS start: DIR/env
#   shutdown_server PID    stop: ask the server to shut down cleanly
#   after_stop             stop: what is left to remove once the server is down
#   server_answers PID     status: whether the running server answers
#   cmd_sql DIR ARGS...    sql

set -eu
set -o pipefail

PROG=${0##*/}
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin
export PATH

SB_USER=sbtest
SB_PASSWORD=sbtest-pw
SB_DB=sbtest

# pid of a server this invocation launched and must not leave behind on failure
CLEANUP_PID=
die() {
    echo "$PROG: error: $*" >&2
    if [ -n "$CLEANUP_PID" ] && kill -0 "$CLEANUP_PID" 2>/dev/null; then
        echo "$PROG: stopping the half-started server (pid $CLEANUP_PID)" >&2
        kill -"$HALF_STARTED_SIGNAL" "$CLEANUP_PID" 2>/dev/null || true
        local i
        for i in $(seq 1 80); do kill -0 "$CLEANUP_PID" 2>/dev/null || break; sleep 0.25; done
        kill -KILL "$CLEANUP_PID" 2>/dev/null || true
    fi
    exit 1
}
msg() { echo "$PROG: $*" >&2; }

usage() {
    cat >&2 <<EOF
usage: $PROG start  DIR [--port N] [--tls] [-- $EXTRA_OPTIONS_NAME...]
       $PROG stop   DIR [--remove]
       $PROG status DIR
       $PROG sql    DIR [$SQL_OPTIONS_NAME...] [SQL...]
       $PROG env    DIR
EOF
    exit 2
}

is_root() { [ "$(id -u)" = 0 ]; }

# run a command as root (directly, or through passwordless sudo)
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
# installation

apt_install() {  # apt_install PKG...
    command -v apt-get >/dev/null 2>&1 || die "cannot install $*: apt-get not found"
    local created_policy=0 rc=0
    # never let the package start the system-wide server
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

# ---------------------------------------------------------------------------
# sandbox layout

# sandbox_dir DIR [create] SYSTEM_DATADIR: DIR as an absolute path without links, made when
# asked; the system's directories and the system server's data directory are refused
sandbox_dir() {
    local d=$1 system=$3
    [ -n "$d" ] || usage
    if [ "${2:-}" = create ]; then
        mkdir -p -- "$d" || die "cannot create $d"
    fi
    [ -d "$d" ] || die "$d: no such directory"
    DIR=$(cd -- "$d" && pwd -P)
    case "$DIR" in
        /|"$system"|"$system"/*|/usr|/usr/*|/etc|/etc/*)
            die "refusing to use $DIR as a sandbox directory" ;;
    esac
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
        tr '\0' '\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -xF -- "$PID_CMDLINE_WORD" >/dev/null || return 1
    fi
    return 0
}

env_get() {  # env_get KEY -> value from DIR/env (empty if none)
    [ -f "$ENVFILE" ] || return 0
    ( set +u; unset "$1"; . "$ENVFILE" >/dev/null 2>&1; eval "printf '%s' \"\${$1:-}\"" )
}

# serialize concurrent 'start'/'stop' on the same DIR (fd 9, which the server must not inherit)
lock_dir() {
    if command -v flock >/dev/null 2>&1; then
        exec 9>"$DIR/.lock"
        flock -w 120 9 || die "timed out waiting for the lock on $DIR"
    fi
}

# ---------------------------------------------------------------------------
# ports

port_in_use() {
    local p=$1
    if command -v ss >/dev/null 2>&1; then
        # any TCP socket using that local port (TIME-WAIT ones do not block
        # the server, which binds with SO_REUSEADDR)
        if ss -Htan exclude time-wait "( sport = :$p )" 2>/dev/null | grep . >/dev/null; then return 0; fi
    fi
    # a listener on 127.0.0.1 (or a wildcard address) answers a connect
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
# start

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
    start_setup
    lock_dir

    local pid
    if pid=$(server_pid); then
        local oldport
        oldport=$(env_get "${ENV_PREFIX}_PORT")
        msg "sandbox in $DIR is already running (pid $pid, port ${oldport:-?})"
        [ -n "$oldport" ] || die "running server has no $ENVFILE"
        [ -z "$port" ] || [ "$port" = "$oldport" ] || msg "warning: --port $port ignored, server already listens on $oldport"
        echo "$oldport"
        return 0
    fi

    prepare_server
    [ "$tls" = 1 ] && make_tls

    local forced=0 attempt rc
    if [ -n "$port" ]; then
        forced=1
    else
        # reuse the previous port of this sandbox when it is still free
        port=$(env_get "${ENV_PREFIX}_PORT")
        if [ -z "$port" ] || port_in_use "$port"; then port=$(pick_port); fi
    fi
    for attempt in 1 2 3 4 5 6; do
        starting "$port"
        rc=0
        launch "$port" "$tls" "${extra[@]}" || rc=$?
        [ "$rc" = 0 ] && break
        [ "$rc" = 3 ] || die "server failed to start"
        [ "$forced" = 1 ] && die "port $port on 127.0.0.1 is already in use"
        msg "port $port was taken meanwhile, trying another"
        port_taken
        port=$(pick_port)
    done
    [ "$rc" = 0 ] || die "could not bind a free port after $attempt attempts"

    setup_accounts "$port"
    check_login "$port"
    write_env "$port" "$LAUNCHED_PID" "$tls"
    CLEANUP_PID=
    msg "ready: pid $LAUNCHED_PID, port $port, env in $ENVFILE"
    echo "$port"
}

# ---------------------------------------------------------------------------
# stop / status / env

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
    lock_dir
    local pid
    if pid=$(server_pid); then
        msg "stopping server pid $pid in $DIR"
        shutdown_server "$pid"
        if ! wait_gone "$pid" "$STOP_TIMEOUT"; then
            msg "server did not shut down in ${STOP_TIMEOUT}s; sending SIG$FORCE_STOP_SIGNAL"
            kill -"$FORCE_STOP_SIGNAL" "$pid" 2>/dev/null || true
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
    after_stop
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
    local pid
    if pid=$(server_pid); then
        if ! server_answers "$pid"; then
            msg "$DIR: process $pid exists but does not answer"
            exit 1
        fi
        msg "$DIR: running (pid $pid, port $(env_get "${ENV_PREFIX}_PORT"))"
        exit 0
    fi
    msg "$DIR: not running"
    exit 1
}

cmd_env() {
    [ $# -eq 1 ] || usage
    set_paths "$1"
    [ -f "$ENVFILE" ] || die "no $ENVFILE (sandbox never started?)"
    cat -- "$ENVFILE"
}

sandbox_main() {
    [ $# -ge 1 ] || usage
    local cmd=$1; shift
    case "$cmd" in
        start) cmd_start "$@" ;;
        stop) cmd_stop "$@" ;;
        status) cmd_status "$@" ;;
        sql) cmd_sql "$@" ;;
        env) cmd_env "$@" ;;
        -h|--help|help) usage ;;
        *) msg "unknown command: $cmd"; usage ;;
    esac
}
