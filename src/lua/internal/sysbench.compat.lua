-- sysbench.compat: the 0.5-era globals sysbench 1.0.20 still offers to old scripts
-- (sb_rand, sb_rand_uniq, sb_rand_str, thread_id, db_* ...). The database ones exist when
-- the SQL layer (sysbench.sql) is built in.

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

-- The legacy SQL API (sysbench.db, loaded the first time it is used): each db_* global
-- calls its sysbench.db function, as a tail call, so the errors they raise name the script's
-- line as before.
if sysbench.sql ~= nil then
   for _, name in ipairs({"connect", "disconnect", "query", "bulk_insert_init",
                          "bulk_insert_next", "bulk_insert_done", "prepare", "bind_param",
                          "bind_result", "execute", "store_results", "free_results",
                          "close"}) do
      _G["db_" .. name] = function(...)
         return sysbench.db[name](...)
      end
   end
   -- sysbench.db's values (1.0.20's)
   DB_ERROR_NONE = 0
   DB_ERROR_RESTART_TRANSACTION = 1
   DB_ERROR_FAILED = 2
end

mysql_table_engine = mysql_table_engine or "innodb"
myisam_max_rows = 1000000
