#!/usr/bin/env bash
# mysql_wire.t: prepared statements the driver executes on the socket itself (the binary
# protocol without the client library's per-query work, src/drivers/mysql/wire.c) give what
# the library and the text protocol give: every column type as the same text, NULLs, results
# of 100000 rows and of a 20 MiB value (several protocol packets), new metadata after an
# ALTER TABLE, errors in the middle of a result, CALLs, and two system calls per query.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mysql.sh"

mysql_sandbox_start

sql <<'EOF'
CREATE TABLE types (id INT PRIMARY KEY, ti TINYINT, tu TINYINT UNSIGNED, si SMALLINT,
  mi MEDIUMINT, iu INT UNSIGNED, bi BIGINT, bu BIGINT UNSIGNED, f FLOAT, d DOUBLE,
  d2 DOUBLE(8,3), de DECIMAL(10,3), dt DATE, dtm DATETIME(3), ts TIMESTAMP NULL, tm TIME(2),
  y YEAR, ch CHAR(5), vb VARBINARY(10), bl BLOB, en ENUM('a','b'), st SET('x','y'), bt BIT(8),
  js JSON, zf INT(5) ZEROFILL, nul INT);
INSERT INTO types VALUES
 (1, -128, 255, -32768, -8388608, 4294967295, -9223372036854775808, 18446744073709551615,
  3.14159265, 0.1, 12345.678, -1234567.891, '2024-02-29', '2024-02-29 13:14:15.678',
  '2001-02-03 04:05:06', '-838:59:59.99', 2024, 'ab', 0x00FF41, 'blob', 'b', 'x,y',
  b'10000001', '{"a": [1, 2]}', 42, NULL),
 (2, 0, 0, 0, 0, 0, 0, 0, 1e20, 1.5e-7, 0, 0, '0000-00-00', '0000-00-00 00:00:00.000', NULL,
  '00:00:00', 0, '', '', '', 'a', '', b'0', 'null', 0, NULL),
 (3, 1, 1, 1, 1, 1, 1, 1, 100, 100, 1, 0.5, '1999-12-31', '1999-12-31 23:59:59.5',
  '2038-01-19 03:14:07', '12:34:56.7', 1999, 'xyz', 'abc', REPEAT('z', 100), 'a', 'x', b'1',
  '[]', 123456, 7),
 (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, -0.000123, 123456789012345678, -1.5, 99.999,
  NULL, NULL, NULL, '-00:00:01', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE dd (id INT PRIMARY KEY, d DOUBLE, f FLOAT);
INSERT INTO dd SELECT seq, (RAND(seq) - 0.5) * POW(10, CAST(seq AS SIGNED) % 61 - 30),
                      (RAND(seq + 1) - 0.5) * POW(10, CAST(seq AS SIGNED) % 41 - 20)
                 FROM seq_1_to_2000;
CREATE TABLE big (id INT PRIMARY KEY, v INT NOT NULL);
INSERT INTO big SELECT seq, seq % 10 FROM seq_1_to_100000;
CREATE TABLE blob20 (id INT PRIMARY KEY, b LONGBLOB);
INSERT INTO blob20 VALUES (1, REPEAT('0123456789abcdef', 1310720));
CREATE TABLE m (a INT, b VARCHAR(10));
INSERT INTO m VALUES (1, 'one');
DELIMITER //
CREATE PROCEDURE two_rows() BEGIN SELECT 1 AS x UNION SELECT 2; END//
DELIMITER ;
EOF

# Prints every row of a table through a text query and through a prepared statement.
write dump.lua <<'EOF'
sysbench.cmdline.options = { table = { "table to dump", "types" } }
local function show(v)
  if v == nil then return "NULL" end
  return (v:gsub("[%z\1-\31\127-\255]", function(c) return string.format("\\x%02x", c:byte()) end))
end
local function dump(rs, tag)
  for _ = 1, rs.nrows do
    local row, out = rs:fetch_row(), {}
    for i = 1, rs.nfields do out[i] = show(row[i]) end
    print(tag .. " " .. table.concat(out, "|"))
  end
end
sysbench.cmdline.commands = { dump = { function()
  local con = sysbench.sql.driver():connect()
  local sql = "SELECT * FROM " .. sysbench.opt.table .. " ORDER BY 1"
  dump(con:query(sql), "text")
  dump(con:prepare(sql):execute(), "stmt")
end } }
EOF

for table in types dd; do
  my dump.lua dump --table=$table
  text=$(printf '%s\n' "$out" | sed -n 's/^text //p')
  wire=$(printf '%s\n' "$out" | sed -n 's/^stmt //p')
  is "$rc" 0 "$table: dumped"
  num_cmp "$(printf '%s\n' "$text" | wc -l)" ">=" 4 "$table: rows came back"
  is "$wire" "$text" "$table: a prepared statement's rows read as the text protocol's, byte for byte"
  SYSBENCH_MYSQL_LIBRARY_IO=1 my dump.lua dump --table=$table
  is "$(printf '%s\n' "$out" | sed -n 's/^stmt //p')" "$text" \
    "$table: ... and as the client library's (SYSBENCH_MYSQL_LIBRARY_IO=1)"
done

# ---------------------------------------------------------------------------------------------
# Big results, metadata changes, errors, CALL

write results.lua <<'EOF'
sysbench.cmdline.commands = { results = { function()
  local con = sysbench.sql.driver():connect()
  local rs = con:prepare("SELECT id, v FROM big WHERE id > ?")
  local p = rs:bind_create(sysbench.sql.type.INT)
  rs:bind_param(p)
  p:set(0)
  local r = rs:execute()
  local n, sum = 0, 0
  while true do
    local row = r:fetch_row()
    if row == nil then break end
    n, sum = n + 1, sum + tonumber(row[2])
  end
  print("big", r.nrows, n, sum)

  local b = con:prepare("SELECT b FROM blob20 WHERE id = 1"):execute()
  local v = b:fetch_row()[1]
  print("blob", #v, v:sub(1, 16), v:sub(-16), v == string.rep("0123456789abcdef", 1310720))

  local m = con:prepare("SELECT * FROM m")
  local before = m:execute()
  print("before", before.nfields, table.concat(before:fetch_row(), ","))
  con:query("ALTER TABLE m ADD COLUMN c INT NOT NULL DEFAULT 7")
  local after = m:execute()
  print("after", after.nfields, table.concat(after:fetch_row(), ","))

  local call = con:prepare("CALL two_rows()")
  local cr = call:execute()
  print("call", cr.nrows, cr:fetch_row()[1])
  print("next", con:query_row("SELECT 42"))
end } }
EOF
my results.lua results
is "$rc" 0 "the results script runs"
is "$(printf '%s\n' "$out" | grep -E '^(big|blob|before|after|call|next)' | tr '\t' ' ')" \
"big 100000 100000 450000
blob 20971520 0123456789abcdef 0123456789abcdef true
before 2 1,one
after 3 1,one,7
call 2 1
next 42" "100000 rows, a 20 MiB value, columns added by ALTER TABLE, a CALL and what follows it"

write fails.lua <<'EOF'
function thread_init()
  con = sysbench.sql.driver():connect()
  stmt = con:prepare("SELECT id, (SELECT id FROM big WHERE v = 9 AND id > ?) FROM big WHERE id < 3")
  p = stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(p)
end
function event()
  p:set(99990)      -- one row in the subquery: fine
  stmt:execute()
  p:set(0)          -- many rows: error 1242 after the result has started
  stmt:execute()
end
EOF
my fails.lua run --events=5 --time=0
is "$rc" 1 "an error in the middle of a result is fatal"
like "$out" "SQL error, errno = 1242, state = '21000': Subquery returns more than 1 row" \
  "... with the server's errno, state and message"

# ---------------------------------------------------------------------------------------------
# System calls: one send and one receive per point select.

if command -v strace >/dev/null 2>&1; then
  my oltp_point_select prepare --table-size=1000 >/dev/null
  strace -f -c -o "$TEST_TMP/strace.out" "$SB" oltp_point_select run --table-size=1000 \
    --events=2000 --time=0 "${MYSQL_ARGS[@]}" >/dev/null 2>&1
  calls=$(awk '$NF ~ /^(sendto|recvfrom|recvmsg|sendmsg|poll|ppoll)$/ { n += $4 } END { print n + 0 }' \
    "$TEST_TMP/strace.out")
  num_cmp "$calls" "<=" 4100 "2000 point selects need at most 2 socket calls each (got $calls)"
  my oltp_point_select cleanup >/dev/null
else
  skip "strace is not installed: system calls per query not counted"
fi

done_testing
