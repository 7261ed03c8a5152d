#!/usr/bin/env bash
# demo.sh: sets everything up (Debian packages, build) and runs the main job: an OLTP
# benchmark on the embedded RocksDB driver (no server needed). Until that driver is built in,
# it runs the CPU test and a Lua workload.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
sb=src/sysbench

if $sb --help | grep -q "^  rocksdb - "; then
  dir=$(mktemp -d /tmp/sysbench-demo.XXXXXX)
  trap 'rm -rf "$dir"' EXIT
  $sb oltp_read_write --db-driver=rocksdb --rocksdb-path="$dir/db" --tables=4 \
      --table-size=100000 --threads=4 prepare
  $sb oltp_read_write --db-driver=rocksdb --rocksdb-path="$dir/db" --tables=4 \
      --table-size=100000 --threads=4 --time=10 --report-interval=2 --rand-type=uniform run
  $sb oltp_read_write --db-driver=rocksdb --rocksdb-path="$dir/db" --tables=4 cleanup
else
  $sb cpu --threads=2 --time=5 --report-interval=1 run
  $sb - --threads=2 --time=5 --report-interval=1 run <<'LUA'
function event()
  local id = sysbench.rand.uniform(1, 1000000)
  local s = sysbench.rand.string("###########-###########")
end
LUA
fi
