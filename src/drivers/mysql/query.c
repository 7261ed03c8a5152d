/*
 * query.c: text queries (and client-side prepared statements, which db.c turns into text):
 * running them, classifying the outcome (a result set is a read, affected rows a write,
 * anything else other), rows as strings, multi-statement results, and escaping string values
 * the way the connection's server expects (NO_BACKSLASH_ESCAPES included).
 */
#include <errmsg.h>
#include <string.h>

#include "db_emulate.h"
#include "drivers/mysql/errors.h"
#include "drivers/mysql/settings.h"
#include "drivers/mysql/query.h"
#include "drivers/mysql/state.h"

static driver_error_class fail_from_handle(db_conn *con, MYSQL *m)
{
  return mysqldrv_fail(con, mysql_errno(m), mysql_sqlstate(m), mysql_error(m));
}

/* Results of a multi-statement query the script did not read: the next command would fail
   with "Commands out of sync" otherwise. */
void mysqldrv_drain_results(MYSQL *m)
{
  while (mysql_more_results(m) && mysql_next_result(m) == 0) {
    MYSQL_RES *res = mysql_store_result(m);
    if (res != NULL)
      mysql_free_result(res);
  }
}

/* Store the current result of `m` into `rs` and classify it. */
static driver_error_class take_result(db_conn *con, MYSQL *m, db_result *rs)
{
  MYSQL_RES *res = mysql_store_result(m);
  MYSQLDRV_TRACE("mysql_store_result(%p) = %p", (void *) m, (void *) res);

  if (res == NULL) {
    if (mysql_field_count(m) != 0 || mysql_errno(m) != 0)
      return fail_from_handle(con, m);
    my_ulonglong affected = mysql_affected_rows(m);
    rs->nrows = (uint32_t) affected;
    rs->stat_type = affected > 0 && affected != (my_ulonglong) -1 ? SB_CNT_WRITE
                                                                  : SB_CNT_OTHER;
    return DRIVER_ERROR_NONE;
  }
  rs->ptr = res;
  rs->stat_type = SB_CNT_READ;
  rs->nrows = (uint32_t) mysql_num_rows(res);
  rs->nfields = mysql_num_fields(res);
  return DRIVER_ERROR_NONE;
}

driver_error_class mysqldrv_query(db_conn *con, const char *query, size_t len, db_result *rs)
{
  if (mysqldrv_config.dry_run)
    return DRIVER_ERROR_NONE;
  MYSQL *m = mysqldrv_handle(con);
  if (m == NULL)
    return mysqldrv_fail_disconnected(con);

  if (mysql_more_results(m))
    mysqldrv_drain_results(m);
  mysqldrv_doing(con, "mysql_drv_query()", query, len);
  int rc = mysql_real_query(m, query, (unsigned long) len);
  MYSQLDRV_TRACE("mysql_real_query(%p, \"%.*s\", %zu) = %d", (void *) m, (int) len, query, len,
                 rc);
  if (rc != 0)
    return fail_from_handle(con, m);
  return take_result(con, m, rs);
}

int mysqldrv_query_fetch_row(db_result *rs, db_row_t *row)
{
  if (rs->ptr == NULL)
    return 1;

  MYSQL_ROW values = mysql_fetch_row(rs->ptr);
  if (values == NULL)
    return 1;
  unsigned long *lengths = mysql_fetch_lengths(rs->ptr);
  if (lengths == NULL)
    return -1;
  for (uint32_t i = 0; i < rs->nfields; i++) {
    row->values[i].len = (uint32_t) lengths[i];
    row->values[i].ptr = values[i];
  }
  row->ptr = values;
  return 0;
}

bool mysqldrv_more_results(db_conn *con)
{
  if (mysqldrv_config.dry_run)
    return false;
  MYSQL *m = mysqldrv_handle(con);
  return m != NULL && mysql_more_results(m);
}

driver_error_class mysqldrv_next_result(db_conn *con, db_result *rs)
{
  if (mysqldrv_config.dry_run)
    return DRIVER_ERROR_NONE;
  MYSQL *m = mysqldrv_handle(con);
  if (m == NULL)
    return mysqldrv_fail_disconnected(con);

  mysqldrv_doing(con, "mysql_next_result()", "<next result>", 13);
  int rc = mysql_next_result(m);
  MYSQLDRV_TRACE("mysql_next_result(%p) = %d", (void *) m, rc);
  if (rc > 0)
    return fail_from_handle(con, m);
  if (rc < 0) {
    rs->stat_type = SB_CNT_OTHER;
    return DRIVER_ERROR_NONE;
  }
  return take_result(con, m, rs);
}

void mysqldrv_query_free_result(db_result *rs)
{
  if (rs->ptr != NULL) {
    MYSQLDRV_TRACE("mysql_free_result(%p)", rs->ptr);
    mysql_free_result(rs->ptr);
    rs->ptr = NULL;
  }
}

size_t mysqldrv_escape(db_conn *con, char *dst, const char *src, size_t len)
{
  MYSQL *m = mysqldrv_config.dry_run ? NULL : mysqldrv_handle(con);
  if (m == NULL)
    return db_escape_generic(dst, src, len);
  return (size_t) mysql_real_escape_string(m, dst, src, (unsigned long) len);
}
