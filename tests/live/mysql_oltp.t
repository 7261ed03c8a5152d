#!/usr/bin/env bash
# mysql_oltp.t: the bundled OLTP workloads end to end through the mysql driver: prepare, run
# with server-side and client-side statements, cleanup, with the counts the reference 1.0.20
# gets on the same tables.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mysql.sh"

mysql_sandbox_start

size=(--tables=2 --table-size=2000)

my oltp_read_write prepare "${size[@]}"
is "$rc" 0 "oltp_read_write prepare"
is "$(sql 'SELECT COUNT(*) FROM sbtest1' 'SELECT COUNT(*) FROM sbtest2' | tr '\n' ' ')" "2000 2000 " \
  "2 tables of 2000 rows"

counts() {
  printf '%s\n' "$out" | grep -E '^ +(read|write|other|total|transactions|ignored errors|reconnects):' |
    awk '{print $NF == "sec.)" ? $(NF-3) : $NF}' | tr '\n' / | sed 's,/$,,'
}

check() {   # check WORKLOAD COUNTS
  local w=$1 want=$2 mode
  for mode in auto disable; do
    my "$w" run "${size[@]}" --events=200 --time=0 --db-ps-mode=$mode
    is "$rc/$(counts)" "0/$want" "$w, ps-mode=$mode: r/w/o/total/transactions/errors/reconnects"
  done
  if have_ref; then
    ref_my "$w" run "${size[@]}" --events=200 --time=0
    is "$(counts)" "$want" "$w: the reference 1.0.20 counts the same"
  else
    skip "no reference sysbench at $REF_SB"
  fi
}

check oltp_read_write "2800/800/400/4000/200/0/0"
check oltp_read_only "2800/0/400/3200/200/0/0"
check oltp_point_select "200/0/0/200/200/0/0"
check oltp_update_index "0/200/0/200/200/0/0"

my oltp_read_write run "${size[@]}" --threads=4 --time=2
is "$rc" 0 "oltp_read_write with 4 threads for 2 s"
num_cmp "$(stat transactions)" ">" 0 "... runs transactions"
is "$(stat read)" "$(( ($(stat transactions) + $(stat 'ignored errors')) * 14 ))" \
  "... 14 reads per transaction, and per retried one (deadlocks are ignored errors)"

my oltp_read_write cleanup "${size[@]}"
is "$rc" 0 "oltp_read_write cleanup"
is "$(sql "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'sbtest'")" 0 \
  "cleanup dropped the tables"

done_testing
