#!/usr/bin/env bash
# pgsql_errors.t: what server errors do to a run on PostgreSQL. The SQLSTATEs 1.0.20 ignores
# (40P01 deadlock, 23505 unique violation, 40001 serialization failure: the default
# --pgsql-ignore-errors), any listed one, any with "all", or one a sql_error_ignorable hook
# accepts, count as ignored errors: the aborted transaction is rolled back and the event runs
# again. Any other error stops the run with 1.0.20's lines ("PQexecPrepared() failed: 7 ...",
# "failed query was: ...") and exit 1. A connection that cannot be made is 1.0.20's line; no
# output ever shows the password.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/pgsql.sh"

pgsql_sandbox_start

# Rows 10, 20, ..., 100 fail their first UPDATE with the armed SQLSTATE: a sequence per row
# counts the attempts, and sequences are not rolled back with the failing statement.
psql_do "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)" \
        "INSERT INTO t SELECT g, 0 FROM generate_series(1, 100) g" \
        "CREATE TABLE arm (id INT PRIMARY KEY, code TEXT NOT NULL)" \
        "GRANT ALL ON t TO sbtest" >/dev/null
for i in $(seq 10 10 100); do psql_do "CREATE SEQUENCE attempt_$i" >/dev/null; done
psql_do 'CREATE FUNCTION t_fail() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE chosen text;
BEGIN
  SELECT code INTO chosen FROM arm WHERE id = NEW.id;
  IF chosen IS NOT NULL AND nextval(format($f$attempt_%s$f$, NEW.id)::regclass) = 1 THEN
    RAISE EXCEPTION $m$chosen failure %$m$, chosen USING ERRCODE = chosen;
  END IF;
  RETURN NEW;
END $$' "CREATE TRIGGER t_fail BEFORE UPDATE ON t FOR EACH ROW EXECUTE FUNCTION t_fail()" >/dev/null

arm() {   # arm SQLSTATE: the first UPDATE of rows 10, 20, ..., 100 fails with it
  local i
  psql_do "UPDATE t SET v = 0" "DELETE FROM arm" \
          "INSERT INTO arm SELECT g * 10, '$1' FROM generate_series(1, 10) g" >/dev/null
  for i in $(seq 10 10 100); do psql_do "ALTER SEQUENCE attempt_$i RESTART" >/dev/null; done
}

updated_once() {
  psql_do "SELECT count(*) || ' ' || sum(v) FROM t WHERE v = 1"
}

# Event i (per thread, counted only when it completes) updates row i, in a transaction when
# TRX is set.
write update.lua <<'EOF'
function thread_init()
  con = sysbench.sql.driver():connect()
  stmt = con:prepare("UPDATE t SET v = v + 1 WHERE id = ?")
  id = stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(id)
  next_id = 1
end
function event()
  if os.getenv("TRX") then con:query("BEGIN") end
  id:set(next_id)
  stmt:execute()
  if os.getenv("TRX") then con:query("COMMIT") end
  next_id = next_id + 1
end
EOF

for state in 40P01 23505 40001; do
  for mode in auto disable; do
    arm $state
    pg update.lua run --events=100 --time=0 --db-ps-mode=$mode
    is "$rc/$(stat 'ignored errors')/$(stat write)/$(stat transactions)" "0/10/100/100" \
      "$state, ps-mode=$mode: ignored by default: 10 ignored errors, the 10 events ran again"
    is "$(updated_once)" "100 100" "$state, ps-mode=$mode: every row was updated exactly once"
  done
done

# In a transaction the error aborts it: it is rolled back before the event runs again.
for io in wire library; do
  arm 40P01
  if [ $io = library ]; then export SYSBENCH_PGSQL_LIBRARY_IO=1; fi
  TRX=1 pg update.lua run --events=100 --time=0
  unset SYSBENCH_PGSQL_LIBRARY_IO
  is "$rc/$(stat 'ignored errors')/$(stat write)/$(stat other)" "0/10/100/210" \
    "in a transaction ($io I/O): the aborted transaction is rolled back, the event retried (BEGIN and COMMIT: other)"
  is "$(updated_once)" "100 100" "in a transaction ($io I/O): every row updated exactly once"
done

if have_ref; then
  arm 40P01
  TRX=1 ref_pg update.lua run --events=100 --time=0
  is "$(stat 'ignored errors')/$(stat write)/$(stat other)" "10/100/210" \
    "1.0.20 counts the same ignored errors and retries"
else
  skip "no reference sysbench at $REF_SB"
fi

arm 55P03
pg update.lua run --events=100 --time=0 --pgsql-ignore-errors=all
is "$rc/$(stat 'ignored errors')/$(stat write)" "0/10/100" \
  "--pgsql-ignore-errors=all ignores any error (here 55P03) and retries the event"

arm 55P03
pg update.lua run --events=100 --time=0 --pgsql-ignore-errors=40P01,55p03
is "$rc/$(stat 'ignored errors')/$(stat write)" "0/10/100" "an SQLSTATE listed (in any case) is ignored"

arm 40P01
pg update.lua run --events=100 --time=0 --pgsql-ignore-errors=55P03
is "$rc" 1 "an SQLSTATE left out of the list (40P01) is fatal"

cat "$TEST_TMP/update.lua" - > "$TEST_TMP/hook.lua" <<'EOF'
function sysbench.hooks.sql_error_ignorable(err)
  return err.sql_state == "55P03" and err.sql_errno == 0
end
EOF
arm 55P03
pg hook.lua run --events=100 --time=0
is "$rc/$(stat 'ignored errors')/$(stat write)" "0/10/100" \
  "sysbench.hooks.sql_error_ignorable can make an error ignorable"

pg update.lua run --events=1 --time=0 --pgsql-ignore-errors=40P01,1213
is "$rc" 1 "a bad --pgsql-ignore-errors item exits 1"
like "$out" "FATAL: Invalid value for --pgsql-ignore-errors: 1213 \(expected SQLSTATEs" \
  "... naming the bad item and what is accepted"
unlike "$out" "Initializing worker" "... before anything runs"

# ---------------------------------------------------------------------------------------------
# A fatal error: 1.0.20's lines, exit 1.

for mode in auto disable; do
  arm 55P03
  pg update.lua run --events=100 --time=0 --db-ps-mode=$mode
  is "$rc" 1 "ps-mode=$mode: an error not in the list exits 1"
  if [ $mode = auto ]; then
    want=$'FATAL: PQexecPrepared() failed: 7 chosen failure 55P03'
  else
    want=$'FATAL: PQexec() failed: 7 chosen failure 55P03\nFATAL: failed query was: UPDATE t SET v = v + 1 WHERE id = 10'
  fi
  is "$(printf '%s\n' "$out" | grep '^FATAL' | grep -v "thread_run")" "$want" \
    "ps-mode=$mode: 1.0.20's lines name the call, the status, the message (and the query)"
  like "$out" "FATAL: \`thread_run' function failed: update\.lua:[0-9]+: SQL error, errno = 0, state = '55P03': chosen failure 55P03" \
    "ps-mode=$mode: the script's error names the SQLSTATE and the message"
  is "$(stat write)" 9 "ps-mode=$mode: the report counts the 9 updates done before the error"
  if have_ref; then
    ours_lines=$(printf '%s\n' "$out" | grep '^FATAL' | grep -v "thread_run")
    arm 55P03
    ref_pg update.lua run --events=100 --time=0 --db-ps-mode=$mode
    is "$ours_lines" "$(printf '%s\n' "$out" | grep '^FATAL' | grep -v "thread_run")" \
      "ps-mode=$mode: the same lines as 1.0.20"
  else
    skip "no reference sysbench at $REF_SB"
  fi
done

arm 55P03
pg update.lua run --events=1000 --time=0 --threads=4
is "$rc" 1 "with 4 threads a fatal error in one still exits 1"

# Statements the server refuses to prepare.
write prepare.lua <<'EOF'
function event()
  local con = sysbench.sql.driver():connect()
  local stmt = con:prepare(os.getenv("Q"))
  if os.getenv("P") then
    local p = stmt:bind_create(sysbench.sql.type.INT)
    stmt:bind_param(p)
    p:set(1)
  end
  stmt:execute()
end
EOF
Q="SELEC 1" pg prepare.lua run --events=1 --time=0
is "$rc" 1 "a statement the server cannot prepare exits 1"
is "$(printf '%s\n' "$out" | sed -n '/^FATAL: PQprepare/,/\^/p')" 'FATAL: PQprepare() failed: ERROR:  syntax error at or near "SELEC"
LINE 1: SELEC 1
        ^' "... with 1.0.20's line: PQprepare() failed and the server's message"
Q="SELECT * FROM nonexisting WHERE id = ?" P=1 pg prepare.lua run --events=1 --time=0
is "$rc" 1 "a statement with parameters on a missing table exits 1 (1.0.20 crashes)"
like "$out" 'FATAL: PQprepare\(\) failed: ERROR:  relation "nonexisting" does not exist' \
  "... with 1.0.20's line when its parameters are bound"
like "$out" "SQL error, errno = 0, state = '42P01': relation \"nonexisting\" does not exist" \
  "... and the script's error at execute names the SQLSTATE"

# ---------------------------------------------------------------------------------------------
# Connections that cannot be made.

write connect.lua <<'EOF'
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT 1") end
EOF
secret="Wr0ng-Pass-Zq7"
sb connect.lua run --events=1 --time=0 --db-driver=pgsql --pgsql-host=127.0.0.1 \
  --pgsql-port="$PGSQL_PORT" --pgsql-password="$secret"
is "$rc" 1 "a wrong password exits 1"
like "$out" "FATAL: Connection to database failed: connection to server at \"127\.0\.0\.1\", port $PGSQL_PORT failed: FATAL:  password authentication failed for user \"sbtest\"" \
  "a wrong password: 1.0.20's line with libpq's message"
like "$out" "FATAL: \`thread_init' function failed: connect\.lua:1: connection creation failed$" \
  "... then the script's error, as 1.0.20's"
unlike "$out$err" "$secret" "the wrong password is not printed"

port=$(pg_free_port)
sb connect.lua run --events=1 --time=0 --threads=4 --db-driver=pgsql --pgsql-host=127.0.0.1 \
  --pgsql-port="$port"
is "$rc" 1 "a closed port exits 1"
like "$out" "^FATAL: Connection to database failed: connection to server at \"127\.0\.0\.1\", port $port failed: Connection refused" \
  "a closed port: 1.0.20's line with libpq's message"
like "$out" "^FATAL: Thread initialization failed!" "... and the run stops before it starts"

sb connect.lua run --events=1 --time=0 --db-driver=pgsql --pgsql-port=70000
like "$out" 'FATAL: Connection to database failed: invalid port number: "70000"' \
  "a port out of range: libpq's message, as with 1.0.20"
sb connect.lua run --events=1 --time=0 --db-driver=pgsql --pgsql-port=abc
is "$rc/$err" "1/Invalid value for the 'pgsql_port' option: 'abc'" \
  "a port that is not a number: 1.0.20's line, before anything runs"
sb connect.lua run --events=1 --time=0 --db-driver=pgsql --pgsql-sslmode=sometimes
is "$rc" 1 "a bad --pgsql-sslmode exits 1"
like "$out" "^FATAL: Invalid value for --pgsql-sslmode: sometimes \(expected disable, allow, prefer, require, verify-ca or verify-full\)" \
  "... with one line saying what is accepted"
unlike "$out" "Initializing worker" "... before anything runs"

# ---------------------------------------------------------------------------------------------
# Debug output: queries yes, password never.

pg connect.lua run --events=2 --time=0 --db-debug --verbosity=5
is "$rc" 0 "--db-debug runs"
like "$out" "DEBUG: query: SELECT 1" "--db-debug prints the queries"
unlike "$out$err" "$PGSQL_PASSWORD" "--db-debug does not print the password"
pg oltp_point_select run --events=2 --time=0 --table-size=10 --db-debug --verbosity=5
unlike "$out$err" "$PGSQL_PASSWORD" "--verbosity=5 does not print the password either"

done_testing
