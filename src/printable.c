/*
 * printable.c: escaping of user-given text for messages (see printable.h). UTF-8 letters pass
 * unchanged; C0 controls, DEL, the C1 controls U+0080..U+009F (which some terminals obey) and
 * every byte that is not part of a well-formed UTF-8 sequence become \xNN.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "printable.h"

/* Bytes of the printable character at s: 1 for printable ASCII (and, with keep_layout,
   newline and tab), 2-4 for a well-formed UTF-8 sequence that is not a C1 control; 0 when
   the byte at s must be escaped. */
static size_t printable_length(const unsigned char *s, bool keep_layout)
{
  static const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};   /* no overlong forms */
  size_t n;
  uint32_t code;

  if (s[0] < 0x80)
    return (s[0] >= 0x20 && s[0] != 0x7f) || (keep_layout && (s[0] == '\n' || s[0] == '\t'));
  if (s[0] >= 0xc2 && s[0] <= 0xdf)
    n = 2, code = s[0] & 0x1f;
  else if (s[0] >= 0xe0 && s[0] <= 0xef)
    n = 3, code = s[0] & 0x0f;
  else if (s[0] >= 0xf0 && s[0] <= 0xf4)
    n = 4, code = s[0] & 0x07;
  else
    return 0;
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80)           /* also stops at the terminating NUL */
      return 0;
    code = (code << 6) | (s[i] & 0x3f);
  }
  if (code < smallest[n] || code <= 0x9f || (code >= 0xd800 && code <= 0xdfff) ||
      code > 0x10ffff)
    return 0;
  return n;
}

static bool all_printable(const unsigned char *s, bool keep_layout)
{
  while (*s != '\0') {
    size_t n = printable_length(s, keep_layout);
    if (n == 0)
      return false;
    s += n;
  }
  return true;
}

static const char *escape(const char *text, char *buf, size_t len, bool keep_layout)
{
  const unsigned char *s = (const unsigned char *) text;
  size_t used = 0;

  assert(len >= 8);
  if (text == NULL || all_printable(s, keep_layout))
    return text;
  while (*s != '\0') {
    size_t n = printable_length(s, keep_layout);
    size_t width = n > 0 ? n : 4;        /* "\xNN" */
    if (used + width + sizeof("...") > len) {
      memcpy(buf + used, "...", sizeof("..."));
      return buf;
    }
    if (n > 0)
      memcpy(buf + used, s, n);
    else
      snprintf(buf + used, 5, "\\x%02x", *s);
    used += width;
    s += n > 0 ? n : 1;
  }
  buf[used] = '\0';
  return buf;
}

const char *printable(const char *text, char *buf, size_t len)
{
  return escape(text, buf, len, false);
}

const char *printable_message(const char *text, char *buf, size_t len)
{
  return escape(text, buf, len, true);
}
