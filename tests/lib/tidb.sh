# shellcheck shell=bash
# tidb.sh: a real TiDB server for one live test file (sourced after tap.sh).
#
#   tidb_server_start
#       With SYSBENCH_TEST_TIDB=host:port (user SYSBENCH_TEST_TIDB_USER, default root;
#       password SYSBENCH_TEST_TIDB_PASSWORD, default empty) the tests use that server.
#       Otherwise it starts $SRCDIR/../shared/tidb/tidb-server.xz: decompressed once into a
#       cache directory keyed by the archive's sha256 (SYSBENCH_TIDB_CACHE, default
#       ${TMPDIR:-/tmp}/tidb-cache), run standalone (-store=unistore) on 127.0.0.1 with its own
#       data directory under /tmp and free ports (SYSBENCH_TIDB_PORT_MIN..MAX, default
#       20000..32000), memory capped (tidb_server_memory_limit, SYSBENCH_TIDB_MEMORY, default
#       1GB), and stopped when the test file exits. When the archive is absent the test file
#       ends with a skip saying so; when it is there and the server does not start, with a
#       failure (and the tail of the server's log).
#       Sets TIDB_HOST, TIDB_PORT, TIDB_USER, TIDB_PASSWORD, TIDB_CONN (the --mysql-* options),
#       TIDB_OWN (1 when the server is ours) and, for our own server, TIDB_DIR, TIDB_PID,
#       TIDB_STATUS_PORT, TIDB_LOG.
#   tidb ARGS...      runs our binary (like `sb`) with --db-driver=tidb and TIDB_CONN
#   tsql [-D DB] SQL  runs SQL (one argument, statements separated by ';') as TIDB_USER with
#                     the mariadb client; prints tab-separated rows without column names
#   tidb_kill_session ID   KILL CONNECTION ID, as the server's admin would

TIDB_DIR=""
TIDB_PID=""
TIDB_OWN=0

_tidb_archive() { echo "$SRCDIR/../shared/tidb/tidb-server.xz"; }

# Ends the test file: a failure in any case where the server should have started.
_tidb_give_up() {   # _tidb_give_up FAIL|SKIP REASON [LOGFILE]
  if [ "$1" = FAIL ]; then
    _tap_result 0 "a TiDB server to test against starts: $2"
    [ -n "${3:-}" ] && [ -f "$3" ] && tail -n 15 "$3" | sed 's/^/#   /'
  else
    skip "$2"
  fi
  done_testing
  exit
}

# The path of the decompressed tidb-server (decompressing it the first time).
_tidb_binary() {
  local archive sum cache bin tmp
  archive=$(_tidb_archive)
  sum=$(sha256sum "$archive" | cut -c1-64) || return 1
  cache=${SYSBENCH_TIDB_CACHE:-${TMPDIR:-/tmp}/tidb-cache}/$sum
  bin=$cache/tidb-server
  if [ ! -x "$bin" ]; then
    mkdir -p "$cache" || return 1
    # Several test files may get here at once: each writes its own file and renames it.
    tmp=$(mktemp "$cache/.tidb-server.XXXXXX") || return 1
    if ! xz -dc "$archive" >"$tmp" || ! chmod 755 "$tmp" || ! mv -f "$tmp" "$bin"; then
      rm -f "$tmp"
      return 1
    fi
  fi
  echo "$bin"
}

_tidb_port_free() {
  python3 - "$1" <<'EOF' 2>/dev/null
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
EOF
}

# A random free port in [SYSBENCH_TIDB_PORT_MIN, SYSBENCH_TIDB_PORT_MAX], other than $1.
_tidb_pick_port() {
  local lo=${SYSBENCH_TIDB_PORT_MIN:-20000} hi=${SYSBENCH_TIDB_PORT_MAX:-32000} p i
  for i in $(seq 50); do
    p=$((lo + (RANDOM * 32768 + RANDOM) % (hi - lo + 1)))
    [ "$p" != "${1:-}" ] && _tidb_port_free "$p" && { echo "$p"; return 0; }
  done
  return 1
}

_tidb_cleanup() {
  if [ -n "$TIDB_PID" ] && kill -0 "$TIDB_PID" 2>/dev/null; then
    kill -TERM "$TIDB_PID" 2>/dev/null
    local i
    for i in $(seq 100); do
      kill -0 "$TIDB_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$TIDB_PID" 2>/dev/null
    wait "$TIDB_PID" 2>/dev/null
  fi
  [ -n "$TIDB_DIR" ] && rm -rf "$TIDB_DIR"
  rm -rf "$TEST_TMP"
}

_tidb_set_conn() {
  TIDB_CONN=(--mysql-host="$TIDB_HOST" --mysql-port="$TIDB_PORT" --mysql-user="$TIDB_USER"
             --mysql-password="$TIDB_PASSWORD")
}

tidb_server_start() {
  command -v mariadb >/dev/null ||
    _tidb_give_up "$([ "${CI:-}" = true ] && echo FAIL || echo SKIP)" \
      "the mariadb client is missing (bash scripts/setup.sh --test installs it)"
  if ! "$SB" --help | grep -q "^  tidb - "; then
    _tidb_give_up "$([ "${CI:-}" = true ] && echo FAIL || echo SKIP)" \
      "this build has no tidb driver (install libmariadb-dev and rebuild)"
  fi
  TIDB_USER=${SYSBENCH_TEST_TIDB_USER:-root}
  TIDB_PASSWORD=${SYSBENCH_TEST_TIDB_PASSWORD:-}
  if [ -n "${SYSBENCH_TEST_TIDB:-}" ]; then
    TIDB_HOST=${SYSBENCH_TEST_TIDB%:*}
    TIDB_PORT=${SYSBENCH_TEST_TIDB##*:}
    _tidb_set_conn
    tsql "SELECT tidb_version()" >/dev/null 2>"$TEST_TMP/connect.err" ||
      _tidb_give_up FAIL "SYSBENCH_TEST_TIDB=$SYSBENCH_TEST_TIDB does not answer" \
        "$TEST_TMP/connect.err"
    return 0
  fi

  local archive bin status log i
  archive=$(_tidb_archive)
  [ -f "$archive" ] ||
    _tidb_give_up SKIP "no TiDB to test against: $archive is absent (or set SYSBENCH_TEST_TIDB=host:port)"
  bin=$(_tidb_binary 2>"$TEST_TMP/xz.err") ||
    _tidb_give_up FAIL "cannot decompress $archive" "$TEST_TMP/xz.err"

  TIDB_DIR=$(mktemp -d /tmp/tidb-test.XXXXXX)
  TIDB_OWN=1
  TIDB_HOST=127.0.0.1
  TIDB_LOG=$TIDB_DIR/tidb.log
  trap _tidb_cleanup EXIT
  mkdir -p "$TIDB_DIR/tmp"
  printf '[log]\nlevel = "warn"\n' >"$TIDB_DIR/tidb.toml"
  # The store is new, so this runs once, before the server takes connections.
  printf "SET GLOBAL tidb_server_memory_limit = '%s';\n" "${SYSBENCH_TIDB_MEMORY:-1GB}" \
    >"$TIDB_DIR/init.sql"

  # A port taken between the check and the server's bind: try other ports.
  local attempt
  for attempt in 1 2 3 4; do
    TIDB_PORT=$(_tidb_pick_port) && status=$(_tidb_pick_port "$TIDB_PORT") ||
      _tidb_give_up FAIL "no free TCP port between ${SYSBENCH_TIDB_PORT_MIN:-20000} and ${SYSBENCH_TIDB_PORT_MAX:-32000}"
    TIDB_STATUS_PORT=$status
    rm -rf "$TIDB_DIR/store"
    (cd "$TIDB_DIR" && exec "$bin" -config="$TIDB_DIR/tidb.toml" -store=unistore \
        -path="$TIDB_DIR/store" -host=127.0.0.1 -P="$TIDB_PORT" -status-host=127.0.0.1 \
        -status="$status" -socket="$TIDB_DIR/tidb.sock" -temp-dir="$TIDB_DIR/tmp" \
        -log-file="$TIDB_LOG" -log-slow-query="$TIDB_DIR/tidb-slow.log" \
        -initialize-sql-file="$TIDB_DIR/init.sql" >"$TIDB_DIR/stdout.log" 2>&1) &
    TIDB_PID=$!
    _tidb_set_conn
    for i in $(seq 600); do
      kill -0 "$TIDB_PID" 2>/dev/null || break
      if tsql "SELECT 1" >/dev/null 2>&1; then
        [ "$(tsql "SELECT @@global.tidb_server_memory_limit")" = "${SYSBENCH_TIDB_MEMORY:-1GB}" ] ||
          _tidb_give_up FAIL "the memory limit was not set" "$TIDB_LOG"
        return 0
      fi
      sleep 0.1
    done
    if kill -0 "$TIDB_PID" 2>/dev/null; then
      _tidb_give_up FAIL "tidb-server did not take SQL within 60 s" "$TIDB_LOG"
    fi
    wait "$TIDB_PID" 2>/dev/null
    TIDB_PID=""
    grep -qi "address already in use" "$TIDB_LOG" "$TIDB_DIR/stdout.log" 2>/dev/null || break
  done
  cat "$TIDB_DIR/stdout.log" >>"$TIDB_LOG" 2>/dev/null
  _tidb_give_up FAIL "tidb-server exited during startup" "$TIDB_LOG"
}

tidb() { sb "$@" --db-driver=tidb "${TIDB_CONN[@]}"; }

tsql() {
  local db=test
  if [ "$1" = -D ]; then db=$2; shift 2; fi
  MYSQL_PWD="$TIDB_PASSWORD" mariadb --no-defaults -h"$TIDB_HOST" -P"$TIDB_PORT" \
    -u"$TIDB_USER" -N -B -D "$db" -e "$1"
}

tidb_kill_session() { tsql "KILL CONNECTION $1" >/dev/null; }
