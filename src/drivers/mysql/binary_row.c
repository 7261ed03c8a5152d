/*
 * binary_row.c: a row of the wire path's result (wire.c keeps the rows as the server sent
 * them, in the binary protocol) as the text a script gets from fetch_row: what the text
 * protocol would have sent for the same values. Numbers and dates are formatted into a
 * buffer the connection keeps; strings, decimals and blobs are pointed at in place.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/mysql/binary_row.h"
#include "drivers/mysql/packet.h"
#include "drivers/mysql/state.h"

#define TEXT_BUFFER_START 256

/* Room for `more` bytes of text after `used`; the text buffer may move. */
static int text_room(mysqldrv_wire *w, size_t used, size_t more)
{
  size_t need = used + more;
  if (need <= w->text_cap)
    return 0;
  size_t grown = w->text_cap ? w->text_cap : TEXT_BUFFER_START;
  while (grown < need)
    grown *= 2;
  char *p = realloc(w->text, grown);
  if (p == NULL)
    return -1;
  w->text = p;
  w->text_cap = grown;
  return 0;
}

/* A float or double as the server writes it in text (MariaDB's my_gcvt): the column's fixed
   decimals, or the fewest significant digits that read back the same value (6 at most for a
   float), in plain notation for moderate exponents, else as "1.5e-16" / "1e20". */
static int format_double(char *out, size_t size, double v, unsigned decimals, bool single)
{
  if (decimals < 31)
    return snprintf(out, size, "%.*f", (int) decimals, v);
  if (v == 0 || v != v || v - v != 0)
    return snprintf(out, size, "%g", v);

  char sci[40], digits[24];
  int precision = 1, max = single ? 6 : 17;
  for (; precision < max; precision++) {
    snprintf(sci, sizeof(sci), "%.*e", precision - 1, v);
    double back = strtod(sci, NULL);
    if (single ? (float) back == (float) v : back == v)
      break;
  }
  snprintf(sci, sizeof(sci), "%.*e", precision - 1, v);
  /* sci is "[-]d.ddde[+-]XX": its digits without the point, trailing zeros dropped */
  const char *m = sci + (sci[0] == '-');
  int len = 0;
  for (const char *c = m; *c != 'e'; c++)
    if (*c != '.')
      digits[len++] = *c;
  while (len > 1 && digits[len - 1] == '0')
    len--;
  digits[len] = '\0';
  int decpt = atoi(strchr(sci, 'e') + 1) + 1;

  /* MariaDB formats with a width far beyond these digits: plain notation unless the
     exponent is below -15 or the digits would need zeros past the 15th place */
  bool plain = decpt >= -14 && (decpt <= 15 || len > decpt);

  /* at most 17 digits and 22 or so places: sci's 40 bytes would do; out is larger */
  char *o = out;
  if (v < 0)
    *o++ = '-';
  if (plain) {
    if (decpt <= 0) {
      *o++ = '0';
      *o++ = '.';
      for (int i = 0; i < -decpt; i++)
        *o++ = '0';
      o += sprintf(o, "%s", digits);
    } else if (decpt < len) {
      o += sprintf(o, "%.*s.%s", decpt, digits, digits + decpt);
    } else {
      o += sprintf(o, "%s", digits);
      for (int i = len; i < decpt; i++)
        *o++ = '0';
    }
    *o = '\0';
  } else {
    o += sprintf(o, "%c%s%se%d", digits[0], len > 1 ? "." : "", digits + 1, decpt - 1);
  }
  (void) size;
  return (int) (o - out);
}

/* The ".ffffff" of a DATETIME / TIME with `decimals` fractional digits (0: nothing), as the
   text protocol would send it; returns the characters written. */
static int format_fraction(char *out, size_t size, unsigned decimals, uint32_t microseconds)
{
  if (decimals == 0 || decimals > 6)
    return 0;
  for (unsigned i = decimals; i < 6; i++)
    microseconds /= 10;
  return snprintf(out, size, ".%0*u", (int) decimals, (unsigned) microseconds);
}

/* One binary value at *p (advanced) as text: either a pointer into the row (strings) or text
   appended to w->text at *used. Returns false when the row is malformed. */
static bool decode_value(mysqldrv_wire *w, const mysqldrv_column *col, const unsigned char **p,
                         const unsigned char *end, db_value_t *value, size_t *text_at,
                         size_t *used)
{
  const unsigned char *q = *p;
  char tmp[80];
  int n = -1;
  bool is_unsigned = col->flags & UNSIGNED_FLAG;

  switch (col->type) {
    case MYSQL_TYPE_TINY:
      if (q + 1 > end) return false;
      n = is_unsigned ? snprintf(tmp, sizeof(tmp), "%u", q[0])
                      : snprintf(tmp, sizeof(tmp), "%d", (int8_t) q[0]);
      q += 1;
      break;
    case MYSQL_TYPE_SHORT:
    case MYSQL_TYPE_YEAR:
      if (q + 2 > end) return false;
      n = is_unsigned || col->type == MYSQL_TYPE_YEAR
              ? snprintf(tmp, sizeof(tmp), col->type == MYSQL_TYPE_YEAR ? "%04u" : "%u",
                         mysqldrv_get2(q))
              : snprintf(tmp, sizeof(tmp), "%d", (int16_t) mysqldrv_get2(q));
      q += 2;
      break;
    case MYSQL_TYPE_LONG:
    case MYSQL_TYPE_INT24:
      if (q + 4 > end) return false;
      n = is_unsigned ? snprintf(tmp, sizeof(tmp), "%" PRIu32, mysqldrv_get4(q))
                      : snprintf(tmp, sizeof(tmp), "%" PRId32, (int32_t) mysqldrv_get4(q));
      q += 4;
      break;
    case MYSQL_TYPE_LONGLONG:
      if (q + 8 > end) return false;
      n = is_unsigned ? snprintf(tmp, sizeof(tmp), "%" PRIu64, mysqldrv_get8(q))
                      : snprintf(tmp, sizeof(tmp), "%" PRId64, (int64_t) mysqldrv_get8(q));
      q += 8;
      break;
    case MYSQL_TYPE_FLOAT: {
      if (q + 4 > end) return false;
      float f;
      memcpy(&f, q, 4);
      n = format_double(tmp, sizeof(tmp), f, col->decimals, true);
      q += 4;
      break;
    }
    case MYSQL_TYPE_DOUBLE: {
      if (q + 8 > end) return false;
      double d;
      memcpy(&d, q, 8);
      n = format_double(tmp, sizeof(tmp), d, col->decimals, false);
      q += 8;
      break;
    }
    case MYSQL_TYPE_DATE:
    case MYSQL_TYPE_DATETIME:
    case MYSQL_TYPE_TIMESTAMP:
    case MYSQL_TYPE_NEWDATE: {
      if (q >= end || q + 1 + q[0] > end) return false;
      unsigned len = q[0];
      const unsigned char *t = q + 1;
      unsigned year = len >= 4 ? mysqldrv_get2(t) : 0, mon = len >= 4 ? t[2] : 0,
               day = len >= 4 ? t[3] : 0;
      unsigned h = len >= 7 ? t[4] : 0, mi = len >= 7 ? t[5] : 0, sec = len >= 7 ? t[6] : 0;
      uint32_t us = len >= 11 ? mysqldrv_get4(t + 7) : 0;
      if (col->type == MYSQL_TYPE_DATE || col->type == MYSQL_TYPE_NEWDATE) {
        n = snprintf(tmp, sizeof(tmp), "%04u-%02u-%02u", year, mon, day);
      } else {
        n = snprintf(tmp, sizeof(tmp), "%04u-%02u-%02u %02u:%02u:%02u", year, mon, day, h, mi,
                     sec);
        n += format_fraction(tmp + n, sizeof(tmp) - (size_t) n, col->decimals, us);
      }
      q += 1 + len;
      break;
    }
    case MYSQL_TYPE_TIME: {
      if (q >= end || q + 1 + q[0] > end) return false;
      unsigned len = q[0];
      const unsigned char *t = q + 1;
      bool negative = len >= 8 && t[0];
      uint64_t hours = len >= 8 ? (uint64_t) mysqldrv_get4(t + 1) * 24 + t[5] : 0;
      unsigned mi = len >= 8 ? t[6] : 0, sec = len >= 8 ? t[7] : 0;
      uint32_t us = len >= 12 ? mysqldrv_get4(t + 8) : 0;
      n = snprintf(tmp, sizeof(tmp), "%s%02" PRIu64 ":%02u:%02u", negative ? "-" : "", hours,
                   mi, sec);
      n += format_fraction(tmp + n, sizeof(tmp) - (size_t) n, col->decimals, us);
      q += 1 + len;
      break;
    }
    default: {                                 /* strings, decimals, blobs, bits, json ... */
      uint64_t len;
      if (!mysqldrv_get_lenenc(&q, end, &len) || len > (uint64_t) (end - q))
        return false;
      value->ptr = (const char *) q;
      value->len = (uint32_t) len;
      *p = q + len;
      return true;
    }
  }
  if (n < 0)
    return false;
  /* ZEROFILL pads integers to the display width, as the text protocol does */
  size_t pad = (col->flags & ZEROFILL_FLAG) && col->type != MYSQL_TYPE_FLOAT &&
               col->type != MYSQL_TYPE_DOUBLE && col->length > (uint32_t) n
                   ? col->length - (uint32_t) n : 0;
  if (text_room(w, *used, pad + (size_t) n) != 0)
    return false;
  memset(w->text + *used, '0', pad);
  memcpy(w->text + *used + pad, tmp, (size_t) n);
  *text_at = *used;
  value->ptr = NULL;                           /* set once the text buffer stops moving */
  value->len = (uint32_t) (pad + (size_t) n);
  *used += pad + (size_t) n;
  *p = q;
  return true;
}

int mysqldrv_binary_row_fetch(db_result *rs, db_row_t *row)
{
  db_conn *con = rs->connection;
  mysqldrv_conn *c = con->ptr;
  mysqldrv_stmt *s = rs->statement->ptr;
  mysqldrv_wire *w = &c->wire;

  if (w->row_next >= w->row_count)
    return 1;
  size_t off = w->rows[w->row_next * 2], len = w->rows[w->row_next * 2 + 1];
  w->row_next++;

  uint32_t columns = rs->nfields < s->column_count ? rs->nfields : s->column_count;
  const unsigned char *p = w->in + off, *end = p + len;
  size_t bitmap = (columns + 7 + 2) / 8, used = 0;
  if (len < 1 + bitmap)
    return -1;
  const unsigned char *nulls = p + 1;
  p += 1 + bitmap;

  /* where each formatted value starts in w->text, for once the buffer stops moving */
  size_t text_at[64], *at = text_at;
  if (columns > 64 && (at = malloc(columns * sizeof(size_t))) == NULL)
    return -1;
  int rc = 0;
  for (uint32_t i = 0; i < columns && rc == 0; i++) {
    db_value_t *v = &row->values[i];
    at[i] = SIZE_MAX;
    if (nulls[(i + 2) / 8] & (1u << ((i + 2) % 8)) || s->columns[i].type == MYSQL_TYPE_NULL) {
      v->ptr = NULL;
      v->len = 0;
    } else if (!decode_value(w, &s->columns[i], &p, end, v, &at[i], &used)) {
      rc = -1;
    }
  }
  for (uint32_t i = 0; i < columns && rc == 0; i++)
    if (at[i] != SIZE_MAX)
      row->values[i].ptr = w->text + at[i];
  for (uint32_t i = columns; i < rs->nfields; i++) {
    row->values[i].ptr = NULL;
    row->values[i].len = 0;
  }
  if (at != text_at)
    free(at);
  return rc;
}
