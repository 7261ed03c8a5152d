/*
 * secrets.c: finds passwords in text and masks them (secrets.h). A password is found by where
 * it stands, whatever its length: after a "password=" keyword (libpq's conninfo syntax, a URI's
 * query, an SQL assignment), or between the ':' and the '@' of a URI's user part. The values so
 * found in the options, and the values of password options, are also searched for anywhere
 * else, so a library's message that echoes one bare is masked too.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "secrets.h"

#define NOTED_MAX 32
#define RANGES_MAX 128

static char *noted[NOTED_MAX];
static size_t noted_count;

typedef struct {
  size_t begin, end;           /* [begin, end) of the text is a secret */
} span;

typedef struct {
  span items[RANGES_MAX];
  size_t count;
  bool overflow;               /* more than RANGES_MAX: the whole text is masked */
} span_list;

bool secret_option_name(const char *name)
{
  for (const char *p = name; *p != '\0'; p++)
    if (strncasecmp(p, "password", 8) == 0 || strncasecmp(p, "passwd", 6) == 0)
      return true;
  return false;
}

static void add_span(span_list *l, size_t begin, size_t end)
{
  if (begin >= end)
    return;
  if (l->count == RANGES_MAX) {
    l->overflow = true;
    return;
  }
  l->items[l->count++] = (span) { begin, end };
}

static bool is_quote(char c)
{
  return c == '\'' || c == '"';
}

/* Is position `at` inside a URI's query ("...?a=1&password=x")? There '&' and '#' end a value;
   in a conninfo string they may be part of it. */
static bool in_uri_query(const char *text, size_t at)
{
  for (size_t i = at; i > 0; i--) {
    char c = text[i - 1];
    if (isspace((unsigned char) c) || c == '"')
      return false;
    if (c == '?')
      return true;
  }
  return false;
}

/* The value after "password" at `keyword_end`, when an '=' follows: a quoted value to its
   closing quote (backslash escapes, as libpq reads it), else up to a blank or a quote. */
static void find_keyword_value(const char *text, size_t keyword_end, span_list *l)
{
  size_t j = keyword_end;
  while (text[j] == ' ' || text[j] == '\t')
    j++;
  if (text[j] != '=')
    return;
  j++;
  while (text[j] == ' ' || text[j] == '\t')
    j++;
  size_t begin = j;
  if (is_quote(text[j])) {
    char quote = text[j++];
    while (text[j] != '\0' && text[j] != quote)
      j += text[j] == '\\' && text[j + 1] != '\0' ? 2 : 1;
    if (text[j] == quote)
      j++;
  } else {
    bool query = in_uri_query(text, begin);
    while (text[j] != '\0' && !isspace((unsigned char) text[j]) && !is_quote(text[j]) &&
           !(query && (text[j] == '&' || text[j] == '#')))
      j += text[j] == '\\' && text[j + 1] != '\0' ? 2 : 1;
  }
  add_span(l, begin, j);
}

/* "scheme://user:PASSWORD@host...": from the first ':' of the user part to the last '@' before
   the URI ends (a blank or a quote). A password holding '/' or '@' is still covered whole. */
static void find_uri_password(const char *text, size_t scheme_end, span_list *l)
{
  size_t start = scheme_end + 3, end = start, at = 0;
  while (text[end] != '\0' && !isspace((unsigned char) text[end]) && !is_quote(text[end])) {
    if (text[end] == '@')
      at = end;
    end++;
  }
  if (at == 0)
    return;
  for (size_t i = start; i < at; i++)
    if (text[i] == ':') {
      add_span(l, i + 1, at);
      return;
    }
}

/* Where the passwords of `text` stand, found by their place (not by value). */
static void find_placed(const char *text, span_list *l)
{
  for (size_t i = 0; text[i] != '\0'; i++) {
    if (strncasecmp(text + i, "password", 8) == 0)
      find_keyword_value(text, i + 8, l);
    else if (strncasecmp(text + i, "passwd", 6) == 0)
      find_keyword_value(text, i + 6, l);
    else if (strncmp(text + i, "://", 3) == 0)
      find_uri_password(text, i, l);
  }
}

static void find_noted(const char *text, span_list *l)
{
  for (size_t s = 0; s < noted_count; s++) {
    size_t n = strlen(noted[s]);
    if (n < SECRET_MIN_SEARCHED)
      continue;
    for (const char *p = strstr(text, noted[s]); p != NULL; p = strstr(p + n, noted[s]))
      add_span(l, (size_t) (p - text), (size_t) (p - text) + n);
  }
}

static int by_begin(const void *a, const void *b)
{
  const span *x = a, *y = b;
  return x->begin < y->begin ? -1 : x->begin > y->begin;
}

static void note(const char *value, size_t len)
{
  if (len == 0 || noted_count == NOTED_MAX)
    return;
  for (size_t i = 0; i < noted_count; i++)
    if (strlen(noted[i]) == len && memcmp(noted[i], value, len) == 0)
      return;
  char *copy = strndup(value, len);
  if (copy != NULL)
    noted[noted_count++] = copy;
}

/* A quoted value as libpq reads it: without its quotes and backslashes. */
static void note_unquoted(const char *value, size_t len)
{
  size_t stop = len >= 2 && value[len - 1] == value[0] ? len - 1 : len, n = 0;
  char *plain = malloc(len + 1);
  if (plain == NULL)
    return;
  for (size_t i = 1; i < stop; i++) {
    if (value[i] == '\\' && i + 1 < stop)
      i++;
    plain[n++] = value[i];
  }
  note(plain, n);
  free(plain);
}

/* A URI's %XX escapes decoded, as the library reads (and may echo) the password. */
static void note_decoded(const char *value, size_t len)
{
  char *plain = malloc(len + 1);
  size_t n = 0;
  if (plain == NULL)
    return;
  for (size_t i = 0; i < len; i++) {
    if (value[i] == '%' && i + 2 < len && isxdigit((unsigned char) value[i + 1]) &&
        isxdigit((unsigned char) value[i + 2])) {
      char hex[3] = {value[i + 1], value[i + 2], '\0'};
      plain[n++] = (char) strtol(hex, NULL, 16);
      i += 2;
    } else {
      plain[n++] = value[i];
    }
  }
  note(plain, n);
  free(plain);
}

void secrets_note_option(const char *name, const char *value)
{
  if (value == NULL || *value == '\0')
    return;
  if (secret_option_name(name)) {
    note(value, strlen(value));
    return;
  }
  span_list l = {.count = 0};
  find_placed(value, &l);
  for (size_t i = 0; i < l.count; i++) {
    const char *v = value + l.items[i].begin;
    size_t len = l.items[i].end - l.items[i].begin;
    note(v, len);
    if (is_quote(v[0]))
      note_unquoted(v, len);
    if (memchr(v, '%', len) != NULL)
      note_decoded(v, len);
  }
}

void secrets_forget(void)
{
  for (size_t i = 0; i < noted_count; i++)
    free(noted[i]);
  noted_count = 0;
}

char *secrets_mask(const char *text, char *out, size_t len)
{
  span_list l = {.count = 0};
  size_t used = 0, at = 0, n = text != NULL ? strlen(text) : 0;

  if (text == NULL || len == 0)
    return text == NULL ? NULL : out;
  find_placed(text, &l);
  find_noted(text, &l);
  qsort(l.items, l.count, sizeof(span), by_begin);
  if (l.overflow) {                    /* cannot tell where the rest is: mask all of it */
    l.items[0] = (span) { 0, n };
    l.count = 1;
  }

#define PUT(src, count) do { size_t c_ = (count); if (c_ > len - 1 - used) c_ = len - 1 - used; \
    memcpy(out + used, (src), c_); used += c_; } while (0)
  bool masked = false;
  for (size_t i = 0; i < l.count; i++) {
    if (masked && l.items[i].begin <= at) {        /* overlaps the secret just masked */
      if (l.items[i].end > at)
        at = l.items[i].end;
      continue;
    }
    PUT(text + at, l.items[i].begin - at);
    PUT(SECRET_MASK, sizeof(SECRET_MASK) - 1);
    at = l.items[i].end;
    masked = true;
  }
  PUT(text + at, n - at);
#undef PUT
  out[used] = '\0';
  return out;
}

char *secrets_mask_dup(const char *text)
{
  if (text == NULL)
    return NULL;
  /* A mask is longer than a short password: room for one per character at most. */
  size_t room = strlen(text) * sizeof(SECRET_MASK) + 1;
  char *out = malloc(room);
  return out != NULL ? secrets_mask(text, out, room) : NULL;
}

char *secrets_option_value_dup(const char *name, const char *value)
{
  if (value == NULL)
    return NULL;
  if (secret_option_name(name))          /* no password given is no secret */
    return strdup(*value != '\0' ? SECRET_MASK : "");
  return secrets_mask_dup(value);
}

char *secrets_argument_dup(const char *arg)
{
  const char *eq = strchr(arg, '=');
  if (strncmp(arg, "--", 2) != 0 || eq == NULL)
    return secrets_mask_dup(arg);
  char *name = strndup(arg + 2, (size_t) (eq - arg - 2));
  if (name == NULL)
    return NULL;
  char *value = secrets_option_value_dup(name, eq + 1);
  free(name);
  if (value == NULL)
    return NULL;
  size_t n = (size_t) (eq - arg) + 1 + strlen(value) + 1;
  char *out = malloc(n);
  if (out != NULL)
    snprintf(out, n, "%.*s=%s", (int) (eq - arg), arg, value);
  free(value);
  return out;
}
