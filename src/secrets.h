/*
 * secrets.h: the passwords this process was given, and the one way text is masked before it
 * leaves the process (log lines, result files, pages): the value of a password option, the
 * password of a connection string ("dbname=sb password='x y'"), the password of a URI
 * ("postgresql://user:PASSWORD@host/db"), and any of those values met again in free text
 * (a server's or a library's message that echoes it).
 */
#ifndef SB_SECRETS_H
#define SB_SECRETS_H

#include <stdbool.h>
#include <stddef.h>

#define SECRET_MASK "*****"

/* Free text is searched only for noted values at least this long: a shorter one ("1", "ab")
   would mask innocent digits and words all over the report. Such a value is still masked
   where it stands as a password (an option, "password=", a URI). */
#define SECRET_MIN_SEARCHED 4

/* Is every value of this option a secret (its name mentions a password)? */
bool secret_option_name(const char *name);

/* An option was given `value` (NULL: none): remember the secrets in it, its whole value for a
   password option, the passwords of connection strings and URIs in any other. Called while
   the options are read, before any other thread starts; read-only afterwards. */
void secrets_note_option(const char *name, const char *value);
/* Forget every noted secret (tests). */
void secrets_forget(void);

/* `text` with every password replaced by SECRET_MASK, into `out` (cut to `len`). Returns out;
   NULL stays NULL. */
char *secrets_mask(const char *text, char *out, size_t len);
/* The same into memory of its own (free() it); NULL when out of memory or text is NULL. */
char *secrets_mask_dup(const char *text);
/* An option's value as it may be shown anywhere: SECRET_MASK for a password option (an empty
   one stays empty), the masked text otherwise. Allocated; NULL when out of memory or when
   value is NULL. */
char *secrets_option_value_dup(const char *name, const char *value);
/* "--name=value" (or any other argument) as it may be shown. Allocated. */
char *secrets_argument_dup(const char *arg);

#endif
