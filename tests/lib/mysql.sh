# mysql.sh: a private MariaDB server for one live test file (sourced after tap.sh).
#
#   mysql_sandbox_start [--tls] [-- EXTRA_MARIADBD_OPTIONS...]
#       starts scripts/mariadb-sandbox.sh in a fresh directory under /tmp (socket paths must
#       stay short), stops and removes it when the test file exits, and sets MYSQL_HOST,
#       MYSQL_PORT, MYSQL_SOCKET, MYSQL_USER, MYSQL_PASSWORD, MYSQL_DB (and MYSQL_SSL_* with
#       --tls) from its env file. When the server cannot start, the test file ends here: as a
#       failure in CI (CI=true), as a skip with the reason otherwise.
#   my ARGS...      runs our binary (like `sb`) against the sandbox
#   ref_my ARGS...  the same with the reference sysbench 1.0.20
#   sql SQL...      runs statements as root over the socket, in the sbtest database; prints
#                   tab-separated rows
#   free_port       prints a TCP port nobody listens on

SANDBOX_DIR=""

_mysql_sandbox_cleanup() {
  if [ -n "$SANDBOX_DIR" ]; then
    "$SRCDIR/scripts/mariadb-sandbox.sh" stop "$SANDBOX_DIR" --remove >/dev/null 2>&1
  fi
  rm -rf "$TEST_TMP"
}

mysql_sandbox_start() {
  local log
  SANDBOX_DIR=$(mktemp -d /tmp/sbm.XXXXXX)
  trap _mysql_sandbox_cleanup EXIT
  log="$TEST_TMP/sandbox.log"
  if ! "$SRCDIR/scripts/mariadb-sandbox.sh" start "$SANDBOX_DIR" "$@" >/dev/null 2>"$log"; then
    local why
    why=$(tail -n 5 "$log" | tr '\n' ' ')
    if [ "${CI:-}" = true ]; then
      fail "the MariaDB sandbox starts (CI must be able to run live tests): $why"
    else
      skip "cannot start a MariaDB sandbox server: $why"
    fi
    done_testing
    exit
  fi
  # shellcheck disable=SC1091
  . "$SANDBOX_DIR/env"
  MYSQL_ARGS=(--mysql-host="$MYSQL_HOST" --mysql-port="$MYSQL_PORT" --mysql-user="$MYSQL_USER"
              --mysql-password="$MYSQL_PASSWORD" --mysql-db="$MYSQL_DB")
}

my() { sb "$@" "${MYSQL_ARGS[@]}"; }
ref_my() { ref "$@" "${MYSQL_ARGS[@]}"; }

sql() {
  "$SRCDIR/scripts/mariadb-sandbox.sh" sql "$SANDBOX_DIR" -N -B --database=sbtest "$@"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The number after "NAME:" in a sysbench report ($out): read, write, other, total,
# transactions, queries, "ignored errors", reconnects, "total number of events". A report
# without it gives tap.sh's "<not found: NAME>", which no check takes for a value.
stat() {
  local n
  n=$(printf '%s\n' "$out" | sed -nE "s/^ +$1: +([0-9]+).*/\1/p" | head -1)
  printf '%s\n' "${n:-$TAP_NOT_FOUND$1>}"
}
