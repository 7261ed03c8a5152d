#!/usr/bin/env bash
# setup.sh [--test]: installs what building (and, with --test, testing) needs from Debian's
# packages, then builds sysbench in the source tree (src/sysbench). Safe to run again: it
# installs only what is missing and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

build_pkgs="build-essential autoconf automake libtool pkg-config libluajit-5.1-dev libck-dev
  libmariadb-dev libpq-dev librocksdb-dev libaio-dev"
# The reference sysbench 1.0.20 and MariaDB and PostgreSQL servers for side-by-side and live
# tests; openssl for the TLS tests; util-linux-extra for fincore (is a table in the page cache?);
# xz-utils to unpack the TiDB server beside the repository (../shared/tidb); chromium renders
# the result pages and charts (tests/cli/results_render.t); man-db for `man sysbench`; clang
# and its runtime libraries (libFuzzer, not pulled in without recommends) build the parser's
# fuzz target (tests/cli/fuzz_parser.t).
test_pkgs="sysbench mariadb-server mariadb-client postgresql postgresql-client openssl procps
  python3 iproute2 strace util-linux-extra xz-utils chromium man-db clang libclang-rt-dev"

want="$build_pkgs"
[ "${1:-}" = "--test" ] && want="$want $test_pkgs"

missing=()
for p in $want; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  # Never start the packaged database service: tests run private servers of their own.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod +x /usr/sbin/policy-rc.d
    trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 || {
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  }
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
  ./autogen.sh >/dev/null 2>&1
fi
if [ ! -f Makefile ] || [ configure -nt Makefile ]; then
  ./configure --enable-werror >/dev/null
fi
make -j"$(nproc)" >/dev/null
echo "setup: built $(pwd)/src/sysbench"
