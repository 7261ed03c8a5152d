/*
 * placeholders.c: the Lua API's '?' placeholders as PostgreSQL's $1, $2, ... A small lexer
 * of PostgreSQL's quoting skips what is not SQL: string literals ('it''s', E'\'' with
 * backslash escapes), quoted identifiers ("a?b"), dollar-quoted bodies ($$...$$,
 * $fn$...$fn$), line comments (-- ...) and nested block comments. No I/O: the unit test
 * links this file alone.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/pgsql/placeholders.h"

static bool ident_char(char c)
{
  return isalnum((unsigned char) c) || c == '_' || c == '$' || (unsigned char) c >= 0x80;
}

/* End (exclusive) of the '...' literal opening at q[i]; backslashes escape in E'...'. */
static size_t skip_string(const char *q, size_t len, size_t i, bool backslash_escapes)
{
  for (i++; i < len; i++) {
    if (backslash_escapes && q[i] == '\\') {
      i++;
      continue;
    }
    if (q[i] == '\'') {
      if (i + 1 < len && q[i + 1] == '\'') {
        i++;
        continue;
      }
      return i + 1;
    }
  }
  return len;
}

/* End of the "..." identifier opening at q[i] ("" is a quote inside it). */
static size_t skip_identifier(const char *q, size_t len, size_t i)
{
  for (i++; i < len; i++) {
    if (q[i] == '"') {
      if (i + 1 < len && q[i + 1] == '"') {
        i++;
        continue;
      }
      return i + 1;
    }
  }
  return len;
}

/* Length of the $tag$ opening a dollar-quoted string at q[i], or 0 if there is none. */
static size_t dollar_tag_length(const char *q, size_t len, size_t i)
{
  size_t j = i + 1;
  if (j < len && (isdigit((unsigned char) q[j])))
    return 0;                  /* $1: a positional parameter */
  while (j < len && q[j] != '$') {
    if (!(isalnum((unsigned char) q[j]) || q[j] == '_' || (unsigned char) q[j] >= 0x80))
      return 0;
    j++;
  }
  return j < len ? j - i + 1 : 0;
}

/* End of the block comment opening at q[i] (they nest in PostgreSQL). */
static size_t skip_block_comment(const char *q, size_t len, size_t i)
{
  int depth = 0;
  while (i < len) {
    if (i + 1 < len && q[i] == '/' && q[i + 1] == '*') {
      depth++;
      i += 2;
    } else if (i + 1 < len && q[i] == '*' && q[i + 1] == '/') {
      i += 2;
      if (--depth == 0)
        return i;
    } else {
      i++;
    }
  }
  return len;
}

char *pgsqldrv_number_placeholders(const char *query, size_t len, int *count)
{
  /* "$N" is at most 11 characters where "?" was 1 */
  size_t questions = 0;
  for (size_t i = 0; i < len; i++)
    questions += query[i] == '?';
  char *out = malloc(len + questions * 10 + 1);
  if (out == NULL)
    return NULL;

  size_t used = 0, i = 0;
  int n = 0;
  while (i < len) {
    char c = query[i];
    size_t end = i + 1;
    bool after_ident = i > 0 && ident_char(query[i - 1]);

    if (c == '\'') {
      /* E'...' (or e'...') takes backslash escapes; the E is a prefix, not an identifier */
      bool escapes = i > 0 && (query[i - 1] == 'E' || query[i - 1] == 'e') &&
                     !(i > 1 && ident_char(query[i - 2]));
      end = skip_string(query, len, i, escapes);
    } else if (c == '"') {
      end = skip_identifier(query, len, i);
    } else if (c == '$' && !after_ident) {
      size_t tag = dollar_tag_length(query, len, i);
      if (tag > 0) {
        /* the body runs to the same tag */
        const char *close = NULL;
        for (size_t j = i + tag; j + tag <= len; j++)
          if (memcmp(query + j, query + i, tag) == 0) {
            close = query + j;
            break;
          }
        end = close != NULL ? (size_t) (close - query) + tag : len;
      }
    } else if (c == '-' && i + 1 < len && query[i + 1] == '-') {
      const char *newline = memchr(query + i, '\n', len - i);
      end = newline != NULL ? (size_t) (newline - query) + 1 : len;
    } else if (c == '/' && i + 1 < len && query[i + 1] == '*') {
      end = skip_block_comment(query, len, i);
    } else if (c == '?') {
      used += (size_t) sprintf(out + used, "$%d", ++n);
      i++;
      continue;
    }
    memcpy(out + used, query + i, end - i);
    used += end - i;
    i = end;
  }
  out[used] = '\0';
  *count = n;
  return out;
}
