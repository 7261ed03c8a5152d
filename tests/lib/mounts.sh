# mounts.sh: small private file systems under $TEST_TMP for the tests of a full disk, read-only
# media and a file system without O_DIRECT (sourced after tap.sh). Mounting needs root.
#
#   scratch_mount VAR NAME TYPE [OPTIONS]
#                           mount TYPE (tmpfs, ramfs) with OPTIONS (mount -o) at $TEST_TMP/NAME
#                           and set VAR to that path; on failure set $mount_why and return 1.
#                           Call it in the test's own shell, not in $( ): the exit handler
#                           must see the mount.
#   scratch_remount_ro DIR  make a mounted DIR read-only
#   mounts_or_skip N WHY    when mounting is not possible: in CI (CI=true) one failing check
#                           (CI must run these tests), elsewhere N skips with the reason;
#                           returns 1 so the caller skips its block
# At exit every file system mounted under $TEST_TMP is unmounted (whether or not this file
# mounted it), then tap.sh's scratch directory is removed.

mount_why=""

_scratch_unmount_all() {
  local m
  # Deepest first, so a mount inside another comes off before its parent.
  awk -v top="$TEST_TMP/" 'index($2, top) == 1 { print $2 }' /proc/self/mounts | sort -r |
    while read -r m; do
      umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
    done
}
trap '_scratch_unmount_all; rm -rf "$TEST_TMP"' EXIT

scratch_mount() {
  local var=$1 name=$2 type=$3 options=${4:-} dir="$TEST_TMP/$2" msg
  mkdir -p "$dir"
  if [ "$(id -u)" != 0 ]; then
    mount_why="mounting a $type needs root (running as $(id -un))"
    return 1
  fi
  if ! msg=$(mount -t "$type" ${options:+-o "$options"} "$name" "$dir" 2>&1); then
    mount_why="mount -t $type failed: $msg"
    return 1
  fi
  printf -v "$var" '%s' "$dir"
}

scratch_remount_ro() {
  mount -o remount,ro "$1"
}

mounts_or_skip() {
  local n=$1 why=$2 i
  if [ "${CI:-}" = true ]; then
    fail "$why: a private mount must work in CI: $mount_why"
  else
    for ((i = 0; i < n; i++)); do skip "$why: $mount_why"; done
  fi
  return 1
}
