#!/usr/bin/env bash
# pgsql_sql_api.t: the SQL Lua API on a private PostgreSQL: result sets and their rows (NULLs
# as nil holes) from queries and from prepared statements, parameter types (1.0.20's bigint,
# double precision and varchar), strings byte for byte in both --db-ps-mode's, placeholders
# inside quotes and comments, the read/write/other counts (equal to 1.0.20's), several
# results of one query, the bulk insert API, the legacy db_* API, con:reconnect(), the wire
# path against libpq's own (SYSBENCH_PGSQL_LIBRARY_IO=1) and the dry run.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/pgsql.sh"

pgsql_sandbox_start

psql_do "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL, s TEXT)" \
        "INSERT INTO t SELECT g, 0, NULL FROM generate_series(1, 100) g" \
        "GRANT ALL ON t TO sbtest" >/dev/null

# ---------------------------------------------------------------------------------------------
# Rows

write rows.lua <<'EOF'
local function show(rs)
  if rs == nil then print("no result") return end
  print("nrows=" .. rs.nrows .. " nfields=" .. rs.nfields)
  local row = rs:fetch_row()
  while row ~= nil do
    local cells = {}
    for i = 1, rs.nfields do cells[i] = row[i] == nil and "NULL" or ("[" .. row[i] .. "]") end
    print(table.concat(cells, " "))
    row = rs:fetch_row()
  end
end
function event()
  local con = sysbench.sql.driver():connect()
  local sql = "SELECT 1 AS a, NULL::text AS b, 'x y' AS c, 2.50::numeric AS d, true AS e, " ..
              "'2024-01-02'::date AS f UNION ALL SELECT 2, '', NULL, -1, false, NULL"
  show(con:query(sql))
  local stmt = con:prepare(sql)
  show(stmt:execute())
  stmt = con:prepare("SELECT id, s FROM t WHERE id BETWEEN ? AND ? ORDER BY id")
  local a, b = stmt:bind_create(sysbench.sql.type.INT), stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(a, b)
  a:set(5) b:set(7)
  show(stmt:execute())
  a:set(50) b:set(40)
  show(stmt:execute())
  show(con:query("SELECT 1 WHERE false"))
  show(con:query("UPDATE t SET v = v WHERE id < 0"))
  print("query_row", con:query_row("SELECT 7, NULL, 'z'"))
end
EOF
expected='nrows=2 nfields=6
[1] NULL [x y] [2.50] [t] [2024-01-02]
[2] [] NULL [-1] [f] NULL
nrows=2 nfields=6
[1] NULL [x y] [2.50] [t] [2024-01-02]
[2] [] NULL [-1] [f] NULL
nrows=3 nfields=2
[5] NULL
[6] NULL
[7] NULL
nrows=0 nfields=2
ALERT: attempt to fetch row from an empty result set
nrows=0 nfields=1
no result
query_row	7	nil	z'
pg rows.lua run --events=1 --time=0
is "$rc" 0 "rows.lua runs"
is "$(printf '%s\n' "$out" | sed -n '/^nrows=2 nfields=6/,/^query_row/p')" "$expected" \
  "query and prepared results: the same rows as text, NULL as a nil hole, empty results"
SYSBENCH_PGSQL_LIBRARY_IO=1 pg rows.lua run --events=1 --time=0
is "$(printf '%s\n' "$out" | sed -n '/^nrows=2 nfields=6/,/^query_row/p')" "$expected" \
  "the same through libpq's own I/O (SYSBENCH_PGSQL_LIBRARY_IO=1)"
pg rows.lua run --events=1 --time=0 --db-ps-mode=disable
is "$(printf '%s\n' "$out" | sed -n '/^nrows=2 nfields=6/,/^query_row/p')" "$expected" \
  "the same with --db-ps-mode=disable"

# ---------------------------------------------------------------------------------------------
# Parameters: types, NULL, strings byte for byte

write params.lua <<'EOF'
function event()
  local con = sysbench.sql.driver():connect()
  local t = sysbench.sql.type
  for _, case in ipairs({{t.TINYINT, 5}, {t.INT, -2147483649}, {t.BIGINT, 9007199254740993},
                         {t.DOUBLE, 0.1}, {t.FLOAT, -1.5e300}, {t.CHAR, "c"}, {t.VARCHAR, "v"}}) do
    local stmt = con:prepare("SELECT pg_typeof(?)::text, (?)::text")
    local p1, p2 = stmt:bind_create(case[1], 32), stmt:bind_create(case[1], 32)
    stmt:bind_param(p1, p2)
    p1:set(case[2]) p2:set(case[2])
    local row = stmt:execute():fetch_row()
    print("param", row[1], row[2])
  end
  local stmt = con:prepare("SELECT ? IS NULL, ?::text")
  local p1, p2 = stmt:bind_create(t.INT), stmt:bind_create(t.VARCHAR, 8)
  stmt:bind_param(p1, p2)
  p1:set(nil) p2:set(nil)
  local row = stmt:execute():fetch_row()
  print("null", row[1], row[2])
  p1:set(1) p2:set("x")
  row = stmt:execute():fetch_row()
  print("not null", row[1], row[2])
end
EOF
expected_types='param	bigint	5
param	bigint	-2147483649
param	bigint	9007199254740992
param	double precision	0.1
param	double precision	-1.5e+300
param	character varying	c
param	character varying	v
null	t	nil
not null	f	x'
for mode in auto disable; do
  pg params.lua run --events=1 --time=0 --db-ps-mode=$mode
  got=$(printf '%s\n' "$out" | grep -E '^(param|null|not null)')
  if [ $mode = auto ]; then
    is "$got" "$expected_types" "ps-mode=auto: integers go as bigint, floats as double precision, strings as varchar (1.0.20's types), NULL as NULL"
  else
    # client-side statements have no parameter types: the server sees literals (doubles as
    # numeric literals of 17 digits, so those two lines are left out)
    is "$(printf '%s\n' "$got" | cut -f3 | sed '4,5d')" \
       "$(printf '%s\n' "$expected_types" | cut -f3 | sed '4,5d')" \
      "ps-mode=disable: the same integers, strings and NULL reach the server"
  fi
done

write strings.lua <<'EOF'
local samples = {"", "plain", "it's", "back\\slash", "\\'", "''", "tab\tnew\nline",
                 "€ ünïcödé", "?", "$1", "-- not a comment", string.rep("x", 300)}
function event()
  local con = sysbench.sql.driver():connect()
  if os.getenv("SCS") then con:query("SET standard_conforming_strings = " .. os.getenv("SCS")) end
  local stmt = con:prepare("SELECT ?::text, length(?::text)")
  local a, b = stmt:bind_create(sysbench.sql.type.VARCHAR, 400),
               stmt:bind_create(sysbench.sql.type.VARCHAR, 400)
  stmt:bind_param(a, b)
  local bad = 0
  for _, s in ipairs(samples) do
    a:set(s) b:set(s)
    local row = stmt:execute():fetch_row()
    if row[1] ~= s then bad = bad + 1 print("differs: [" .. s .. "] -> [" .. row[1] .. "]") end
  end
  print("strings differing: " .. bad)
end
EOF
for mode in auto disable; do
  pg strings.lua run --events=1 --time=0 --db-ps-mode=$mode
  like "$out" "strings differing: 0" "ps-mode=$mode: quotes, backslashes, tabs, UTF-8, ? and \$1 come back byte for byte"
done
SCS=off pg strings.lua run --events=1 --time=0 --db-ps-mode=disable
like "$out" "strings differing: 0" \
  "ps-mode=disable with standard_conforming_strings=off: escaped for that setting"

write quoted.lua <<'EOF'
function event()
  local con = sysbench.sql.driver():connect()
  local stmt = con:prepare("SELECT '?' AS q, $$?$$ AS d, \"?\".x, ? /* ? */ -- ?\n FROM (SELECT 1 AS x) AS \"?\"")
  local p = stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(p)
  p:set(42)
  local row = stmt:execute():fetch_row()
  print("quoted", row[1], row[2], row[3], row[4])
end
EOF
pg quoted.lua run --events=1 --time=0
like "$out" "quoted	\?	\?	1	42" \
  "'?' inside literals, dollar quotes, quoted identifiers and comments is not a placeholder"

# ---------------------------------------------------------------------------------------------
# Counting, against 1.0.20

write count.lua <<'EOF'
function thread_init()
  con = sysbench.sql.driver():connect()
  upd = con:prepare("UPDATE t SET v = v + 1 WHERE id = ?")
  id = upd:bind_create(sysbench.sql.type.INT)
  upd:bind_param(id)
  sel = con:prepare("SELECT v FROM t WHERE id = ?")
  sid = sel:bind_create(sysbench.sql.type.INT)
  sel:bind_param(sid)
  n = 0
end
function event()
  n = n + 1
  con:query("BEGIN")                              -- other
  id:set(n) upd:execute()                         -- write (1 row)
  id:set(-n) upd:execute()                        -- other (no row)
  sid:set(n) sel:execute()                        -- read (1 row)
  sid:set(-n) sel:execute()                       -- read (0 rows)
  con:query("SELECT 1")                           -- read
  con:query("UPDATE t SET v = v WHERE id > 1000") -- other
  con:query("COMMIT")                             -- other
end
EOF
counts() { printf '%s/%s/%s/%s/%s' "$(stat read)" "$(stat write)" "$(stat other)" "$(stat transactions)" "$(stat 'ignored errors')"; }
for mode in auto disable; do
  pg count.lua run --events=20 --time=0 --db-ps-mode=$mode
  is "$rc/$(counts)" "0/60/20/80/20/0" "ps-mode=$mode: result sets are reads, rows touched a write, the rest other"
  if have_ref; then
    ref_pg count.lua run --events=20 --time=0 --db-ps-mode=$mode
    is "$(counts)" "60/20/80/20/0" "ps-mode=$mode: 1.0.20 counts the same"
  else
    skip "no reference sysbench at $REF_SB"
  fi
done

# ---------------------------------------------------------------------------------------------
# Several results of one query

write multi.lua <<'EOF'
function event()
  local con = sysbench.sql.driver():connect()
  local rs = con:query("SELECT 1; SELECT 2, 3 UNION ALL SELECT 4, 5; UPDATE t SET v = v WHERE id = 1")
  print("first", rs.nrows, rs.nfields, rs:fetch_row()[1])
  print("more", con:more_results())
  rs = con:next_result()
  print("second", rs.nrows, rs.nfields, rs:fetch_row()[2])
  print("more", con:more_results())
  print("third", con:next_result())
  print("more", con:more_results())
  con:query("SELECT 1; SELECT 2")       -- the second result is dropped unread
  print("after", con:query_row("SELECT 'ok'"))
  local ok, err = pcall(con.query, con, "SELECT 1; SELECT * FROM no_such_table")
  print("error in a later statement", ok)
end
EOF
pg multi.lua run --events=1 --time=0
is "$(printf '%s\n' "$out" | grep -E '^(first|more|second|third|after|error in)')" "first	1	1	1
more	true
second	2	2	3
more	true
third	<sql_result>
more	false
after	ok
error in a later statement	false" "one query, several results: first returned, the others through next_result(), an error in any fails the query"

# ---------------------------------------------------------------------------------------------
# Bulk inserts: one INSERT per 512 KiB of values, as 1.0.20

write bulk.lua <<'EOF'
function event()
  local con = sysbench.sql.driver():connect()
  con:query("DROP TABLE IF EXISTS bulk")
  con:query("CREATE TABLE bulk (id INT, c CHAR(120))")
  con:bulk_insert_init("INSERT INTO bulk VALUES")
  for i = 1, 20000 do
    con:bulk_insert_next(string.format("(%d, '%s')", i, string.rep("x", 100)))
  end
  con:bulk_insert_done()
  print("rows", con:query_row("SELECT count(*), sum(id) FROM bulk"))
  con:query("DROP TABLE bulk")
end
EOF
pg bulk.lua run --events=1 --time=0
like "$out" "rows	20000	200010000" "bulk insert: every row stored"
ours_bulk="$(stat write)/$(stat other)"
if have_ref; then
  ref_pg bulk.lua run --events=1 --time=0
  is "$ours_bulk" "$(stat write)/$(stat other)" "bulk insert: as many INSERT statements (writes) as 1.0.20 ($ours_bulk), no COMMITs"
else
  skip "no reference sysbench at $REF_SB"
fi

# ---------------------------------------------------------------------------------------------
# The legacy API and reconnects

write legacy.lua <<'EOF'
function event()
  db_connect()
  db_query("UPDATE t SET s = NULL")
  local stmt = db_prepare("UPDATE t SET s = ? WHERE id = ?")
  local values = {"a", 1}
  db_bind_param(stmt, values)
  db_execute(stmt)
  values[1] = string.rep("long", 100)   -- longer than the first bind: bound again
  values[2] = 2
  db_execute(stmt)
  values[1] = nil
  values[2] = 3
  db_execute(stmt)
  db_close(stmt)
  db_query("SELECT 1")      -- returns nothing in 1.0.20 (tests/compat/sql_api.t)
  db_disconnect()
end
EOF
psql_do "UPDATE t SET s = 'x' WHERE id = 3" >/dev/null
pg legacy.lua run --events=1 --time=0
is "$rc" 0 "the legacy db_* API runs"
is "$(psql_do "SELECT coalesce(s, 'NULL') FROM t WHERE id IN (1, 3) ORDER BY id" | tr '\n' ' ')$(psql_do "SELECT length(s) FROM t WHERE id = 2")" "a NULL 400" \
  "legacy db_execute sends the table's values at execute time, a longer string and nil included"

write reconnect.lua <<'EOF'
function event()
  local con = sysbench.sql.driver():connect()
  local stmt = con:prepare("SELECT pg_backend_pid(), ?::int + 1")
  local p = stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(p)
  p:set(1)
  local before = stmt:execute():fetch_row()[1]
  con:reconnect()
  p:set(2)
  local row = stmt:execute():fetch_row()
  print("same backend", before == row[1], "value", row[2])
end
EOF
pg reconnect.lua run --events=1 --time=0
like "$out" "same backend	false	value	3" "con:reconnect(): a new session, and the statement is prepared again on it"

# ---------------------------------------------------------------------------------------------
# Misuse and what the SQL API cannot do: an error, never a hang

write empty.lua <<'EOF'
function event()
  local con = sysbench.sql.driver():connect()
  con:query(os.getenv("Q"))
end
EOF
for q in "" "COPY (SELECT 1) TO STDOUT" "COPY t FROM STDIN"; do
  Q="$q" pg empty.lua run --events=1 --time=0
  is "$rc" 1 "query [$q]: exit 1"
  like "$out" "SQL API error|COPY FROM STDIN is not supported" "query [$q]: an error, as 1.0.20's 'SQL API error'"
done

write empty_prepared.lua <<'EOF'
function event()
  local con = sysbench.sql.driver():connect()
  con:prepare("   "):execute()
end
EOF
pg empty_prepared.lua run --events=1 --time=0
is "$rc" 1 "an empty prepared statement: exit 1"
like "$out" "SQL API error" "... with 1.0.20's 'SQL API error', as for an empty query"

# Server notices are not printed (1.0.20 printed none), except with --db-debug.
write notice.lua <<'EOF'
function event()
  local con = sysbench.sql.driver():connect()
  local begin = con:prepare("BEGIN")
  begin:execute()
  begin:execute()
  con:query("BEGIN")
  con:query("COMMIT")
end
EOF
pg notice.lua run --events=1 --time=0
is "$rc/$(count "$out$err" 'already a transaction')" "0/0" "server notices are not printed"
pg notice.lua run --events=1 --time=0 --db-debug --verbosity=5
is "$(count "$out" '^DEBUG: server notice: WARNING:  there is already a transaction in progress$')" 2 \
  "--db-debug shows them, from prepared statements and from queries"

# ---------------------------------------------------------------------------------------------
# Dry run: no server, everything "other"

sb oltp_read_only --db-driver=pgsql --pgsql-dry-run --events=10 --time=0 run
is "$rc/$(stat read)/$(stat other)/$(stat transactions)" "0/0/160/10" \
  "--pgsql-dry-run: no server needed, every statement counts as other"

done_testing
