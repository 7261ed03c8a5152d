# mounts.sh: small private file systems under $TEST_TMP for the tests of a full disk, read-only
# media and a file system without O_DIRECT (sourced after tap.sh). Mounting needs root.
#
#   scratch_mount NAME TYPE [OPTIONS]   mount TYPE (tmpfs, ramfs) with OPTIONS (mount -o) at
#                                       $TEST_TMP/NAME and print that path; on failure print
#                                       nothing, set $mount_why and return 1
#   scratch_remount_ro DIR              make a mounted DIR read-only
#   mounts_or_skip N WHY                when mounting is not possible: in CI (CI=true) one
#                                       failing check (CI must run these tests), elsewhere N
#                                       skips with the reason; returns 1 so the caller skips
#                                       its block
# Every mount is unmounted at exit, before tap.sh removes $TEST_TMP.

scratch_mounts=()
mount_why=""

_scratch_unmount_all() {
  local m
  for m in "${scratch_mounts[@]}"; do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
  done
  scratch_mounts=()
}
trap '_scratch_unmount_all; rm -rf "$TEST_TMP"' EXIT

scratch_mount() {
  local name=$1 type=$2 options=${3:-} dir="$TEST_TMP/$1" msg
  mkdir -p "$dir"
  if [ "$(id -u)" != 0 ]; then
    mount_why="mounting a $type needs root (running as $(id -un))"
    return 1
  fi
  if ! msg=$(mount -t "$type" ${options:+-o "$options"} "$name" "$dir" 2>&1); then
    mount_why="mount -t $type failed: $msg"
    return 1
  fi
  scratch_mounts+=("$dir")
  echo "$dir"
}

scratch_remount_ro() {
  mount -o remount,ro "$1"
}

mounts_or_skip() {
  local n=$1 why=$2 i
  if [ "${CI:-}" = true ]; then
    ok 1 "$why: a private mount must work in CI: $mount_why"
  else
    for ((i = 0; i < n; i++)); do skip "$why: $mount_why"; done
  fi
  return 1
}
