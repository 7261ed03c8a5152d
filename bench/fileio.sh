#!/usr/bin/env bash
# bench/fileio.sh: random file I/O operations per second of our fileio test, next to the
# reference sysbench 1.0.20 and to fio, on the same files with the same pattern, in rotating runs.
#
#   bash bench/fileio.sh [--rounds N] [--time T] [--size SIZE] [--dir DIR] [--only buffered|direct]
#                        [--rw] [--files N] [--sb PATH] [--ref PATH]
#
# One set of --file-num=4 test files of SIZE in all (default 2G), prepared once by our binary
# in DIR (default: a new directory under /tmp; it must allow O_DIRECT), then for every case
#   rndrd / rndwr  x  4K / 16K blocks  x  sync / async (libaio, 128 in flight)  x
#   buffered / direct (O_DIRECT)
# it runs ours, 1.0.20 and fio T seconds each (default 4), N times (default 3), each round
# starting with the next tool (ours ref fio, ref fio ours, fio ours ref, ...). One thread; no
# fsync on either side (sysbench: --file-fsync-freq=0 --file-fsync-end=off). fio gets the same
# files, block size, engine (psync or libaio with iodepth 128) and a uniform random offset with
# repeats (norandommap, file_service_type=random), as sysbench draws them, and leaves the page
# cache alone (invalidate=0; by default fio drops the files from it). It prints every run,
# then per case the medians of ops/s and ops per CPU-second and the ratios ours/1.0.20 and
# ours/fio, and ends with one summary line per case next to the goals (>= 1.0x of 1.0.20,
# >= 0.9x of fio). It never fails on a figure.
#
# --rw runs instead rndrw 16K x sync / async x buffered / direct with sysbench's own fsync
# defaults (an fsync of every file each 100 requests, and at the end) on --files files
# (default 128, sysbench's own): ours against 1.0.20 only (fio has no such fsync rounds),
# ops/s being reads/s; each case also gives both tools' median fsyncs per read, which is
# what sets reads/s there.
#
# Where the page cache makes a case meaningless for the disk, the summary says so: buffered
# reads of files that fit in memory come from the page cache (the figure is the tool's cost per
# operation), buffered writes only dirty the page cache, and Linux AIO on a buffered file does
# the I/O inside io_submit, so "async" without direct is synchronous.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

goal_ref=1.0
goal_fio=0.9
sb="$(dirname "$here")/src/sysbench"
ref=/usr/bin/sysbench
rounds=3
seconds=4
size=2G
dir=""
only=""
files=""
backlog=128
rw=0

bench_options "rounds=rounds time=seconds size=size dir=dir only=only sb=sb ref=ref
               files=files rw:rw=1" "$@"
[ -n "$files" ] || { files=4; [ "$rw" = 1 ] && files=128; }
[[ $files =~ ^[1-9][0-9]*$ ]] || bench_die "--files '$files': expected a whole number >= 1"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || bench_die "--rounds '$rounds': expected a whole number >= 1"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || bench_die "--time '$seconds': expected whole seconds >= 1"
[[ $size =~ ^[1-9][0-9]*[KMG]$ ]] || bench_die "--size '$size': expected a size such as 512M or 2G"
case $only in "" | buffered | direct) ;; *) bench_die "--only '$only': expected buffered or direct" ;; esac

[ "$ref" != /usr/bin/sysbench ] || [ -x "$ref" ] || bench_need_debs sysbench
[ "$rw" = 1 ] || command -v fio >/dev/null || bench_need_debs fio
bench_need_time
bench_check_pair "$sb" "$ref"

work=$(mktemp -d)
made_dir=""
cleanup() {
  if [ -n "$made_dir" ]; then rm -rf "$made_dir"; fi
  rm -rf "$work"
}
trap cleanup EXIT
if [ -z "$dir" ]; then
  dir=$(mktemp -d /tmp/fileio-bench.XXXXXX)
  made_dir=$dir
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# The files: prepared once, by us (1.0.20 would write the same zeroes).
bench_log "preparing $files files of $size in all in $dir"
(cd "$dir" && "$sb" fileio --file-num=$files --file-total-size="$size" prepare >"$work/prepare" 2>&1) ||
  { cat "$work/prepare" >&2; bench_die "prepare failed in $dir"; }
file_list=$(seq -s: -f 'test_file.%g' 0 $((files - 1)))
python3 -c "import os; os.close(os.open('$dir/test_file.0', os.O_RDONLY | os.O_DIRECT))" 2>/dev/null ||
  bench_die "$dir does not allow O_DIRECT: pass --dir on a disk file system (ext4, xfs)"

sysbench_args() {   # the case's sysbench options
  local args=(fileio --file-num=$files --file-total-size="$size" --file-test-mode="$c_mode"
              --file-block-size="$c_bs" --file-io-mode="$c_io" --time="$seconds")
  [ "$c_mode" = rndrw ] || args+=(--file-fsync-freq=0 --file-fsync-end=off)
  [ "$c_io" = async ] && args+=(--file-async-backlog=$backlog)
  [ "$c_cache" = direct ] && args+=(--file-extra-flags=direct)
  printf '%s\n' "${args[@]}" run
}

fio_args() {   # the same case for fio
  local rw=randread engine=psync depth=1 direct=0
  [ "$c_mode" = rndwr ] && rw=randwrite
  [ "$c_io" = async ] && engine=libaio depth=$backlog
  [ "$c_cache" = direct ] && direct=1
  printf '%s\n' --name=fileio --filename="$file_list" --size="$size" --rw=$rw --bs="$c_bs" \
    --ioengine=$engine --iodepth=$depth --direct=$direct --time_based --runtime="$seconds" \
    --norandommap --randrepeat=0 --file_service_type=random --fsync=0 --end_fsync=0 \
    --invalidate=0 --numjobs=1 --minimal
}

# One run of the current case by one tool; appends ops/s and ops/CPU-s to that tool's arrays.
run_once() {
  local round=$1 side=$2 ops cpu args=()
  sync   # earlier writes are not flushed during this run
  case $side in
    ours | ref)
      mapfile -t args < <(sysbench_args)
      local bin=$sb
      [ "$side" = ref ] && bin=$ref
      (cd "$dir" && bench_timed_run "$work/out" "$work/cpu" "$bin" "${args[@]}") || {
        cat "$work/out" >&2
        bench_die "$side ($bin) failed on $c_name: output above"
      }
      local label="reads/s:"
      [ "$c_mode" = rndwr ] && label="writes/s:"
      ops=$(awk -v l="$label" '$1 == l { print $2; found = 1; exit } END { exit !found }' \
            "$work/out") || bench_die "no '$label' line in the output of $side on $c_name"
      if [ "$c_mode" = rndrw ]; then
        local fsyncs
        fsyncs=$(awk '$1 == "fsyncs/s:" { print $2 }' "$work/out")
        eval "${side}_fpr+=(\"\$(bench_div \"\$fsyncs\" \"\$ops\")\")"
      fi
      ;;
    fio)
      mapfile -t args < <(fio_args)
      (cd "$dir" && bench_timed_run "$work/out" "$work/cpu" fio "${args[@]}") || {
        cat "$work/out" >&2
        bench_die "fio failed on $c_name: output above"
      }
      # fio's terse (--minimal) line: field 8 is read IOPS, field 49 write IOPS.
      local field=8
      [ "$c_mode" = rndwr ] && field=49
      ops=$(awk -F';' -v f=$field '$1 == 3 { print $f; found = 1 } END { exit !found }' \
            "$work/out") || bench_die "no terse result line from fio on $c_name"
      ;;
  esac
  cpu=$(bench_cpu_seconds "$work/cpu")
  local per_cpu
  per_cpu=$(bench_div "$ops" "$(awk -v c="$cpu" -v t="$seconds" 'BEGIN { print c / t }')")
  eval "${side}_ops+=(\"\$ops\"); ${side}_cpu+=(\"\$per_cpu\")"
  printf '  round %-2s %-5s %9s ops/s %9s ops/CPU-s  (%s CPU-s)\n' "$round" "$side" \
    "$(bench_si "$ops")" "$(bench_si "$per_cpu")" "$cpu"
}

# What the page cache does to a case, for the summary.
cache_note() {
  [ "$c_cache" = direct ] && return 0
  local note
  if [ "$c_mode" = rndrd ]; then
    note="page cache: reads come from memory, so this is the tool's cost per read, not the disk"
  else
    note="page cache: writes only dirty memory, the disk is not measured"
  fi
  [ "$c_io" = async ] && note="$note; AIO on a buffered file is synchronous"
  printf '   [%s]' "$note"
}

summaries=()
run_case() {
  c_mode=$1 c_bs=$2 c_io=$3 c_cache=$4
  c_name="$c_mode $c_bs $c_io $c_cache"
  ours_ops=() ours_cpu=() ref_ops=() ref_cpu=() fio_ops=() fio_cpu=() ours_fpr=() ref_fpr=()
  printf '\n== %s ==\n' "$c_name"
  if [ "$c_mode" = rndrw ]; then
    bench_rotate "$rounds" run_once ours ref
    run_rw_summary
    return
  fi
  bench_rotate "$rounds" run_once ours ref fio

  local m_ours m_ref m_fio c_ours c_ref c_fio r_ref r_fio rc_ref verdict
  m_ours=$(bench_median "${ours_ops[@]}"); c_ours=$(bench_median "${ours_cpu[@]}")
  m_ref=$(bench_median "${ref_ops[@]}");   c_ref=$(bench_median "${ref_cpu[@]}")
  m_fio=$(bench_median "${fio_ops[@]}");   c_fio=$(bench_median "${fio_cpu[@]}")
  r_ref=$(bench_ratio "$m_ours" "$m_ref"); r_fio=$(bench_ratio "$m_ours" "$m_fio")
  rc_ref=$(bench_ratio "$c_ours" "$c_ref")

  printf '\n  %-16s %12s %14s\n' "median of $rounds" "ops/s" "ops/CPU-s"
  printf '  %-16s %12s %14s\n' ours "$(bench_si "$m_ours")" "$(bench_si "$c_ours")"
  printf '  %-16s %12s %14s\n' "sysbench 1.0.20" "$(bench_si "$m_ref")" "$(bench_si "$c_ref")"
  printf '  %-16s %12s %14s\n' fio "$(bench_si "$m_fio")" "$(bench_si "$c_fio")"
  printf '  %-16s %12s %14s\n' "ours/1.0.20" "$r_ref" "$rc_ref"
  printf '  %-16s %12s %14s\n' "ours/fio" "$r_fio" "$(bench_ratio "$c_ours" "$c_fio")"

  if bench_at_least "${r_ref%x}" "$goal_ref" && bench_at_least "${r_fio%x}" "$goal_fio"; then
    verdict="met"
  else
    verdict="NOT met"
  fi
  summaries+=("$(printf '%-26s ours/1.0.20 %s, ours/fio %s (ours %s ops/s)  [goals >= %sx, >= %sx: %s]%s' \
    "$c_name:" "$r_ref" "$r_fio" "$(bench_si "$m_ours")" "$goal_ref" "$goal_fio" "$verdict" \
    "$(cache_note)")")
}

# The summary of an rndrw case: ours against 1.0.20, reads/s and fsyncs per read.
run_rw_summary() {
  local m_ours m_ref c_ours c_ref f_ours f_ref r_ref
  m_ours=$(bench_median "${ours_ops[@]}"); c_ours=$(bench_median "${ours_cpu[@]}")
  m_ref=$(bench_median "${ref_ops[@]}");   c_ref=$(bench_median "${ref_cpu[@]}")
  f_ours=$(bench_median "${ours_fpr[@]}"); f_ref=$(bench_median "${ref_fpr[@]}")
  r_ref=$(bench_ratio "$m_ours" "$m_ref")
  printf '\n  %-16s %12s %14s %14s\n' "median of $rounds" "reads/s" "reads/CPU-s" "fsyncs/read"
  printf '  %-16s %12s %14s %14.3f\n' ours "$(bench_si "$m_ours")" "$(bench_si "$c_ours")" "$f_ours"
  printf '  %-16s %12s %14s %14.3f\n' "sysbench 1.0.20" "$(bench_si "$m_ref")" \
    "$(bench_si "$c_ref")" "$f_ref"
  printf '  %-16s %12s %14s\n' "ours/1.0.20" "$r_ref" "$(bench_ratio "$c_ours" "$c_ref")"
  local verdict="met"
  bench_at_least "${r_ref%x}" "$goal_ref" || verdict="NOT met"
  local line='%-26s ours/1.0.20 %s (ours %s reads/s), fsyncs per read ours %.3f, 1.0.20 %.3f'
  summaries+=("$(printf "$line  [goal >= %sx: %s]" "$c_name:" "$r_ref" "$(bench_si "$m_ours")" \
    "$f_ours" "$f_ref" "$goal_ref" "$verdict")")
}

if [ "$rw" = 1 ]; then
  printf 'fileio: ours %s vs sysbench 1.0.20 %s, rndrw with fsync rounds\n' "$sb" "$ref"
else
  printf 'fileio: ours %s vs sysbench 1.0.20 %s vs %s\n' "$sb" "$ref" "$(fio --version)"
fi
printf '%s rounds x %s s per run, each round starting with the next tool; ' "$rounds" "$seconds"
printf '%s files of %s in all in %s (%s)\n' "$files" "$size" "$dir" \
  "$(findmnt -n -o FSTYPE,SOURCE -T "$dir" | tr -s ' ')"
printf '%s CPUs, %s GiB of memory; load average at start: %s\n' "$(nproc)" \
  "$(awk '/^MemTotal:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)"

caches=(buffered direct)
[ -n "$only" ] && caches=("$only")
for cache in "${caches[@]}"; do
  # Buffered reads are meant to hit the page cache: read the files into it once.
  [ "$cache" = buffered ] && cat "$dir"/test_file.* >/dev/null
  if [ "$rw" = 1 ]; then
    for io in sync async; do
      run_case rndrw 16K "$io" "$cache"
    done
    continue
  fi
  for mode in rndrd rndwr; do
    for bs in 4K 16K; do
      for io in sync async; do
        run_case "$mode" "$bs" "$io" "$cache"
      done
    done
  done
done

printf '\nload average at end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'Summary (medians of %s rotating rounds; quote only these ratios, measured in this run):\n' "$rounds"
printf '%s\n' "${summaries[@]}"
