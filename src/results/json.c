/*
 * json.c: the JSON reader and writer of json.h. The reader is a recursive descent over the
 * whole text with a depth limit (a hostile file cannot exhaust the stack); every error names
 * the line and column where the text stopped making sense.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "results/json.h"

#define PARSE_MAX_DEPTH 64

typedef struct {
  const char *text, *p, *end;
  char *err;
  size_t errlen;
  bool failed;
} parser;

static void fail(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(parser *ps, const char *fmt, ...)
{
  if (ps->failed)
    return;
  ps->failed = true;
  unsigned line = 1, column = 1;
  for (const char *c = ps->text; c < ps->p && c < ps->end; c++) {
    if (*c == '\n') {
      line++;
      column = 1;
    } else {
      column++;
    }
  }
  int n = snprintf(ps->err, ps->errlen, "line %u, column %u: ", line, column);
  if (n < 0 || (size_t) n >= ps->errlen)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ps->err + n, ps->errlen - (size_t) n, fmt, ap);
  va_end(ap);
}

static void skip_blanks(parser *ps)
{
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
    ps->p++;
}

static json_value *new_value(json_type type)
{
  json_value *v = calloc(1, sizeof(*v));
  if (v != NULL)
    v->type = type;
  return v;
}

static bool append_item(json_value *v, json_value *item, char *key)
{
  size_t n = v->count + 1;
  json_value **items = realloc(v->items, n * sizeof(*items));
  if (items == NULL)
    return false;
  v->items = items;
  if (v->type == JSON_OBJECT) {
    char **keys = realloc(v->keys, n * sizeof(*keys));
    if (keys == NULL)
      return false;
    v->keys = keys;
    keys[v->count] = key;
  }
  items[v->count] = item;
  v->count = n;
  return true;
}

static int hex_digit(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static void put_utf8(char **o, unsigned cp)
{
  char *q = *o;
  if (cp < 0x80) {
    *q++ = (char) cp;
  } else if (cp < 0x800) {
    *q++ = (char) (0xC0 | (cp >> 6));
    *q++ = (char) (0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *q++ = (char) (0xE0 | (cp >> 12));
    *q++ = (char) (0x80 | ((cp >> 6) & 0x3F));
    *q++ = (char) (0x80 | (cp & 0x3F));
  } else {
    *q++ = (char) (0xF0 | (cp >> 18));
    *q++ = (char) (0x80 | ((cp >> 12) & 0x3F));
    *q++ = (char) (0x80 | ((cp >> 6) & 0x3F));
    *q++ = (char) (0x80 | (cp & 0x3F));
  }
  *o = q;
}

static bool read_hex4(parser *ps, unsigned *out)
{
  unsigned cp = 0;
  if (ps->end - ps->p < 4) {
    fail(ps, "a \\u escape needs four hex digits");
    return false;
  }
  for (int i = 0; i < 4; i++) {
    int d = hex_digit(ps->p[i]);
    if (d < 0) {
      fail(ps, "a \\u escape needs four hex digits");
      return false;
    }
    cp = cp * 16 + (unsigned) d;
  }
  ps->p += 4;
  *out = cp;
  return true;
}

/* A string starting at the opening quote; returns the decoded text (NUL-terminated). */
static char *parse_string(parser *ps)
{
  const char *start = ++ps->p;
  /* The decoded text is never longer than the source text. */
  const char *close = start;
  while (close < ps->end && *close != '"') {
    if (*close == '\\' && close + 1 < ps->end)
      close++;
    close++;
  }
  char *out = malloc((size_t) (close - start) + 4), *o = out;
  if (out == NULL) {
    fail(ps, "out of memory");
    return NULL;
  }
  while (ps->p < ps->end && *ps->p != '"') {
    unsigned char c = (unsigned char) *ps->p;
    if (c < 0x20) {
      fail(ps, "a control character inside a string");
      free(out);
      return NULL;
    }
    if (c != '\\') {
      *o++ = (char) c;
      ps->p++;
      continue;
    }
    ps->p++;
    if (ps->p >= ps->end)
      break;
    char e = *ps->p++;
    switch (e) {
      case '"': *o++ = '"'; break;
      case '\\': *o++ = '\\'; break;
      case '/': *o++ = '/'; break;
      case 'b': *o++ = '\b'; break;
      case 'f': *o++ = '\f'; break;
      case 'n': *o++ = '\n'; break;
      case 'r': *o++ = '\r'; break;
      case 't': *o++ = '\t'; break;
      case 'u': {
        unsigned cp;
        if (!read_hex4(ps, &cp)) {
          free(out);
          return NULL;
        }
        if (cp >= 0xD800 && cp < 0xDC00 && ps->end - ps->p >= 6 && ps->p[0] == '\\' &&
            ps->p[1] == 'u') {
          unsigned low;
          ps->p += 2;
          if (!read_hex4(ps, &low)) {
            free(out);
            return NULL;
          }
          if (low >= 0xDC00 && low < 0xE000)
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        /* A lone surrogate escape (2 bytes of text) becomes U+FFFD (3 bytes): room kept. */
        put_utf8(&o, cp >= 0xD800 && cp < 0xE000 ? 0xFFFD : cp);
        break;
      }
      default:
        ps->p--;
        fail(ps, "unknown escape \\%c in a string", e);
        free(out);
        return NULL;
    }
  }
  if (ps->p >= ps->end) {
    fail(ps, "the text ends inside a string");
    free(out);
    return NULL;
  }
  ps->p++;                             /* closing quote */
  *o = '\0';
  return out;
}

static json_value *parse_value(parser *ps, int depth);

static json_value *parse_container(parser *ps, int depth, bool object)
{
  json_value *v = new_value(object ? JSON_OBJECT : JSON_ARRAY);
  char close = object ? '}' : ']';

  if (v == NULL) {
    fail(ps, "out of memory");
    return NULL;
  }
  ps->p++;
  skip_blanks(ps);
  if (ps->p < ps->end && *ps->p == close) {
    ps->p++;
    return v;
  }
  for (;;) {
    char *key = NULL;
    skip_blanks(ps);
    if (object) {
      if (ps->p >= ps->end || *ps->p != '"') {
        fail(ps, "expected a member name in quotes");
        break;
      }
      key = parse_string(ps);
      if (key == NULL)
        break;
      skip_blanks(ps);
      if (ps->p >= ps->end || *ps->p != ':') {
        fail(ps, "expected ':' after the member name \"%s\"", key);
        free(key);
        break;
      }
      ps->p++;
    }
    json_value *item = parse_value(ps, depth + 1);
    if (item == NULL) {
      free(key);
      break;
    }
    if (!append_item(v, item, key)) {
      fail(ps, "out of memory");
      json_free(item);
      free(key);
      break;
    }
    skip_blanks(ps);
    if (ps->p < ps->end && *ps->p == ',') {
      ps->p++;
      continue;
    }
    if (ps->p < ps->end && *ps->p == close) {
      ps->p++;
      return v;
    }
    fail(ps, "expected ',' or '%c'", close);
    break;
  }
  json_free(v);
  return NULL;
}

static json_value *parse_number(parser *ps)
{
  const char *start = ps->p, *q = ps->p;
  if (q < ps->end && *q == '-')
    q++;
  if (q >= ps->end || !(*q >= '0' && *q <= '9')) {
    fail(ps, "expected a value");
    return NULL;
  }
  while (q < ps->end && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' ||
                         *q == '+' || *q == '-'))
    q++;
  json_value *v = new_value(JSON_NUMBER);
  if (v == NULL || (v->text = strndup(start, (size_t) (q - start))) == NULL) {
    free(v);
    fail(ps, "out of memory");
    return NULL;
  }
  char *end;
  strtod(v->text, &end);
  if (*end != '\0') {
    fail(ps, "'%s' is not a number", v->text);
    json_free(v);
    return NULL;
  }
  ps->p = q;
  return v;
}

static bool take_word(parser *ps, const char *word)
{
  size_t n = strlen(word);
  if ((size_t) (ps->end - ps->p) >= n && memcmp(ps->p, word, n) == 0) {
    ps->p += n;
    return true;
  }
  return false;
}

static json_value *parse_value(parser *ps, int depth)
{
  skip_blanks(ps);
  if (depth > PARSE_MAX_DEPTH) {
    fail(ps, "nested deeper than %d levels", PARSE_MAX_DEPTH);
    return NULL;
  }
  if (ps->p >= ps->end) {
    fail(ps, "the text ends where a value should be");
    return NULL;
  }
  switch (*ps->p) {
    case '{': return parse_container(ps, depth, true);
    case '[': return parse_container(ps, depth, false);
    case '"': {
      char *s = parse_string(ps);
      json_value *v = s ? new_value(JSON_STRING) : NULL;
      if (v == NULL) {
        free(s);
        fail(ps, "out of memory");
        return NULL;
      }
      v->text = s;
      return v;
    }
    default:
      break;
  }
  json_value *v = NULL;
  if (take_word(ps, "true") || take_word(ps, "false")) {
    v = new_value(JSON_BOOL);
    if (v != NULL)
      v->boolean = ps->p[-1] == 'e' && ps->p[-2] == 'u';
  } else if (take_word(ps, "null")) {
    v = new_value(JSON_NULL);
  } else {
    return parse_number(ps);
  }
  if (v == NULL)
    fail(ps, "out of memory");
  return v;
}

json_value *json_parse(const char *text, size_t len, char *err, size_t errlen)
{
  parser ps = { .text = text, .p = text, .end = text + len, .err = err, .errlen = errlen };
  if (errlen > 0)
    err[0] = '\0';
  json_value *v = parse_value(&ps, 0);
  if (v != NULL) {
    skip_blanks(&ps);
    if (ps.p != ps.end) {
      fail(&ps, "unexpected text after the end of the document");
      json_free(v);
      v = NULL;
    }
  }
  return v;
}

void json_free(json_value *v)
{
  if (v == NULL)
    return;
  for (size_t i = 0; i < v->count; i++) {
    json_free(v->items[i]);
    if (v->keys != NULL)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->text);
  free(v);
}

const json_value *json_get(const json_value *v, const char *key)
{
  if (v == NULL || v->type != JSON_OBJECT)
    return NULL;
  for (size_t i = 0; i < v->count; i++)
    if (strcmp(v->keys[i], key) == 0)
      return v->items[i];
  return NULL;
}

bool json_u64(const json_value *v, uint64_t *out)
{
  if (v == NULL || v->type != JSON_NUMBER || v->text[0] == '-')
    return false;
  for (const char *c = v->text; *c; c++)
    if (*c < '0' || *c > '9')
      return false;
  errno = 0;
  unsigned long long n = strtoull(v->text, NULL, 10);
  if (errno == ERANGE)
    return false;
  *out = n;
  return true;
}

bool json_double(const json_value *v, double *out)
{
  if (v == NULL || v->type != JSON_NUMBER)
    return false;
  *out = strtod(v->text, NULL);
  return true;
}

const char *json_string(const json_value *v)
{
  return v != NULL && v->type == JSON_STRING ? v->text : NULL;
}

const char *json_type_name(json_type type)
{
  static const char *const names[] = {"null", "true or false", "a number", "a string",
                                      "an array", "an object"};
  return names[type];
}

/* ------------------------------------------------------------------------------------------ */
/* Writer                                                                                     */
/* ------------------------------------------------------------------------------------------ */

void json_writer_init(json_writer *w, FILE *out)
{
  memset(w, 0, sizeof(*w));
  w->out = out;
  w->first[0] = true;
}

static bool on_one_line(const json_writer *w)
{
  for (int d = 0; d <= w->depth; d++)
    if (w->inline_from[d])
      return true;
  return false;
}

static void write_escaped(FILE *out, const char *s)
{
  fputc('"', out);
  for (const unsigned char *c = (const unsigned char *) s; *c; c++) {
    switch (*c) {
      case '"': fputs("\\\"", out); break;
      case '\\': fputs("\\\\", out); break;
      case '\n': fputs("\\n", out); break;
      case '\r': fputs("\\r", out); break;
      case '\t': fputs("\\t", out); break;
      default:
        if (*c < 0x20)
          fprintf(out, "\\u%04x", *c);
        else
          fputc(*c, out);
    }
  }
  fputc('"', out);
}

/* Separator, line break and indentation before a new item, then its key. */
static void start_item(json_writer *w, const char *key)
{
  if (!w->first[w->depth])
    fputc(',', w->out);
  if (w->depth > 0) {
    if (on_one_line(w))
      fputs(w->first[w->depth] ? "" : " ", w->out);
    else
      fprintf(w->out, "\n%*s", 2 * w->depth, "");
  }
  w->first[w->depth] = false;
  if (key != NULL) {
    write_escaped(w->out, key);
    fputs(": ", w->out);
  }
}

static void open_container(json_writer *w, const char *key, char bracket, bool one_line)
{
  start_item(w, key);
  fputc(bracket, w->out);
  if (w->depth + 1 < JSON_MAX_DEPTH) {
    w->depth++;
    w->first[w->depth] = true;
    w->inline_from[w->depth] = one_line;
    w->closer[w->depth] = bracket == '{' ? '}' : ']';
  }
}

void json_begin_object(json_writer *w, const char *key)
{
  open_container(w, key, '{', false);
}

void json_begin_array(json_writer *w, const char *key, bool one_line)
{
  open_container(w, key, '[', one_line);
}

void json_end(json_writer *w)
{
  bool empty = w->first[w->depth];
  bool one_line = on_one_line(w);
  char closer = w->closer[w->depth];
  w->inline_from[w->depth] = false;
  w->depth--;
  if (!empty && !one_line)
    fprintf(w->out, "\n%*s", 2 * w->depth, "");
  fputc(closer, w->out);
}

void json_put_string(json_writer *w, const char *key, const char *value)
{
  start_item(w, key);
  if (value == NULL)
    fputs("null", w->out);
  else
    write_escaped(w->out, value);
}

void json_put_u64(json_writer *w, const char *key, uint64_t value)
{
  start_item(w, key);
  fprintf(w->out, "%" PRIu64, value);
}

void json_put_i64(json_writer *w, const char *key, int64_t value)
{
  start_item(w, key);
  fprintf(w->out, "%" PRId64, value);
}

void json_put_bool(json_writer *w, const char *key, bool value)
{
  start_item(w, key);
  fputs(value ? "true" : "false", w->out);
}

void json_put_double(json_writer *w, const char *key, double value)
{
  start_item(w, key);
  if (!isfinite(value)) {
    fputs("null", w->out);
    return;
  }
  char buf[40];
  for (int precision = 6; precision <= 17; precision++) {
    snprintf(buf, sizeof(buf), "%.*g", precision, value);
    if (strtod(buf, NULL) == value)
      break;
  }
  fputs(buf, w->out);
}

void json_put_rounded(json_writer *w, const char *key, double value, int digits)
{
  char buf[40];
  snprintf(buf, sizeof(buf), "%.*g", digits, value);
  json_put_double(w, key, isfinite(value) ? strtod(buf, NULL) : value);
}

void json_finish(json_writer *w)
{
  fputc('\n', w->out);
}
