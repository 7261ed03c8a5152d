#!/usr/bin/env bash
# oltp_prepare.t: prepare and cleanup of the bundled OLTP workloads against sysbench 1.0.20 on
# the same private MariaDB: 1.0.20's messages ("Creating table...", "Inserting N records...",
# "Creating a secondary index...", "Dropping table..."), in its order, the exit code, and the
# tables left behind (SHOW CREATE TABLE, row count, ids), for the stock options and those that
# change the schema or the load. Our additions (the size report) go by the rules of
# tests/compat/differences.txt.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mysql.sh"
. "$(dirname "$0")/../lib/compat.sh"

if ! have_ref; then
  skip "no reference sysbench at $REF_SB"
  done_testing
  exit
fi
mysql_sandbox_start

drop_all='sql "DROP TABLE IF EXISTS sbtest1, sbtest2, sbtest3"'
# the tables as they are left: definition (AUTO_INCREMENT counter included), rows, ids
tables_after='for t in 1 2 3; do sql "SHOW CREATE TABLE sbtest$t" 2>/dev/null | cut -f2-; sql "SELECT COUNT(*), MIN(id), MAX(id), COUNT(DISTINCT id) FROM sbtest$t" 2>/dev/null; done'

same "prepare, one table" --db --before "$drop_all" --after "$tables_after" -- \
  oltp_read_write --table-size=1000 prepare
same "prepare, three tables on two threads" --db --sort --before "$drop_all" \
  --after "$tables_after" -- oltp_read_write --tables=3 --table-size=500 --threads=2 prepare
same "prepare, one table on four threads" --db --before "$drop_all" --after "$tables_after" -- \
  oltp_read_only --table-size=2000 --threads=4 prepare
same "prepare --create_secondary=off" --db --before "$drop_all" --after "$tables_after" -- \
  oltp_read_write --table-size=500 --create_secondary=off prepare
same "prepare --auto_inc=off" --db --before "$drop_all" --after "$tables_after" -- \
  oltp_read_write --table-size=500 --auto_inc=off prepare
same "prepare --secondary=on" --db --before "$drop_all" --after "$tables_after" -- \
  oltp_read_write --table-size=500 --secondary=on prepare
same "prepare of an empty table (oltp_insert --table-size=0)" --db --before "$drop_all" \
  --after "$tables_after" -- oltp_insert --table-size=0 prepare
same "prepare --mysql_storage_engine=myisam" --db --before "$drop_all" \
  --after "$tables_after" -- oltp_point_select --table-size=500 --mysql_storage_engine=myisam \
  prepare
same "cleanup" --db --before "$drop_all; sql 'CREATE TABLE sbtest1 (id INT)' 'CREATE TABLE sbtest2 (id INT)'" \
  --after "$tables_after" -- oltp_read_write --tables=2 cleanup

done_testing
