#!/usr/bin/env bash
# mysql_dry_run.t: --mysql-dry-run pretends every client call succeeds without a server:
# nothing is contacted, every statement counts as "other", and the counts of every bundled
# workload equal the reference 1.0.20's, with server-side and client-side statements alike.
. "$(dirname "$0")/../lib/tap.sh"

need_driver mysql libmariadb-dev

# No server anywhere near: a reserved documentation address and port 1.
dry=(--mysql-dry-run --mysql-host=192.0.2.1 --mysql-port=1 --mysql-password=not-a-secret)

counts() {   # read/write/other/total/transactions of the report in $out
  printf '%s\n' "$out" | grep -E '^ +(read|write|other|total|transactions):' | awk '{print $2}' |
    tr '\n' / | sed 's,/$,,'
}

expect() {   # expect WORKLOAD COUNTS
  local w=$1 want=$2 mode
  for mode in auto disable; do
    sb "$w" run --events=100 --time=0 --threads=2 --db-ps-mode=$mode "${dry[@]}"
    is "$rc/$(counts)" "0/$want" "$w, ps-mode=$mode: read/write/other/total/transactions"
  done
  if have_ref; then
    ref "$w" run --events=100 --time=0 --threads=2 "${dry[@]}"
    is "$(counts)" "$want" "$w: the reference 1.0.20 counts the same"
  fi
}

expect oltp_read_only "0/0/1600/1600/100"
expect oltp_read_write "0/0/2000/2000/100"
expect oltp_write_only "0/0/600/600/100"
expect oltp_point_select "0/0/100/100/100"
expect oltp_update_index "0/0/100/100/100"
expect oltp_delete "0/0/100/100/100"
expect oltp_insert "0/0/100/100/100"
expect select_random_points "0/0/100/100/100"

# A script of its own: queries, prepared statements, results.
write dry.lua <<'EOF'
function thread_init()
  con = sysbench.sql.driver():connect()
  stmt = con:prepare("SELECT c FROM sbtest1 WHERE id = ?")
  p = stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(p)
end
function event()
  p:set(1)
  local rs = stmt:execute()
  assert(rs == nil, "a dry run has no result sets")
  assert(con:query("SELECT 1") == nil)
  con:query("UPDATE sbtest1 SET k = k + 1")
  con:bulk_insert_init("INSERT INTO x VALUES")
  con:bulk_insert_next("(1)")
  con:bulk_insert_done()
  assert(not con:more_results())
end
EOF
sb dry.lua run --events=10 --time=0 "${dry[@]}"
is "$rc/$(counts)" "0/0/0/40/40/10" "a script's queries, statements and bulk inserts all count as other"
like "$out" "ignored errors: +0 " "no errors"
unlike "$out$err" "not-a-secret" "the password is not printed"

done_testing
