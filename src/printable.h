/*
 * printable.h: text the user gave (option names and values, file names, config-file lines)
 * made safe to echo in a message. Control bytes and bytes that are not UTF-8 are written as
 * \xNN, so a value cannot move the cursor, recolour or clear the terminal it is reported on,
 * nor split a one-line message.
 */
#ifndef SB_PRINTABLE_H
#define SB_PRINTABLE_H

#include <stddef.h>

/* Room for a value shown in a message (longer ones are cut, ending in "..."). */
#define PRINTABLE_MAX 1024

/*
 * `text` itself when nothing in it needs escaping (the usual case, so messages stay 1.0.20's
 * byte for byte); else the escaped text in `buf` (len >= 8), cut to fit and then ending in
 * "...". NULL stays NULL.
 */
const char *printable(const char *text, char *buf, size_t len);

/* As printable(), but newlines and tabs stay: for a whole message of several lines (the
   logger's), where they are layout, not data. */
const char *printable_message(const char *text, char *buf, size_t len);

#endif
