/*
 * json.h: a small JSON reader (text -> tree, with line and column in its errors) and writer
 * (indented output with one-line arrays where asked), enough for the result file. Numbers
 * keep their text, so 64-bit counts read back exactly.
 */
#ifndef SB_RESULTS_JSON_H
#define SB_RESULTS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json_value json_value;
struct json_value {
  json_type type;
  bool boolean;
  char *text;                  /* NUMBER: its text; STRING: the decoded string */
  size_t count;                /* ARRAY, OBJECT: number of items / members */
  json_value **items;          /* ARRAY items, OBJECT values */
  char **keys;                 /* OBJECT keys */
};

/* Parse `len` bytes. On error returns NULL and writes "line L, column C: what" to err. */
json_value *json_parse(const char *text, size_t len, char *err, size_t errlen);
void json_free(json_value *v);

/* Member `key` of an object (NULL if v is not an object or has no such member). */
const json_value *json_get(const json_value *v, const char *key);
/* Typed reads; false when the value is missing or of another type. */
bool json_u64(const json_value *v, uint64_t *out);     /* a non-negative integer */
bool json_double(const json_value *v, double *out);
const char *json_string(const json_value *v);          /* NULL unless a string */
const char *json_type_name(json_type type);

/* ---- writer ---- */

#define JSON_MAX_DEPTH 32

typedef struct json_writer {
  FILE *out;
  int depth;
  bool first[JSON_MAX_DEPTH];  /* nothing written yet at this level */
  bool inline_from[JSON_MAX_DEPTH];  /* this level and below on one line */
  char closer[JSON_MAX_DEPTH]; /* '}' or ']' */
} json_writer;

void json_writer_init(json_writer *w, FILE *out);
/* key is NULL inside arrays and at the top. One-line containers suit number arrays. */
void json_begin_object(json_writer *w, const char *key);
void json_begin_array(json_writer *w, const char *key, bool one_line);
void json_end(json_writer *w);                 /* closes the innermost object or array */
void json_put_string(json_writer *w, const char *key, const char *value);  /* NULL -> null */
void json_put_u64(json_writer *w, const char *key, uint64_t value);
void json_put_i64(json_writer *w, const char *key, int64_t value);
void json_put_bool(json_writer *w, const char *key, bool value);
/* Shortest text that reads back as the same double; non-finite numbers become null. */
void json_put_double(json_writer *w, const char *key, double value);
/* A derived figure for people: `digits` significant digits are plenty. */
void json_put_rounded(json_writer *w, const char *key, double value, int digits);
void json_finish(json_writer *w);              /* the final newline */

#endif
