#!/usr/bin/env sysbench
-- bulk_insert.lua: multi-row INSERT throughput. Each thread owns table sbtest<tid+1>
-- (id, k) and every event appends one row (n, n) to the thread's running multi-row INSERT,
-- which the driver sends whenever its buffer fills. prepare creates --threads tables.
-- No options of its own (1.0.20 accepts any unknown option here, and so does this script).

-- On a key-value driver (--db-driver=rocksdb) the rows are gathered in memory and written
-- in one go exactly when the SQL statement would have been sent, so the counts match.

-- Rows this thread has appended so far; also the next row's id and k.
local rows_sent = 0

-- Key-value form: bytes the SQL statement would hold so far, and rows not yet written.
local BULK_PACKET_SIZE = 512 * 1024
local statement_bytes, rows_pending = 0, 0

local function is_kv(drv)
   return drv:family() == "kv"
end

function thread_init()
   drv = sysbench.sql.driver()
   con = drv:connect()
   kv = is_kv(drv)
end

function prepare()
   local drv = sysbench.sql.driver()
   local con = drv:connect()
   for i = 1, sysbench.opt.threads do
      print("Creating table 'sbtest" .. i .. "'...")
      if is_kv(drv) then
         -- CREATE TABLE IF NOT EXISTS: an existing table is fine
         local ok, err = pcall(sysbench.kv.create_table, con, i, 0, {id_k_only = true})
         if not ok and not tostring(err):find("already exists", 1, true) then
            error(err, 0)
         end
      else
         con:query(string.format("CREATE TABLE IF NOT EXISTS sbtest%d (\n" ..
                                 "          id INTEGER NOT NULL,\n" ..
                                 "          k INTEGER DEFAULT '0' NOT NULL,\n" ..
                                 "          PRIMARY KEY (id))", i))
      end
   end
end

local function kv_flush()
   sysbench.kv.bulk_flush(con)
   rows_pending = 0
end

-- The multi-row INSERT's bookkeeping of db.c: a statement is sent when the next row would
-- make it longer than the packet size.
local function kv_append(table_num, row_text)
   if rows_pending > 0 and statement_bytes + #row_text + 1 > BULK_PACKET_SIZE then
      kv_flush()
      statement_bytes = #("INSERT INTO sbtest" .. table_num .. " VALUES")
   end
   sysbench.kv.bulk_add(con, table_num, rows_sent, rows_sent)
   statement_bytes = statement_bytes + #row_text + 1
   rows_pending = rows_pending + 1
end

function event()
   local table_num = sysbench.tid + 1
   if rows_sent == 0 then
      if kv then
         statement_bytes = #("INSERT INTO sbtest" .. table_num .. " VALUES")
      else
         con:bulk_insert_init("INSERT INTO sbtest" .. table_num .. " VALUES")
      end
   end
   rows_sent = rows_sent + 1
   local row_text = string.format("(%d,%d)", rows_sent, rows_sent)
   if kv then
      kv_append(table_num, row_text)
   else
      con:bulk_insert_next(row_text)
   end
end

function thread_done()
   if rows_sent > 0 then
      if kv then
         kv_flush()
      else
         con:bulk_insert_done()
      end
   end
   con:disconnect()
end

function cleanup()
   local drv = sysbench.sql.driver()
   local con = drv:connect()
   for i = 1, sysbench.opt.threads do
      print("Dropping table 'sbtest" .. i .. "'...")
      if is_kv(drv) then
         sysbench.kv.drop_table(con, i)
      else
         con:query("DROP TABLE IF EXISTS sbtest" .. i)
      end
   end
end
