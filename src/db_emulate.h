/*
 * db_emulate.h: client-side prepared statements: the statement text with each '?' replaced by
 * its bound value, quoted and escaped, for drivers without server-side statements and for
 * --db-ps-mode=disable.
 */
#ifndef SB_DB_EMULATE_H
#define SB_DB_EMULATE_H

#include <stddef.h>

#include "db_types.h"

/* The query text for the statement's current parameter values (in a buffer the statement
   owns and reuses), or NULL if a value cannot be represented or memory ran out. */
const char *db_emulate_statement(db_stmt *stmt, size_t *len);

/* Generic escaping of a string value body: quotes doubled, backslashes escaped. */
size_t db_escape_generic(char *dst, const char *src, size_t len);

#endif
