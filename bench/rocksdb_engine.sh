#!/usr/bin/env bash
# rocksdb_engine.sh: the embedded RocksDB driver against RocksDB's own db_bench (Debian's
# rocksdb-tools), configured alike: same key and value sizes (14-byte keys, 190-byte rows),
# block cache, block size, compression, bloom filter and memtable size.
#
#   bench/rocksdb_engine.sh [--rows N] [--time T] [--rounds R] [--sb PATH] [--dir DIR]
#
# 1. load: `prepare` of 1 table x N rows (default 10M; --threads=2, secondary index included)
#    vs db_bench fillseq (1 thread, no WAL), alternating: bytes of key+value written per
#    second (ours: primary rows and index entries) and rows per second.
# 2. point reads: oltp_point_select --rand-type=uniform at 1 and 2 threads vs db_bench
#    readrandom on the database it filled, both databases read once into the OS page cache
#    first, alternating runs: events/s ratio, and our process's peak resident memory against
#    the configured cache + memtables.
# Goals (issue 4): load bytes/s >= 0.8x fillseq; point selects >= 0.8x readrandom.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rows=10000000
secs=20
rounds=3
sb="$(cd "$(dirname "$0")/.." && pwd)/src/sysbench"
dir=/tmp/sysbench-rocksdb-bench
bench_options "rows=rows time=secs rounds=rounds sb=sb dir=dir" "$@"

bench_need_debs rocksdb-tools
bench_need_time
[ -x "$sb" ] || bench_die "no sysbench binary at $sb (run scripts/setup.sh)"
"$sb" --help | grep "^  rocksdb - " >/dev/null || bench_die "$sb has no rocksdb driver"

cache=268435456          # 256M, our default --rocksdb-cache-size
block=16384
wbuf=67108864
# Our driver keeps index and filter blocks in the block cache (memory bounded by it): the
# anchor is configured the same way. sbtest rows are random digits that lz4 does not shrink
# (on-disk size ~ raw size), so db_bench's values are made incompressible too: its default
# half-compressible values would give it a working set half the size.
common_db_bench=(--key_size=14 --value_size=190 --compression_type=lz4 --compression_ratio=1
                 --cache_size=$cache
                 --bloom_bits=10 --block_size=$block --write_buffer_size=$wbuf
                 --cache_index_and_filter_blocks=1 --pin_l0_filter_and_index_blocks_in_cache=1
                 --num="$rows" --db="$dir/db_bench")
ours=(--db-driver=rocksdb --rocksdb-path="$dir/ours" --rocksdb-cache-size=$cache
      --rocksdb-block-size=$block --rocksdb-write-buffer-size=$wbuf --rocksdb-compression=lz4
      --rocksdb-bloom-bits=10 --table-size="$rows" --tables=1 --rand-type=uniform)

rm -rf "$dir"
mkdir -p "$dir"
trap 'rm -rf "$dir"' EXIT
log="$dir/log"

echo "rocksdb_engine: $rows rows, $secs s per read run, $rounds rounds, $(nproc) CPUs"
echo

# ---- 1. load (alternating, each on a fresh directory; the last load of ours is kept) -----
declare -A load
load_side() {   # load_side ROUND SIDE
  if [ "$2" = ref ]; then
    rm -rf "$dir/db_bench"
    db_bench --benchmarks=fillseq --disable_wal=1 "${common_db_bench[@]}" >"$log" 2>&1 ||
      bench_die "db_bench fillseq failed: $(tail -3 "$log")"
    local ops
    ops=$(awk '/^fillseq/ {for (i = 1; i <= NF; i++) if ($i == "ops/sec") print $(i-1)}' "$log")
    load[ref]="${load[ref]:-} $ops"
    printf '  round %d db_bench fillseq %10s rows/s\n' "$1" "$(bench_si "$ops")"
  else
    rm -rf "$dir/ours"
    "$sb" oltp_point_select "${ours[@]}" --threads=2 prepare >"$log" 2>&1 ||
      { cat "$log"; bench_die "prepare failed"; }
    local r
    r=$(sed -nE 's/.*\(([0-9]+) rows\/s.*/\1/p' "$log")
    load[ours]="${load[ours]:-} $r"
    # The rate is the load's own; the read-back into the page cache that follows it is shown
    # beside it, so prepare's whole time is on record too.
    printf '  round %d ours prepare    %10s rows/s  (%s; %s)\n' "$1" "$(bench_si "$r")" \
           "$(grep -E '^Data size' "$log" | sed 's/^Data size: //')" \
           "$(sed -nE 's/^Read (.*) of table files into the OS page cache in (.*)/read back \1 in \2/p' "$log")"
  fi
}
echo "== load of 1 table x $rows rows (ours: prepare --threads=2, with the index on k)"
bench_alternate "$rounds" load_side
[ -d "$dir/ours" ] || load_side 0 ours >/dev/null
[ -d "$dir/db_bench" ] || load_side 0 ref >/dev/null
load_rows=$(bench_median ${load[ours]})
fill_ops=$(bench_median ${load[ref]})
# Bytes of key + value per row: db_bench writes 14 + 190; we write that plus a 22-byte
# secondary index entry.
fill_mb=$(awk -v r="$fill_ops" 'BEGIN { printf "%.1f", r * (14 + 190) / 1048576 }')
load_mb=$(awk -v r="$load_rows" 'BEGIN { printf "%.1f", r * (14 + 190 + 22) / 1048576 }')
printf '  median: ours %s rows/s (%s MiB/s of key+value, index included), db_bench %s rows/s (%s MiB/s)\n' \
       "$(bench_si "$load_rows")" "$load_mb" "$(bench_si "$fill_ops")" "$fill_mb"
echo

# ---- 2. point reads -----------------------------------------------------------------------
declare -A results
run_side() {   # run_side ROUND SIDE
  local out="$dir/out.$2" rate
  if [ "$2" = ours ]; then
    /usr/bin/time -o "$dir/rss" -f "%M" \
      "$sb" oltp_point_select "${ours[@]}" --threads="$threads" --time="$secs" run >"$out" 2>&1 ||
      bench_die "our run failed: $(tail -3 "$out")"
    rate=$(awk '/transactions:/ {gsub(/\(/, "", $3); print $3}' "$out")
    results[ours_rss]="${results[ours_rss]:-} $(tail -n 1 "$dir/rss")"
  else
    db_bench --benchmarks=readrandom --use_existing_db=1 >"$out" 2>&1 \
      --threads="$threads" --duration="$secs" "${common_db_bench[@]}" ||
      bench_die "db_bench failed: $(tail -3 "$out")"
    rate=$(awk '/^readrandom/ {for (i = 1; i <= NF; i++) if ($i == "ops/sec") print $(i-1)}' "$out")
  fi
  printf '  round %d %-9s %12s ops/s\n' "$1" "$2" "$(bench_si "$rate")"
  results[$2]="${results[$2]:-} $rate"
}

# Both databases fully in the OS page cache, so reads measure the engines, not the disk
# (prepare reads its files back already; this makes sure for both sides, whatever ran since).
cat "$dir"/ours/*.sst "$dir"/db_bench/*.sst >/dev/null

summary=()
for threads in 1 2; do
  results=()
  echo "== point reads, $threads thread(s)"
  bench_alternate "$rounds" run_side
  o=$(bench_median ${results[ours]})
  r=$(bench_median ${results[ref]})
  rss=$(bench_median ${results[ours_rss]})
  printf '  median: ours %s events/s, db_bench readrandom %s ops/s, ratio %s\n' \
         "$(bench_si "$o")" "$(bench_si "$r")" "$(bench_ratio "$o" "$r")"
  printf '  our peak RSS %.0f MiB (cache %d MiB + memtables up to %d MiB)\n' \
         "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" $((cache >> 20)) $((2 * (wbuf >> 20)))
  summary+=("point select threads=$threads: events/s ratio $(bench_ratio "$o" "$r") (ours $(bench_si "$o")/s, db_bench readrandom $(bench_si "$r")/s), peak RSS $(awk -v k="$rss" 'BEGIN { printf "%.0f", k / 1024 }') MiB")
done

echo
echo "Summary (medians of alternating rounds, this run only; goal >= 0.8x):"
echo "load: bytes loaded/s ratio $(bench_ratio "$load_mb" "$fill_mb") (ours $load_mb MiB/s of key+value incl. the k index, db_bench fillseq $fill_mb MiB/s), rows/s ratio $(bench_ratio "$load_rows" "$fill_ops")"
for line in "${summary[@]}"; do echo "$line"; done
