/*
 * error_codes.h: a list of server error codes as an option gives it ("1213,1020,1205",
 * "40P01,23505,40001", "all"), parsed once when a driver starts into a set that answers
 * whether an error is listed. The drivers' rules (--mysql-ignore-errors, --tidb-retry-errors,
 * --tidb-transient-errors, --pgsql-ignore-errors) all read their lists through it. No I/O:
 * unit tests link this file alone.
 */
#ifndef SB_ERROR_CODES_H
#define SB_ERROR_CODES_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  ERROR_CODES_NUMBERS,         /* MySQL error numbers, 0 to 65535 */
  ERROR_CODES_SQLSTATES        /* SQLSTATEs: five letters or digits */
} error_code_kind;

typedef struct {
  bool all;                    /* "all" was listed: every error is */
  size_t count;
  unsigned *numbers;           /* ERROR_CODES_NUMBERS */
  char (*sqlstates)[6];        /* ERROR_CODES_SQLSTATES, upper case */
} error_code_list;

/* Parse an option's items into `list` (replacing what it held); "all" is taken when
   `allow_all`. Returns NULL, or the first item that is not a code of `kind` ("" when out of
   memory). */
const char *error_codes_parse(error_code_list *list, error_code_kind kind, bool allow_all,
                              const char *const *items, size_t count);
void error_codes_free(error_code_list *list);

bool error_codes_has_number(const error_code_list *list, unsigned number);
/* `sqlstate` as the server sends it (upper case); NULL is never listed, except by "all". */
bool error_codes_has_sqlstate(const error_code_list *list, const char *sqlstate);

/* Five letters or digits: an item of a SQLSTATE list (besides "all"). */
bool error_codes_is_sqlstate(const char *item);

#endif
