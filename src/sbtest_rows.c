/*
 * sbtest_rows.c: sbtest rows from (seed, table, id) and their text forms (see sbtest_rows.h).
 * A row is drawn from a stream of its own, so the strings and k come from the same rand_*
 * code (templates, --rand-type) as everything else, whoever loads it.
 */
#include "sbtest_rows.h"

#include <string.h>

#include "rand.h"

static bool template_loadable(const char *template, size_t *len, const char **why)
{
  *len = strlen(template);
  if (*len > SBTEST_STRING_MAX) {
    *why = "a row template is longer than 255 characters";
    return false;
  }
  for (size_t i = 0; i < *len; i++) {
    unsigned char ch = (unsigned char) template[i];
    if (ch < 0x20 || ch == 0x7f || ch == '\'' || ch == '\\') {
      *why = "a row template holds a quote, a backslash or a control character";
      return false;
    }
  }
  return true;
}

bool sbtest_rows_init(sbtest_rows *rows, uint64_t seed, uint32_t table, uint64_t table_size,
                      const char *c_template, const char *pad_template, const char **why)
{
  const char *unused;
  if (why == NULL)
    why = &unused;
  *rows = (sbtest_rows) {
    .seed = seed,
    .table = table,
    .table_size = table_size,
    .c_template = c_template,
    .pad_template = pad_template,
  };
  return template_loadable(c_template, &rows->c_len, why) &&
         template_loadable(pad_template, &rows->pad_len, why);
}

void sbtest_row_make(const sbtest_rows *rows, int64_t id, sbtest_row *row)
{
  rand_state stream;

  rand_state_seed_row(&stream, rows->seed, rows->table, (uint64_t) id);
  rand_str(&stream, rows->c_template, row->c);
  rand_str(&stream, rows->pad_template, row->pad);
  row->k = (int64_t) rand_default64(&stream, 1, rows->table_size);
  row->id = id;
}

/* Decimal digits of v at out; returns the count. */
static size_t put_int(char *out, int64_t v)
{
  char tmp[24];
  size_t n = 0, len = 0;
  uint64_t u = v < 0 ? (uint64_t) -(v + 1) + 1 : (uint64_t) v;

  if (v < 0)
    out[len++] = '-';
  do {
    tmp[n++] = (char) ('0' + u % 10);
    u /= 10;
  } while (u != 0);
  while (n > 0)
    out[len++] = tmp[--n];
  return len;
}

size_t sbtest_row_tsv(const sbtest_rows *rows, const sbtest_row *row, char *out)
{
  size_t n = put_int(out, row->id);
  out[n++] = '\t';
  n += put_int(out + n, row->k);
  out[n++] = '\t';
  memcpy(out + n, row->c, rows->c_len);
  n += rows->c_len;
  out[n++] = '\t';
  memcpy(out + n, row->pad, rows->pad_len);
  n += rows->pad_len;
  out[n++] = '\n';
  return n;
}

size_t sbtest_row_values(const sbtest_rows *rows, const sbtest_row *row, char *out)
{
  size_t n = 0;
  out[n++] = '(';
  n += put_int(out + n, row->id);
  out[n++] = ',';
  n += put_int(out + n, row->k);
  out[n++] = ',';
  out[n++] = '\'';
  memcpy(out + n, row->c, rows->c_len);
  n += rows->c_len;
  out[n++] = '\'';
  out[n++] = ',';
  out[n++] = '\'';
  memcpy(out + n, row->pad, rows->pad_len);
  n += rows->pad_len;
  out[n++] = '\'';
  out[n++] = ')';
  return n;
}
