# sql_api_cases.sh: differential cases of sysbench.sql's results, closed connections, error
# descriptors and bulk inserts, shared by the MySQL and PostgreSQL suites (sourced after
# compat.sh). Each case is a script body run as the command 'go' through both binaries.
#
#   sql_api_result_cases RUNNER
#       RUNNER NAME BODY: runs one case (e.g. sql_api.t's case_cmd). The database holds
#       t (id INT PRIMARY KEY, v INT NOT NULL) with ids 1..20 and an empty t2 (a INT).

sql_api_result_cases() {
  local run=$1

  # A statement without a result set gives 1.0.20's NULL result: "<sql_result>", equal to nil
  # (a cdata, so it is true in a test), and scripts pass it around.
  $run "execute() and query() of statements without rows: 1.0.20's empty result" '
local con = sysbench.sql.driver():connect()
local st = con:prepare("UPDATE t SET v = v WHERE id = 1")
local rs = st:execute()
print(rs, rs == nil, rs ~= nil, type(rs), tostring(rs), not rs)
for _, q in ipairs({"UPDATE t SET v = v WHERE id = 1", "INSERT INTO t2 VALUES (1)",
                    "DELETE FROM t2", "BEGIN", "COMMIT"}) do
  rs = con:query(q)
  print(q, rs, rs == nil, type(rs))
end
rs = con:query("SELECT id FROM t WHERE id = 1")
print(rs, rs == nil, type(rs), rs.nrows, rs.nfields)
print(rs:free())'

  $run "fetch_row() on an empty result, past the end, after free() and after another query" '
local con = sysbench.sql.driver():connect()
local rs = con:query("SELECT id FROM t WHERE id > 1000")
print(rs.nrows, rs.nfields, rs:fetch_row())
print(rs:fetch_row())
print(con:query_row("SELECT id FROM t WHERE id > 1000"))
print(select("#", con:query_row("SELECT id, v FROM t WHERE id > 1000")))
rs = con:query("SELECT id FROM t WHERE id <= 2 ORDER BY id")
print(rs:fetch_row()[1], rs:fetch_row()[1], rs:fetch_row())
print(rs:free())
print(rs:fetch_row())
local rs1 = con:query("SELECT id FROM t WHERE id = 1")
local rs2 = con:query("SELECT id, v FROM t WHERE id = 2")
print(rs1.nfields, rs1:fetch_row()[2])
print(pcall(rs1.free, rs1))
print(pcall(rs2.free, rs2))
con:query("UPDATE t SET v = v WHERE id = 1")
print(rs2:fetch_row())
print("end")'

  $run "a closed connection: every call says so, the bulk calls return true" '
local con = sysbench.sql.driver():connect()
local st = con:prepare("SELECT 1")
local rs = con:query("SELECT 1")
con:disconnect()
print(pcall(con.query, con, "SELECT 1"))
print(pcall(con.prepare, con, "SELECT 1"))
print(pcall(st.execute, st))
print(pcall(rs.fetch_row, rs))
print(pcall(rs.free, rs))
print(pcall(con.query_row, con, "SELECT 1"))
print(pcall(con.bulk_insert_init, con, "INSERT INTO t2 VALUES"))
print(pcall(con.bulk_insert_next, con, "(1)"))
print(pcall(con.bulk_insert_done, con))
print(pcall(st.close, st))
print(pcall(con.disconnect, con))
print("end")'

  $run "the bulk API out of order" '
local con = sysbench.sql.driver():connect()
con:query("DELETE FROM t2")
print(pcall(con.bulk_insert_next, con, "(1)"))
print(pcall(con.bulk_insert_done, con))
print(con:bulk_insert_init("INSERT INTO t2 VALUES"))
print(con:bulk_insert_init("INSERT INTO t2 VALUES"))
print(con:bulk_insert_next("(2)"))
print(con:bulk_insert_done())
print(pcall(con.bulk_insert_next, con, "(3)"))
print(con:bulk_insert_done())
print(con:query_row("SELECT COUNT(*), SUM(a) FROM t2"))
con:query("DELETE FROM t2")'

  $run "bulk_insert_next() before bulk_insert_init(), not caught" '
local con = sysbench.sql.driver():connect()
con:bulk_insert_next("(1)")'

  # The error descriptor: the hook's argument, pcall's error and the global errdesc.
  $run "the error descriptor of a failed query and of a failed prepared statement" '
local con = sysbench.sql.driver():connect()
sysbench.hooks.sql_error_ignorable = function(e)
  local keys = {}
  for k in pairs(e) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do print(k, type(e[k]), tostring(e[k])) end
  return true
end
local ok, e = pcall(con.query, con, "SELECT * FROM nonexisting")
print(ok, type(e), e.errcode, e.query, e.sql_errno, e.sql_state, tostring(e.connection),
      e.connection == con)
print(type(errdesc), errdesc == e)
local st = con:prepare("INSERT INTO t VALUES (?, 1)")
local p = st:bind_create(sysbench.sql.type.INT)
st:bind_param(p)
p:set(1)
ok, e = pcall(st.execute, st)
print(ok, type(e), e.errcode, e.query, e.sql_errno, e.sql_state)
sysbench.hooks.sql_error_ignorable = nil
ok, e = pcall(con.query, con, "SELECT * FROM nonexisting")
print(ok, e)
print(type(errdesc), errdesc and errdesc.query)'
}
