/*
 * placeholders.h: the Lua API's '?' placeholders as PostgreSQL's $1, $2, ... (placeholders.c).
 */
#ifndef SB_PGSQL_PLACEHOLDERS_H
#define SB_PGSQL_PLACEHOLDERS_H

#include <stddef.h>

/*
 * The statement text with each '?' placeholder replaced by $1, $2, ...: those inside string
 * literals ('...', E'...'), quoted identifiers, dollar-quoted strings and comments are left
 * alone. Returns a malloc()ed NUL-terminated text and the number of placeholders, or NULL
 * when out of memory.
 */
char *pgsqldrv_number_placeholders(const char *query, size_t len, int *count);

#endif
