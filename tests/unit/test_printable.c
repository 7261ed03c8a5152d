/*
 * test_printable.c: unit tests for src/printable.{h,c}: plain text and UTF-8 letters are
 * echoed unchanged (the same pointer), control bytes, C1 controls and malformed UTF-8 become
 * \xNN, and long escaped text is cut to the buffer with "...".
 */
#include "printable.h"
#include "tap.h"

#include <string.h>

static char buf[64];

static int shown_as(const char *text, const char *want)
{
  const char *got = printable(text, buf, sizeof(buf));
  if (strcmp(got, want) == 0)
    return 1;
  printf("#   got '%s', expected '%s'\n", got, want);
  return 0;
}

int main(void)
{
  const char *plain = "threads=8, 'quoted' \"x\" \\x1b";
  ok(printable(plain, buf, sizeof(buf)) == plain, "plain text is returned as it is");
  const char *letters = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
  ok(printable(letters, buf, sizeof(buf)) == letters, "UTF-8 letters, signs and emoji pass");
  ok(printable(NULL, buf, sizeof(buf)) == NULL, "NULL stays NULL");

  ok(shown_as("a\x1b[2Jb", "a\\x1b[2Jb"), "ESC (a terminal escape) is shown as \\x1b");
  ok(shown_as("one\ntwo\r", "one\\x0atwo\\x0d"), "newline and carriage return are escaped");
  ok(shown_as("\x01\t\x7f", "\\x01\\x09\\x7f"), "other C0 controls, tab and DEL are escaped");
  ok(shown_as("\xc2\x9b" "1m", "\\xc2\\x9b1m"), "a C1 control in UTF-8 (U+009B, CSI) is escaped");
  ok(shown_as("\x9b" "1m", "\\x9b1m"), "a lone 8-bit CSI byte is escaped");
  ok(shown_as("\xc3(", "\\xc3("), "a truncated UTF-8 sequence is escaped byte by byte");
  ok(shown_as("\xc0\xaf", "\\xc0\\xaf"), "an overlong encoding is escaped");
  ok(shown_as("\xed\xa0\x80", "\\xed\\xa0\\x80"), "a UTF-16 surrogate is escaped");
  ok(shown_as("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"),
     "a code point above U+10FFFF is escaped");

  const char *lines = "line one\n\tline two";
  ok(printable_message(lines, buf, sizeof(buf)) == lines,
     "printable_message keeps the newlines and tabs of a message");
  const char *got = printable_message("a\x1b[2J\nb\r", buf, sizeof(buf));
  ok(strcmp(got, "a\\x1b[2J\nb\\x0d") == 0, "... and escapes the other controls");

  char long_text[200];
  memset(long_text, '\x1b', sizeof(long_text) - 1);
  long_text[sizeof(long_text) - 1] = '\0';
  const char *cut = printable(long_text, buf, sizeof(buf));
  ok(strlen(cut) < sizeof(buf) && strcmp(cut + strlen(cut) - 3, "...") == 0 &&
     strncmp(cut, "\\x1b\\x1b", 8) == 0, "escaped text longer than the buffer ends in '...'");
  return tap_done();
}
