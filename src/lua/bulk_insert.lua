#!/usr/bin/env sysbench
-- bulk_insert.lua: multi-row INSERT throughput. Each thread owns table sbtest<tid+1>
-- (id, k) and every event appends one row (n, n) to the thread's running multi-row INSERT,
-- which the driver sends whenever its buffer fills. prepare creates --threads tables.
-- No options of its own (1.0.20 accepts any unknown option here, and so does this script).

-- Rows this thread has appended so far; also the next row's id and k.
local rows_sent = 0

function thread_init()
   drv = sysbench.sql.driver()
   con = drv:connect()
end

function prepare()
   local drv = sysbench.sql.driver()
   local con = drv:connect()
   for i = 1, sysbench.opt.threads do
      print("Creating table 'sbtest" .. i .. "'...")
      con:query(string.format("CREATE TABLE IF NOT EXISTS sbtest%d (\n" ..
                              "          id INTEGER NOT NULL,\n" ..
                              "          k INTEGER DEFAULT '0' NOT NULL,\n" ..
                              "          PRIMARY KEY (id))", i))
   end
end

function event()
   if rows_sent == 0 then
      con:bulk_insert_init("INSERT INTO sbtest" .. (sysbench.tid + 1) .. " VALUES")
   end
   rows_sent = rows_sent + 1
   con:bulk_insert_next(string.format("(%d,%d)", rows_sent, rows_sent))
end

function thread_done()
   if rows_sent > 0 then
      con:bulk_insert_done()
   end
   con:disconnect()
end

function cleanup()
   local drv = sysbench.sql.driver()
   local con = drv:connect()
   for i = 1, sysbench.opt.threads do
      print("Dropping table 'sbtest" .. i .. "'...")
      con:query("DROP TABLE IF EXISTS sbtest" .. i)
   end
end
