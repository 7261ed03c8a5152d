# pgsql.sh: a private PostgreSQL server for one live test file (sourced after tap.sh).
#
#   pgsql_sandbox_start [--tls] [-- EXTRA_POSTGRES_OPTIONS...]
#       starts scripts/pgsql-sandbox.sh in a fresh directory under /tmp (socket paths must
#       stay short), stops and removes it when the test file exits, and sets PGSQL_HOST,
#       PGSQL_PORT, PGSQL_USER, PGSQL_PASSWORD, PGSQL_DB and PGSQL_ARGS (the --pgsql-*
#       options, with --db-driver=pgsql) from its env file. When the server cannot start, the
#       test file ends here: as a failure in CI (CI=true), as a skip with the reason otherwise.
#   pg ARGS...      runs our binary (like `sb`) against the sandbox
#   ref_pg ARGS...  the same with the reference sysbench 1.0.20
#   psql_do SQL...  runs statements as the superuser over the socket, in the sbtest database;
#                   prints unaligned, tuples-only rows ('|' between columns)
#   pg_free_port    prints a TCP port nobody listens on

PGSQL_SANDBOX_DIR=""

_pgsql_sandbox_cleanup() {
  if [ -n "$PGSQL_SANDBOX_DIR" ]; then
    "$SRCDIR/scripts/pgsql-sandbox.sh" stop "$PGSQL_SANDBOX_DIR" --remove >/dev/null 2>&1
  fi
  rm -rf "$TEST_TMP"
}

pgsql_sandbox_start() {
  local log
  PGSQL_SANDBOX_DIR=$(mktemp -d /tmp/sbp.XXXXXX)
  trap _pgsql_sandbox_cleanup EXIT
  log="$TEST_TMP/pgsql-sandbox.log"
  if ! "$SRCDIR/scripts/pgsql-sandbox.sh" start "$PGSQL_SANDBOX_DIR" "$@" >/dev/null 2>"$log"; then
    local why
    why=$(tail -n 5 "$log" | tr '\n' ' ')
    if [ "${CI:-}" = true ]; then
      fail "the PostgreSQL sandbox starts (CI must be able to run live tests): $why"
    else
      skip "cannot start a PostgreSQL sandbox server: $why"
    fi
    done_testing
    exit
  fi
  if ! "$SB" --help | grep -q '^  pgsql - '; then
    if [ "${CI:-}" = true ]; then
      fail "the binary under test has the pgsql driver (CI builds it: install libpq-dev)"
    else
      skip "$SB was built without the pgsql driver (install libpq-dev and reconfigure)"
    fi
    done_testing
    exit
  fi
  # shellcheck disable=SC1091
  . "$PGSQL_SANDBOX_DIR/env"
  PGSQL_ARGS=(--db-driver=pgsql --pgsql-host="$PGSQL_HOST" --pgsql-port="$PGSQL_PORT"
              --pgsql-user="$PGSQL_USER" --pgsql-password="$PGSQL_PASSWORD"
              --pgsql-db="$PGSQL_DB")
}

pg() { sb "$@" "${PGSQL_ARGS[@]}"; }
ref_pg() { ref "$@" "${PGSQL_ARGS[@]}"; }

psql_do() {
  "$SRCDIR/scripts/pgsql-sandbox.sh" sql "$PGSQL_SANDBOX_DIR" -A -t "$@"
}

pg_free_port() {
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
