#!/usr/bin/env bash
# results_pgsql.t: against a real PostgreSQL, a password given inside --pgsql-db (a libpq
# connection string, quoted with a blank, and a URI) connects, and appears in no output, debug
# line or result file; a wrong one in a connection string is refused without being printed;
# a server that is down leaves a result document with libpq's error.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/pgsql.sh"

pgsql_sandbox_start

py() { python3 - "$@"; }

write connect.lua <<'EOF'
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT 1") end
EOF
server=(--db-driver=pgsql --pgsql-host="$PGSQL_HOST" --pgsql-port="$PGSQL_PORT"
        --pgsql-user="$PGSQL_USER")
# No output ever holds the password, alone or in its connection string.
leaks() { printf '%s\n' "$1" | grep -cF -- "$PGSQL_PASSWORD"; }

sb connect.lua "${server[@]}" --pgsql-db="dbname=$PGSQL_DB password='$PGSQL_PASSWORD'" \
   --events=3 --time=0 --db-debug --verbosity=5 --report-file=conninfo.json run
is "$rc" 0 "the password in a quoted conninfo string connects"
like "$out" "DEBUG: query: SELECT 1" "... the queries are printed with --db-debug"
is "$(leaks "$out$err$(cat "$TEST_TMP/conninfo.json")")" 0 \
   "... and the password is in no line of it, nor in the result file"
is "$(py "$TEST_TMP/conninfo.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(r["options"]["pgsql_db"], "|", r["effective_options"]["pgsql_db"], "|",
      r["server_version"].startswith("PostgreSQL"))
PY
)" "dbname=sbtest password=***** | dbname=sbtest password=***** | True" \
   "the file keeps the connection string with its password masked"

uri="postgresql://$PGSQL_USER:$PGSQL_PASSWORD@$PGSQL_HOST:$PGSQL_PORT/$PGSQL_DB"
sb connect.lua --db-driver=pgsql --pgsql-db="$uri" --pgsql-host="$PGSQL_HOST" \
   --pgsql-port="$PGSQL_PORT" --pgsql-user="$PGSQL_USER" --events=3 --time=0 \
   --report-format=json run
is "$rc" 0 "a URI with the password connects"
is "$(leaks "$out$err")" 0 "... and the JSON document and messages do not hold it"
like "$out" "\"--pgsql-db=postgresql://$PGSQL_USER:\*\*\*\*\*@$PGSQL_HOST:$PGSQL_PORT/$PGSQL_DB\"" \
     "... the command line shows the URI with its password masked"

sb connect.lua "${server[@]}" --pgsql-db="dbname=$PGSQL_DB password=Wr0ng-Conninfo-7q" \
   --events=1 --time=0 --report-file=wrong.json run
is "$rc" 1 "a wrong password in the connection string: exit 1"
like "$out" "password authentication failed for user \"$PGSQL_USER\"" "... libpq's reason is printed"
is "$(grep -c "Wr0ng-Conninfo-7q" "$TEST_TMP/.out" "$TEST_TMP/.err" "$TEST_TMP/wrong.json" |
      awk -F: '{s += $2} END {print s}')" 0 "... the wrong password is not"
is "$(py "$TEST_TMP/wrong.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(r["exit_code"], r["measured"], "password authentication failed" in r["errors"][0])
PY
)" "1 False True" "the result file says the run failed before its measurement, and why"

done_testing
