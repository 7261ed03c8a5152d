#!/usr/bin/env bash
# tidb-sandbox.sh - a private, throw-away TiDB server for tests and benchmarks.
#
#   tidb-sandbox.sh start  DIR [--port N]
#   tidb-sandbox.sh stop   DIR [--remove]
#   tidb-sandbox.sh status DIR
#   tidb-sandbox.sh sql    DIR [CLIENT_OPTIONS...] SQL...   (the mariadb client, as root;
#                                                            each SQL one statement)
#
# The server is ../shared/tidb/tidb-server.xz beside the repository (TiDB v8.5.3, which no
# package registry ships): decompressed once into a cache directory named after the archive's
# sha256, then run standalone (-store=unistore: SQL layer and embedded store in one process)
# on 127.0.0.1 only, on free ports, with its store, socket, logs and temp files in DIR, its
# memory capped with tidb_server_memory_limit. 'start' waits until it answers SQL, writes
# DIR/env (TIDB_HOST TIDB_PORT TIDB_STATUS_PORT TIDB_USER TIDB_PASSWORD TIDB_PID TIDB_LOG)
# and prints the port as the only line on stdout. User root, no password; database `test`.
# See docs/testing-servers.md.
#
# Exit status of start: 0 running; 3 the archive is absent (nothing to start: callers skip);
# 1 any other failure (the tail of the server's log on stderr, no server left behind).
#
# Environment knobs (all optional):
#   TIDB_SANDBOX_ARCHIVE        the .xz (default <repository>/../shared/tidb/tidb-server.xz)
#   TIDB_SANDBOX_CACHE          where the decompressed binary is kept (default
#                               ${TMPDIR:-/tmp}/tidb-cache-UID)
#   TIDB_SANDBOX_PORT_MIN/MAX   random port range (default 20000-32000)
#   TIDB_SANDBOX_MEMORY         tidb_server_memory_limit (default 1GB)
#   TIDB_SANDBOX_TIMEOUT        seconds to wait for startup (default 60)

set -eu
set -o pipefail

PROG=${0##*/}
HERE=$(cd "$(dirname "$0")" && pwd)
ARCHIVE=${TIDB_SANDBOX_ARCHIVE:-$HERE/../../shared/tidb/tidb-server.xz}
CACHE=${TIDB_SANDBOX_CACHE:-${TMPDIR:-/tmp}/tidb-cache-$(id -u)}
PORT_MIN=${TIDB_SANDBOX_PORT_MIN:-20000}
PORT_MAX=${TIDB_SANDBOX_PORT_MAX:-32000}
MEMORY=${TIDB_SANDBOX_MEMORY:-1GB}
TIMEOUT=${TIDB_SANDBOX_TIMEOUT:-60}

CLEANUP_PID=
msg() { echo "$PROG: $*" >&2; }
stop_pid() {   # TERM, then KILL after 10 s
    local pid=$1 i
    kill -TERM "$pid" 2>/dev/null || return 0
    for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
}
die() {   # die MESSAGE [LOG]
    echo "$PROG: error: $1" >&2
    [ -n "${2:-}" ] && [ -f "$2" ] && tail -n 15 "$2" | sed 's/^/    /' >&2
    [ -n "$CLEANUP_PID" ] && stop_pid "$CLEANUP_PID"
    exit 1
}
usage() {
    cat >&2 <<EOF
usage: $PROG start  DIR [--port N]
       $PROG stop   DIR [--remove]
       $PROG status DIR
       $PROG sql    DIR [CLIENT_OPTIONS...] SQL...
EOF
    exit 2
}

# The decompressed tidb-server, made once per archive content.
binary() {
    local sum bin tmp
    sum=$(sha256sum "$ARCHIVE" | cut -c1-64)
    bin=$CACHE/$sum/tidb-server
    if [ ! -x "$bin" ]; then
        mkdir -p "$CACHE/$sum"
        # several starts may race here: each writes its own file, then renames it
        tmp=$(mktemp "$CACHE/$sum/.tidb-server.XXXXXX")
        if ! xz -dc "$ARCHIVE" >"$tmp" || ! chmod 755 "$tmp" || ! mv -f "$tmp" "$bin"; then
            rm -f "$tmp"
            die "cannot decompress $ARCHIVE into $CACHE/$sum"
        fi
    fi
    echo "$bin"
}

port_free() {
    python3 - "$1" <<'EOF' 2>/dev/null
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))
EOF
}

pick_port() {   # pick_port [NOT_THIS]: a random free port of the range
    local i p
    for i in $(seq 100); do
        p=$((PORT_MIN + (RANDOM * 32768 + RANDOM) % (PORT_MAX - PORT_MIN + 1)))
        [ "$p" != "${1:-}" ] && port_free "$p" && { echo "$p"; return 0; }
    done
    return 1
}

client() {   # client DIR ARGS...: the mariadb client on the sandbox's port, as root
    local dir=$1
    shift
    # shellcheck disable=SC1091
    . "$dir/env"
    mariadb --no-defaults -h"$TIDB_HOST" -P"$TIDB_PORT" -uroot --connect-timeout=5 "$@"
}

running() { [ -f "$1/env" ] && [ -f "$1/tidb.pid" ] && kill -0 "$(cat "$1/tidb.pid")" 2>/dev/null; }

cmd_start() {
    local dir=$1 want_port=""
    shift
    while [ $# -gt 0 ]; do
        case $1 in
            --port) want_port=$2; shift 2 ;;
            *) usage ;;
        esac
    done
    [ -f "$ARCHIVE" ] || { msg "no TiDB server: $ARCHIVE is absent"; exit 3; }
    command -v xz >/dev/null || die "xz is missing (apt-get install xz-utils)"
    command -v mariadb >/dev/null || die "the mariadb client is missing (apt-get install mariadb-client)"
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if running "$dir"; then
        msg "already running"
        # shellcheck disable=SC1091
        . "$dir/env"; echo "$TIDB_PORT"; return 0
    fi
    local bin
    bin=$(binary)
    rm -rf "$dir/store" "$dir/tmp" "$dir/tidb.sock"
    mkdir -p "$dir/tmp"
    printf '[log]\nlevel = "warn"\n' >"$dir/tidb.toml"
    # runs once, when the new store is bootstrapped, before the server takes connections
    printf "SET GLOBAL tidb_server_memory_limit = '%s';\n" "$MEMORY" >"$dir/init.sql"

    local attempt port status i
    for attempt in 1 2 3 4 5 6; do
        if [ -n "$want_port" ]; then
            port_free "$want_port" || die "port $want_port is in use"
            port=$want_port
        else
            port=$(pick_port) || die "no free port in $PORT_MIN-$PORT_MAX"
        fi
        status=$(pick_port "$port") || die "no free port in $PORT_MIN-$PORT_MAX"
        : >"$dir/tidb.log"
        (cd "$dir" && exec "$bin" -config="$dir/tidb.toml" -store=unistore \
            -path="$dir/store" -host=127.0.0.1 -P="$port" -status-host=127.0.0.1 \
            -status="$status" -socket="$dir/tidb.sock" -temp-dir="$dir/tmp" \
            -log-file="$dir/tidb.log" -log-slow-query="$dir/tidb-slow.log" \
            -initialize-sql-file="$dir/init.sql" </dev/null >"$dir/stdout.log" 2>&1) &
        CLEANUP_PID=$!
        echo "$CLEANUP_PID" >"$dir/tidb.pid"
        cat >"$dir/env" <<EOF
TIDB_HOST=127.0.0.1
TIDB_PORT=$port
TIDB_STATUS_PORT=$status
TIDB_USER=root
TIDB_PASSWORD=
TIDB_PID=$CLEANUP_PID
TIDB_LOG=$dir/tidb.log
EOF
        for i in $(seq $((TIMEOUT * 10))); do
            kill -0 "$CLEANUP_PID" 2>/dev/null || break
            if client "$dir" -N -B -e "SELECT 1" >/dev/null 2>&1; then
                local limit
                limit=$(client "$dir" -N -B -e "SELECT @@global.tidb_server_memory_limit")
                [ "$limit" = "$MEMORY" ] ||
                    die "tidb_server_memory_limit is '$limit', not '$MEMORY'" "$dir/tidb.log"
                CLEANUP_PID=
                echo "$port"
                return 0
            fi
            sleep 0.1
        done
        kill -0 "$CLEANUP_PID" 2>/dev/null &&
            die "tidb-server did not answer SQL within $TIMEOUT s" "$dir/tidb.log"
        wait "$CLEANUP_PID" 2>/dev/null || true
        CLEANUP_PID=
        cat "$dir/stdout.log" >>"$dir/tidb.log"
        # another process took a port between the check and the bind: try others
        if [ -z "$want_port" ] && grep -qi "address already in use" "$dir/tidb.log"; then
            msg "a port was taken meanwhile; trying others"
            rm -rf "$dir/store"
            continue
        fi
        break
    done
    rm -f "$dir/env" "$dir/tidb.pid"
    die "tidb-server exited during startup" "$dir/tidb.log"
}

cmd_stop() {
    local dir=$1 remove=0
    [ "${2:-}" = --remove ] && remove=1
    if [ -f "$dir/tidb.pid" ]; then
        stop_pid "$(cat "$dir/tidb.pid")"
        rm -f "$dir/tidb.pid"
    fi
    if [ "$remove" = 1 ]; then rm -rf "$dir"; fi
    return 0
}

[ $# -ge 2 ] || usage
command=$1 dir=$2
shift 2
case $command in
    start) cmd_start "$dir" "$@" ;;
    stop) cmd_stop "$dir" "$@" ;;
    status) running "$dir" ;;
    sql)
        opts=()
        while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do opts+=("$1"); shift; done
        [ $# -ge 1 ] || usage
        sql=""
        for statement in "$@"; do sql+="$statement;"$'\n'; done
        client "$dir" "${opts[@]}" -e "$sql" ;;
    *) usage ;;
esac
