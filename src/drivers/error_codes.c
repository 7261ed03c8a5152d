/*
 * error_codes.c: lists of server error codes from options, and whether an error is listed
 * (see error_codes.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "drivers/error_codes.h"

#define MAX_ERROR_NUMBER 65535

/* A decimal number 0..MAX_ERROR_NUMBER, or -1. */
static long read_number(const char *text)
{
  char *end;
  errno = 0;
  long n = strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || n < 0 || n > MAX_ERROR_NUMBER)
    return -1;
  return n;
}

/* Five digits or letters, upper-cased into `out` (SQLSTATEs are written in capitals). */
static bool read_sqlstate(const char *text, char out[6])
{
  if (strlen(text) != 5)
    return false;
  for (int i = 0; i < 5; i++) {
    if (!isalnum((unsigned char) text[i]))
      return false;
    out[i] = (char) toupper((unsigned char) text[i]);
  }
  out[5] = '\0';
  return true;
}

bool error_codes_is_sqlstate(const char *item)
{
  char ignored[6];
  return read_sqlstate(item, ignored);
}

void error_codes_free(error_code_list *list)
{
  free(list->numbers);
  free(list->sqlstates);
  memset(list, 0, sizeof(*list));
}

const char *error_codes_parse(error_code_list *list, error_code_kind kind, bool allow_all,
                              const char *const *items, size_t count)
{
  error_codes_free(list);
  size_t room = count > 0 ? count : 1;
  if (kind == ERROR_CODES_NUMBERS)
    list->numbers = calloc(room, sizeof(*list->numbers));
  else
    list->sqlstates = calloc(room, sizeof(*list->sqlstates));
  if (list->numbers == NULL && list->sqlstates == NULL)
    return "";

  for (size_t i = 0; i < count; i++) {
    if (allow_all && strcasecmp(items[i], "all") == 0) {
      list->all = true;
      continue;
    }
    if (kind == ERROR_CODES_NUMBERS) {
      long n = read_number(items[i]);
      if (n < 0)
        return items[i];
      list->numbers[list->count++] = (unsigned) n;
    } else {
      if (!read_sqlstate(items[i], list->sqlstates[list->count]))
        return items[i];
      list->count++;
    }
  }
  return NULL;
}

bool error_codes_has_number(const error_code_list *list, unsigned number)
{
  if (list->all)
    return true;
  for (size_t i = 0; i < list->count && list->numbers != NULL; i++)
    if (list->numbers[i] == number)
      return true;
  return false;
}

bool error_codes_has_sqlstate(const error_code_list *list, const char *sqlstate)
{
  if (list->all)
    return true;
  if (sqlstate == NULL)
    return false;
  for (size_t i = 0; i < list->count && list->sqlstates != NULL; i++)
    if (strcmp(list->sqlstates[i], sqlstate) == 0)
      return true;
  return false;
}
