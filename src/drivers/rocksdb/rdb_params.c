/*
 * rdb_params.c: a key-value statement's bound values as the sbtest columns take them: an
 * integer (id, k) or a string (c, pad), whatever type the script bound (see rdb_params.h).
 */
#include <stdlib.h>

#include "rdb_params.h"

int64_t rdb_param_int(const db_stmt *stmt, size_t i)
{
  if (i >= stmt->param_count)
    return 0;
  const db_bind_t *p = &stmt->params[i];
  if (p->is_null != NULL && *p->is_null)
    return 0;
  switch (p->type) {
    case DB_TYPE_TINYINT:  return *(int8_t *) p->buffer;
    case DB_TYPE_SMALLINT: return *(int16_t *) p->buffer;
    case DB_TYPE_INT:      return *(int32_t *) p->buffer;
    case DB_TYPE_BIGINT:   return *(int64_t *) p->buffer;
    case DB_TYPE_FLOAT:    return (int64_t) *(float *) p->buffer;
    case DB_TYPE_DOUBLE:   return (int64_t) *(double *) p->buffer;
    case DB_TYPE_CHAR:
    case DB_TYPE_VARCHAR:  return strtoll(p->buffer, NULL, 10);
    default:               return 0;
  }
}

rdb_slice rdb_param_str(const db_stmt *stmt, size_t i)
{
  rdb_slice s = {"", 0};
  if (i < stmt->param_count) {
    const db_bind_t *p = &stmt->params[i];
    if ((p->type == DB_TYPE_CHAR || p->type == DB_TYPE_VARCHAR) &&
        !(p->is_null != NULL && *p->is_null)) {
      s.ptr = p->buffer;
      s.len = (uint32_t) (p->data_len ? *p->data_len : 0);
      if (s.len > p->max_len)
        s.len = (uint32_t) p->max_len;
    }
  }
  return s;
}
