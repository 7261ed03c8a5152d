-- sysbench.compat: the 0.5-era globals sysbench 1.0.20 still offers to old scripts
-- (sb_rand, sb_rand_uniq, sb_rand_str, thread_id, db_* ...). The database ones are set by
-- sysbench.sql when that layer is built in.

thread_id = sysbench.tid
test = sysbench.test and sysbench.test.path

function sb_rnd()
   -- the low 32 bits of a 64-bit random number, as a Lua number
   return tonumber(sysbench.rand.uniform_uint64() % 4294967296)
end

sb_rand = sysbench.rand.default
sb_rand_str = sysbench.rand.string
sb_rand_uniform = sysbench.rand.uniform
sb_rand_gaussian = sysbench.rand.gaussian
sb_rand_special = sysbench.rand.special

function sb_rand_uniq(a, b)
   a = a or 0
   b = b or 4294967295
   local res
   repeat
      res = sysbench.rand.unique()
   until res >= a and res <= b
   return res
end

if sysbench.db ~= nil then
   db_connect = sysbench.db.connect
   db_disconnect = sysbench.db.disconnect
   db_query = sysbench.db.query
   db_bulk_insert_init = sysbench.db.bulk_insert_init
   db_bulk_insert_next = sysbench.db.bulk_insert_next
   db_bulk_insert_done = sysbench.db.bulk_insert_done
   db_prepare = sysbench.db.prepare
   db_bind_param = sysbench.db.bind_param
   db_bind_result = sysbench.db.bind_result
   db_execute = sysbench.db.execute
   db_store_results = sysbench.db.store_results
   db_free_results = sysbench.db.free_results
   db_close = sysbench.db.close
   DB_ERROR_NONE = sysbench.db.DB_ERROR_NONE
   DB_ERROR_RESTART_TRANSACTION = sysbench.db.DB_ERROR_RESTART_TRANSACTION
   DB_ERROR_FAILED = sysbench.db.DB_ERROR_FAILED
end

mysql_table_engine = mysql_table_engine or "innodb"
myisam_max_rows = 1000000
