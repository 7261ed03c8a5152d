# shellcheck shell=bash
# tidb.sh: a real TiDB server for one live test file (sourced after tap.sh).
#
#   tidb_server_start
#       With SYSBENCH_TEST_TIDB=host:port (user SYSBENCH_TEST_TIDB_USER, default root;
#       password SYSBENCH_TEST_TIDB_PASSWORD, default empty) the tests use that server.
#       Otherwise scripts/tidb-sandbox.sh starts ../shared/tidb/tidb-server.xz in a fresh
#       directory under /tmp (decompressed once per archive content; 127.0.0.1 only, free
#       ports, memory capped), and it is stopped and removed when the test file exits. When the
#       archive is absent the test file ends with a skip saying so; when it is there and the
#       server does not start, with a failure and the tail of the server's log.
#       Sets TIDB_HOST, TIDB_PORT, TIDB_USER, TIDB_PASSWORD, TIDB_CONN (the --mysql-* options)
#       and TIDB_OWN (1 when the server is this file's own; TIDB_DIR is then its directory).
#   tidb ARGS...      runs our binary (like `sb`) with --db-driver=tidb and TIDB_CONN
#   tsql [-D DB] SQL  runs SQL (statements separated by ';') with the mariadb client; prints
#                     tab-separated rows without column names
#
# One server per test file: it takes ~1.5 cores and a few seconds to start.

TIDB_DIR=""
TIDB_OWN=0

# Ends the test file without a server.
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

_tidb_cleanup() {
  [ -n "$TIDB_DIR" ] && "$SRCDIR/scripts/tidb-sandbox.sh" stop "$TIDB_DIR" --remove >/dev/null 2>&1
  rm -rf "$TEST_TMP"
}

_tidb_set_conn() {
  TIDB_CONN=(--mysql-host="$TIDB_HOST" --mysql-port="$TIDB_PORT" --mysql-user="$TIDB_USER"
             --mysql-password="$TIDB_PASSWORD")
}

tidb_server_start() {
  local ci_or_skip=SKIP
  [ "${CI:-}" = true ] && ci_or_skip=FAIL
  command -v mariadb >/dev/null ||
    _tidb_give_up "$ci_or_skip" "the mariadb client is missing (bash scripts/setup.sh --test installs it)"
  "$SB" --help | grep -q "^  tidb - " ||
    _tidb_give_up "$ci_or_skip" "this build has no tidb driver (install libmariadb-dev and rebuild)"

  if [ -n "${SYSBENCH_TEST_TIDB:-}" ]; then
    TIDB_HOST=${SYSBENCH_TEST_TIDB%:*}
    TIDB_PORT=${SYSBENCH_TEST_TIDB##*:}
    TIDB_USER=${SYSBENCH_TEST_TIDB_USER:-root}
    TIDB_PASSWORD=${SYSBENCH_TEST_TIDB_PASSWORD:-}
    _tidb_set_conn
    tsql "SELECT tidb_version()" >/dev/null 2>"$TEST_TMP/connect.err" ||
      _tidb_give_up FAIL "SYSBENCH_TEST_TIDB=$SYSBENCH_TEST_TIDB does not answer" "$TEST_TMP/connect.err"
    return 0
  fi

  TIDB_DIR=$(mktemp -d /tmp/tidb-test.XXXXXX)
  trap _tidb_cleanup EXIT
  "$SRCDIR/scripts/tidb-sandbox.sh" start "$TIDB_DIR" >/dev/null 2>"$TEST_TMP/start.log"
  case $? in
    0) ;;
    3) _tidb_give_up SKIP "no TiDB to test against: $(tail -1 "$TEST_TMP/start.log" | sed 's/^.*no TiDB server: //') (or set SYSBENCH_TEST_TIDB=host:port)" ;;
    *) _tidb_give_up FAIL "$(grep -m1 'error:' "$TEST_TMP/start.log" | sed 's/^[^:]*: error: //')" "$TEST_TMP/start.log" ;;
  esac
  # shellcheck disable=SC1091
  . "$TIDB_DIR/env"
  TIDB_OWN=1
  _tidb_set_conn
}

tidb() { sb "$@" --db-driver=tidb "${TIDB_CONN[@]}"; }

tsql() {
  local db=test
  if [ "$1" = -D ]; then db=$2; shift 2; fi
  MYSQL_PWD="$TIDB_PASSWORD" mariadb --no-defaults -h"$TIDB_HOST" -P"$TIDB_PORT" \
    -u"$TIDB_USER" -N -B -D "$db" -e "$1"
}
