#!/usr/bin/env bash
# pgsql.t: differential cases for the pgsql driver: the same command line through 1.0.20 and
# ours against the same private PostgreSQL, outputs compared (tests/lib/compat.sh): --help's
# pgsql part, connections that cannot be made, option errors, fatal and ignorable server
# errors, the counts of scripts and of a bundled workload. What differs on purpose is in
# differences.txt ([pgsql-*]); what 1.0.20 cannot do (it crashes) is tested on ours alone in
# tests/live/pgsql_*.t.
. "$(dirname "$0")/../lib/tap.sh"
. "$SRCDIR/tests/lib/compat.sh"
. "$SRCDIR/tests/lib/pgsql.sh"

if ! have_ref; then
  skip "no reference sysbench at $REF_SB"
  done_testing
  exit
fi
pgsql_sandbox_start

# ---------------------------------------------------------------------------------------------
# --help: the driver's line and its options block, with the global rules applied

help_part() {   # help_part BINARY: the pgsql line of the driver list and the pgsql block
  "$1" --help 2>&1 | awk '/^  pgsql - / { print } /^pgsql options:$/ { on = 1 } on { print } on && /^$/ { exit }'
}
ours_help=$(help_part "$SB" | compat_apply_rules ours "")
ref_help=$(help_part "$REF_SB" | compat_apply_rules ref "")
like "$ref_help" "pgsql options:" "1.0.20's --help has a pgsql block"
is "$ours_help" "$ref_help" "same as 1.0.20: --help lists the pgsql driver and its options, defaults included"

# ---------------------------------------------------------------------------------------------
# Connections and options

write connect.lua <<'EOF'
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT 1") end
EOF
closed=$(pg_free_port)
common=(--db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-user=sbtest --events=1 --time=0)
same "a wrong password" --file connect.lua -- \
  connect.lua "${common[@]}" --pgsql-port="$PGSQL_PORT" --pgsql-password=not-the-password run
same "a closed port" --file connect.lua -- connect.lua "${common[@]}" --pgsql-port="$closed" run
same "a port out of range" --file connect.lua -- connect.lua "${common[@]}" --pgsql-port=70000 run
same "an unknown database" --file connect.lua -- connect.lua "${common[@]}" --pgsql-port="$PGSQL_PORT" \
  --pgsql-password="$PGSQL_PASSWORD" --pgsql-db=no_such_db run
same "a host name that does not resolve" --file connect.lua -- \
  connect.lua --db-driver=pgsql --pgsql-host=no-such-host.invalid --events=1 --time=0 run

# ---------------------------------------------------------------------------------------------
# Server errors

psql_do "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)" \
        "INSERT INTO t SELECT g, 0 FROM generate_series(1, 100) g" \
        "GRANT ALL ON t TO sbtest" \
        'CREATE FUNCTION fail_with(code text) RETURNS int LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION $m$chosen failure %$m$, code USING ERRCODE = code; END $$' >/dev/null

# The SQL API's results, closed connections, error descriptors and bulk inserts
psql_do "CREATE TABLE t2 (a INT)" "GRANT ALL ON t2 TO sbtest" >/dev/null
pg_case_cmd() {   # pg_case_cmd NAME BODY: the body as the command 'go' through both binaries
  printf 'sysbench.cmdline.commands = { go = { function()\n%s\nend } }\n' "$2" > "$TEST_TMP/c.lua"
  same "$1" --file c.lua -- c.lua go "${PGSQL_ARGS[@]}"
}
. "$SRCDIR/tests/lib/sql_api_cases.sh"
sql_api_result_cases pg_case_cmd

# Odd events fail with $CODE, even ones succeed; with an ignorable SQLSTATE every failed
# event runs again (and succeeds).
write fail.lua <<'EOF'
function thread_init()
  con = sysbench.sql.driver():connect()
  stmt = con:prepare("SELECT fail_with(?)")
  code = stmt:bind_create(sysbench.sql.type.VARCHAR, 8)
  stmt:bind_param(code)
  n = 0
end
function event()
  n = n + 1
  if n % 2 == 1 then
    if os.getenv("PREPARED") then
      code:set(os.getenv("CODE"))
      stmt:execute()
    else
      con:query("SELECT fail_with('" .. os.getenv("CODE") .. "')")
    end
  end
  con:query("SELECT 1")
end
EOF
db=("${PGSQL_ARGS[@]}" --events=10 --time=0)
for code in 40P01 23505 40001; do
  CODE=$code same "an ignorable SQLSTATE ($code): counted and retried" --file fail.lua -- fail.lua "${db[@]}" run
  CODE=$code PREPARED=1 same "an ignorable SQLSTATE ($code) from a prepared statement" --file fail.lua -- \
    fail.lua "${db[@]}" run
done
CODE=55P03 same "a fatal SQLSTATE from a query: 1.0.20's lines" \
  --allow report-after-fatal-error --file fail.lua -- fail.lua "${db[@]}" run
CODE=55P03 PREPARED=1 same "a fatal SQLSTATE from a prepared statement: 1.0.20's lines" \
  --allow report-after-fatal-error --file fail.lua -- \
  fail.lua "${db[@]}" run

write prepare.lua <<'EOF'
function event()
  local con = sysbench.sql.driver():connect()
  con:prepare("SELEC 1")
end
EOF
same "a statement the server refuses to prepare" \
  --allow report-after-fatal-error --file prepare.lua -- prepare.lua "${db[@]}" run

# ---------------------------------------------------------------------------------------------
# Counts

write count.lua <<'EOF'
function thread_init()
  con = sysbench.sql.driver():connect()
  upd = con:prepare("UPDATE t SET v = v + 1 WHERE id = ?")
  id = upd:bind_create(sysbench.sql.type.INT)
  upd:bind_param(id)
  n = 0
end
function event()
  n = n + 1
  con:query("BEGIN")
  id:set(n) upd:execute()
  id:set(-n) upd:execute()
  con:query("SELECT v FROM t WHERE id = " .. n)
  con:query("DELETE FROM t WHERE id < 0")
  con:query("COMMIT")
end
EOF
for mode in auto disable; do
  same "read/write/other counts of a script (--db-ps-mode=$mode)" --file count.lua -- \
    count.lua "${db[@]}" --db-ps-mode=$mode run
done

wl=("${PGSQL_ARGS[@]}" --tables=2 --table-size=1000)
"$SB" oltp_read_write "${wl[@]}" prepare >/dev/null 2>&1
for w in oltp_read_write oltp_read_only oltp_point_select oltp_update_index oltp_write_only; do
  same "$w: the whole report of a seeded run" -- "$w" "${wl[@]}" --events=50 --time=0 --rand-seed=3 run
done
for w in select_random_points select_random_ranges; do
  same "$w: the whole report of a seeded run" -- "$w" "${wl[@]/--tables=2/--tables=1}" --events=50 \
    --time=0 --rand-seed=3 run
done
same "oltp_read_write --skip_trx=on --db-ps-mode=disable" -- oltp_read_write "${wl[@]}" \
  --skip_trx=on --db-ps-mode=disable --events=50 --time=0 --rand-seed=3 run
"$SB" oltp_read_write "${wl[@]}" cleanup >/dev/null 2>&1

# ---------------------------------------------------------------------------------------------
# --pgsql_variant=redshift: what 1.0.20's help promises (it does nothing there); ours alone.

sb oltp_read_write "${PGSQL_ARGS[@]}" --tables=1 --table-size=10 --pgsql_variant=redshift prepare
is "$rc" 1 "--pgsql_variant=redshift prepare on PostgreSQL fails: it creates INTEGER IDENTITY(1,1)"
like "$out" 'PQexec\(\) failed: 7 syntax error at or near "IDENTITY"' "... with the server's error"
sb oltp_read_write "${PGSQL_ARGS[@]}" --tables=1 --table-size=10 --pgsql_variant=redshift \
  --auto_inc=off prepare
is "$rc" 0 "--pgsql_variant=redshift --auto_inc=off prepares"
unlike "$out" "secondary index" "--pgsql_variant=redshift: no index on k"
is "$(psql_do "SELECT count(*) FROM pg_indexes WHERE tablename = 'sbtest1' AND indexname = 'k_1'")" 0 \
  "--pgsql_variant=redshift: the table has no k_1"
sb oltp_read_write "${PGSQL_ARGS[@]}" --tables=1 --table-size=10 --pgsql_variant=redshift \
  --auto_inc=off --events=10 --time=0 run
is "$rc/$(stat read)/$(stat write)/$(stat other)" "0/140/20/20" \
  "--pgsql_variant=redshift: --delete_inserts is 0 (two updates per transaction, no delete/insert)"
sb oltp_read_write "${PGSQL_ARGS[@]}" --tables=1 cleanup

done_testing
