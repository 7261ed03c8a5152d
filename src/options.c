/*
 * options.c: option registry with typed values checked at the moment they are set.
 *
 * An option is known by its canonical name (dashes turned into underscores, as sysbench.opt
 * shows it). Its value is kept both as the text the user gave (for help, Lua export and
 * re-typing when a script declares an option late) and as the parsed value of its type.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "logger.h"
#include "options.h"
#include "output_mode.h"
#include "printable.h"
#include "secrets.h"

struct sb_option {
  char *name;
  char *given_name;            /* spelling the user typed, for messages */
  char *desc;
  char *default_text;
  sb_arg_type_t type;
  sb_opt_validate_t *validate;
  option_decl rule;            /* ranged/min/max/choices/expect/compat_error (static strings) */

  char *text;                  /* current value as text; NULL = none */
  char **items;                /* LIST values */
  size_t item_count;
  union {
    bool flag;
    int64_t integer;
    uint64_t size;
    double number;
  } value;

  bool user_set;               /* given on the command line or in a config file */
  bool unparsable;             /* a size that is not one, left for check_one to report with
                                  1.0.20's line for the option (which reads it as text) */
  bool pending;                /* given by the user, not declared by anyone yet */
  char *config_origin;         /* "config file 'F' line N" of a pending value; NULL: the
                                  command line */
};

static sb_option **registry;
static size_t registry_count;
static size_t registry_capacity;

/* '-' and '_' are the same character in option names. */
static bool name_equal(const char *a, const char *b)
{
  for (; *a != '\0' && *b != '\0'; a++, b++) {
    char ca = *a == '-' ? '_' : *a;
    char cb = *b == '-' ? '_' : *b;
    if (ca != cb)
      return false;
  }
  return *a == *b;
}

static char *canonical_name(const char *name)
{
  char *copy = strdup(name);
  for (char *p = copy; p != NULL && *p != '\0'; p++)
    if (*p == '-')
      *p = '_';
  return copy;
}

sb_option *options_find(const char *name)
{
  for (size_t i = 0; i < registry_count; i++)
    if (name_equal(registry[i]->name, name))
      return registry[i];
  return NULL;
}

static sb_option *registry_add(const char *name)
{
  if (registry_count == registry_capacity) {
    size_t capacity = registry_capacity ? registry_capacity * 2 : 64;
    sb_option **grown = realloc(registry, capacity * sizeof(*grown));
    if (grown == NULL)
      return NULL;
    registry = grown;
    registry_capacity = capacity;
  }
  sb_option *opt = calloc(1, sizeof(*opt));
  if (opt == NULL)
    return NULL;
  opt->name = canonical_name(name);
  opt->type = SB_ARG_TYPE_STRING;
  registry[registry_count++] = opt;
  return opt;
}

static void free_items(sb_option *opt)
{
  for (size_t i = 0; i < opt->item_count; i++)
    free(opt->items[i]);
  free(opt->items);
  opt->items = NULL;
  opt->item_count = 0;
}

bool parse_size(const char *text, uint64_t *out)
{
  const char *p = text;
  uint64_t n = 0;

  if (!isdigit((unsigned char) *p))
    return false;
  for (; isdigit((unsigned char) *p); p++) {
    uint64_t digit = (uint64_t) (*p - '0');
    if (n > (UINT64_MAX - digit) / 10)
      return false;
    n = n * 10 + digit;
  }
  if (*p != '\0') {
    const char *suffixes = "KMGT";
    const char *s = strchr(suffixes, toupper((unsigned char) *p));
    if (s == NULL || p[1] != '\0')
      return false;
    for (int shift = (int) (s - suffixes) + 1; shift > 0; shift--) {
      if (n > UINT64_MAX / 1024)
        return false;
      n *= 1024;
    }
  }
  *out = n;
  return true;
}

static bool parse_flag(const char *text, bool *out)
{
  static const char *const yes[] = {"on", "true", "1", "yes"};
  static const char *const no[] = {"off", "false", "0", "no"};

  if (text == NULL) {
    *out = true;
    return true;
  }
  for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
    if (strcasecmp(text, yes[i]) == 0) {
      *out = true;
      return true;
    }
    if (strcasecmp(text, no[i]) == 0) {
      *out = false;
      return true;
    }
  }
  return false;
}

static bool parse_int(const char *text, int64_t *out)
{
  char *end;
  errno = 0;
  long long n = strtoll(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE)
    return false;
  *out = n;
  return true;
}

static bool parse_double(const char *text, double *out)
{
  char *end;
  errno = 0;
  double d = strtod(text, &end);
  if (end == text || *end != '\0' || errno == ERANGE)
    return false;
  *out = d;
  return true;
}

/* Split a comma-separated list into newly allocated items (empty items dropped). */
static int split_list(const char *text, char ***items_out, size_t *count_out)
{
  char **items = NULL;
  size_t count = 0;

  *items_out = NULL;
  *count_out = 0;
  if (text == NULL || *text == '\0')
    return 0;

  char *copy = strdup(text);
  char *save = NULL;
  if (copy == NULL)
    return -1;
  for (char *tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
    char **grown = realloc(items, (count + 1) * sizeof(*grown));
    char *item = strdup(tok);
    if (grown != NULL)
      items = grown;
    if (grown == NULL || item == NULL) {
      free(item);
      for (size_t i = 0; i < count; i++)
        free(items[i]);
      free(items);
      free(copy);
      return -1;
    }
    items[count++] = item;
  }
  free(copy);
  *items_out = items;
  *count_out = count;
  return 0;
}

static const char *type_expectation(sb_arg_type_t type)
{
  switch (type) {
    case SB_ARG_TYPE_BOOL:   return "on|off, true|false or 1|0";
    case SB_ARG_TYPE_INT:    return "an integer";
    case SB_ARG_TYPE_SIZE:   return "a size: a whole number with an optional K, M, G or T suffix";
    case SB_ARG_TYPE_DOUBLE: return "a number";
    default:                 return "another value";
  }
}

/* An option name as the user types it: words joined by '-'. */
static const char *dashed(const char *name, char *buf, size_t len)
{
  size_t i = 0;
  for (; name[i] != '\0' && i + 1 < len; i++)
    buf[i] = name[i] == '_' ? '-' : name[i];
  buf[i] = '\0';
  return buf;
}

/* Within the declared range: min to max and, where smallest_nonzero is set, 0 or at least
   that (a NaN never is). */
static bool in_range(const option_decl *r, double v)
{
  if (v == 0 && r->smallest_nonzero > 0)
    return r->min <= 0;
  double low = r->smallest_nonzero > 0 ? r->smallest_nonzero : r->min;
  return v >= low && v <= r->max;
}

static void say_range(const option_decl *r, char *buf, size_t len)
{
  if (r->smallest_nonzero > 0 && r->max >= 1e18)
    snprintf(buf, len, "0, or %g or more", r->smallest_nonzero);
  else if (r->smallest_nonzero > 0)
    snprintf(buf, len, "0, or %g to %g", r->smallest_nonzero, r->max);
  else if (r->max >= 1e18)
    snprintf(buf, len, "%g or more", r->min);
  else
    snprintf(buf, len, "%g to %g", r->min, r->max);
}

/* What a ranged option accepts, in words. */
static const char *range_expectation(const option_decl *r, char *buf, size_t len)
{
  if (r->expect != NULL)
    return r->expect;
  say_range(r, buf, len);
  return buf;
}

/* Text 1.0.20 takes for an integer option: a whole number in C int range, or nothing. */
static bool is_c_int(const char *text)
{
  char *end;
  errno = 0;
  long n = strtol(text, &end, 10);
  return *text == '\0' ||
         (*end == '\0' && errno != ERANGE && n >= INT32_MIN && n <= INT32_MAX);
}

/* A number_list option's text: numbers of the option's type separated by single commas. The
   first one is stored in *first_int or *first_number, as the type says. */
static bool parse_number_list(sb_arg_type_t type, const char *text, int64_t *first_int,
                              double *first_number)
{
  const char *p = text;
  bool first_seen = false;

  for (;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t) (comma - p) : strlen(p);
    char item[64];
    int64_t i;
    double d;

    if (len == 0 || len >= sizeof(item))
      return false;
    memcpy(item, p, len);
    item[len] = '\0';
    if (type == SB_ARG_TYPE_INT ? !parse_int(item, &i) : !parse_double(item, &d))
      return false;
    if (!first_seen) {
      if (type == SB_ARG_TYPE_INT)
        *first_int = i;
      else
        *first_number = d;
      first_seen = true;
    }
    if (comma == NULL)
      return true;
    p = comma + 1;
  }
}

/* 1.0.20's line for a value its option parser refuses ("Invalid value for the 'name' option:
   'value'", the name as sysbench.opt spells it), then our HINT unless expect is NULL. */
static void generic_invalid_text(char *buf, size_t len, const char *name, const char *value,
                                 const char *expect)
{
  char line[256];

  snprintf(line, sizeof(line), "Invalid value for the '%s' option: '%%s'", name);
  option_invalid_text(buf, len, name, value, line, expect);
}

void option_flag_rejected_text(char *buf, size_t len, const char *as_typed, const char *value)
{
  char shown_name[PRINTABLE_MAX], shown[PRINTABLE_MAX];

  as_typed = printable(as_typed, shown_name, sizeof(shown_name));
  int used = snprintf(buf, len, "invalid option: --%s=%s", as_typed,
                      printable(value ? value : "", shown, sizeof(shown)));
  if (!output_exact() && used >= 0 && (size_t) used < len)
    snprintf(buf + used, len - used, "\nHINT: --%s is on or off: give on|off, true|false or 1|0",
             as_typed);
}

/* Parse `text` as the option's type into the option. A rejected value leaves the option as
   it was. */
static int apply_value(sb_option *opt, const char *text, char *err, size_t errlen)
{
  char dash[128];
  bool ok = true;
  bool empty = text == NULL || *text == '\0';
  char **items = NULL;
  size_t item_count = 0;
  __typeof__(opt->value) value = { 0 };
  bool is_list = opt->rule.number_list && text != NULL && strchr(text, ',') != NULL;

  errno = 0;                           /* ERANGE below: a number out of its type's range */
  if (is_list) {
    ok = parse_number_list(opt->type, text, &value.integer, &value.number);
    if (!ok) {
      char expect[256];
      snprintf(expect, sizeof(expect), "%s, or a list of them separated by commas",
               type_expectation(opt->type));
      generic_invalid_text(err, errlen, opt->name, text, expect);
      return -1;
    }
  } else switch (opt->type) {
    case SB_ARG_TYPE_BOOL:
      ok = parse_flag(text, &value.flag);
      if (ok)
        text = value.flag ? "on" : "off";
      break;
    case SB_ARG_TYPE_INT:
      ok = empty || parse_int(text, &value.integer);
      break;
    case SB_ARG_TYPE_SIZE:
      ok = empty || parse_size(text, &value.size);
      break;
    case SB_ARG_TYPE_DOUBLE:
      ok = empty || parse_double(text, &value.number);
      break;
    default:
      break;
  }

  /* A number too large or too small for its type is out of range, not a typo: the hint says
     the range. */
  bool out_of_range = !ok && errno == ERANGE && opt->rule.ranged;
  /* 1.0.20 read some of our number options as a C int and refused any other text (1e11,
     nan, 2.5) with its line for a bad value. Where we refuse the value too, that is the
     line, at the same moment (while parsing). */
  if (ok && !empty && !is_list && opt->rule.compat_integer && opt->rule.ranged &&
      !is_c_int(text)) {
    double v = opt->type == SB_ARG_TYPE_INT ? (double) value.integer : value.number;
    out_of_range = !in_range(&opt->rule, v);
    ok = !out_of_range;
  }

  /* 1.0.20 does not parse sizes strictly; where it has its own line for the option, that
     line reports the text, from the check that follows parsing. */
  bool unparsable = !ok && opt->type == SB_ARG_TYPE_SIZE && opt->rule.compat_error != NULL;
  if (unparsable)
    ok = true;
  if (!ok && opt->type == SB_ARG_TYPE_BOOL) {
    /* 1.0.20 echoes the argument as typed; a value set by the program reads as --help shows */
    option_flag_rejected_text(err, errlen, opt->given_name ? opt->given_name
                                           : dashed(opt->name, dash, sizeof(dash)), text);
    return -1;
  }
  if (!ok) {
    char range[512];
    generic_invalid_text(err, errlen, opt->name, text,
                         out_of_range ? range_expectation(&opt->rule, range, sizeof(range))
                                      : type_expectation(opt->type));
    return -1;
  }
  if (opt->validate != NULL && !opt->validate(opt->name, text)) {
    generic_invalid_text(err, errlen, opt->name, text, NULL);   /* the script says no more */
    return -1;
  }

  char *copy = text ? strdup(text) : NULL;
  if ((text != NULL && copy == NULL) ||
      ((opt->type == SB_ARG_TYPE_LIST || opt->rule.number_list) &&
       split_list(text, &items, &item_count) != 0)) {
    free(copy);
    snprintf(err, errlen, "out of memory while setting --%s", opt->name);
    return -1;
  }
  if (opt->type == SB_ARG_TYPE_LIST || opt->rule.number_list) {
    free_items(opt);
    opt->items = items;
    opt->item_count = item_count;
  }
  opt->value = value;
  opt->unparsable = unparsable;
  free(opt->text);
  opt->text = copy;
  return 0;
}

int option_set(sb_option *opt, const char *value, char *err, size_t errlen)
{
  /* A bare --name means "on" for flags; for other types it is an empty value. */
  if (value == NULL && opt->type != SB_ARG_TYPE_BOOL)
    value = "";
  if (apply_value(opt, value, err, errlen) != 0)
    return -1;
  opt->user_set = true;
  secrets_note_option(opt->name, value);
  return 0;
}

int option_copy_given(const char *to, const char *from)
{
  char err[512];
  sb_option *dst = options_find(to), *src = options_find(from);

  if (dst == NULL || src == NULL)
    return -1;
  if (option_set(dst, src->text, err, sizeof(err)) != 0) {
    fprintf(stderr, "%s\n", err);
    return -1;
  }
  return 0;
}


static int register_one(const option_decl *d, sb_opt_validate_t *validate, char *err,
                        size_t errlen)
{
  sb_option *opt = options_find(d->name);
  bool keep_user_value = false;

  if (opt == NULL)
    opt = registry_add(d->name);
  else
    keep_user_value = opt->user_set;
  if (opt == NULL) {
    snprintf(err, errlen, "out of memory while registering --%s", d->name);
    return -1;
  }

  free(opt->desc);
  free(opt->default_text);
  opt->desc = d->desc ? strdup(d->desc) : NULL;
  opt->default_text = d->default_text ? strdup(d->default_text) : NULL;
  opt->type = d->type == SB_ARG_TYPE_NULL ? SB_ARG_TYPE_STRING : d->type;
  opt->validate = validate;
  opt->rule = *d;
  opt->rule.name = opt->rule.desc = opt->rule.default_text = NULL;   /* owned above */
  opt->pending = false;

  if (keep_user_value) {
    char *given = opt->text ? strdup(opt->text) : NULL;
    int rc = apply_value(opt, given, err, errlen);
    free(given);
    return rc;
  }
  /* A default is the declarer's own text; the declarer's validate hook does not judge it. */
  opt->validate = NULL;
  int rc = apply_value(opt, d->default_text, err, errlen);
  opt->validate = validate;
  return rc;
}

int options_declare(const option_decl *decls, char *err, size_t errlen)
{
  for (const option_decl *d = decls; d->name != NULL; d++)
    if (register_one(d, d->validate, err, errlen) != 0)
      return -1;
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Checks beyond the type                                                                     */
/* ------------------------------------------------------------------------------------------ */

static void say_choices(const option_decl *r, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (const char *const *c = r->choices; *c != NULL && used < len; c++) {
    const char *sep = c == r->choices ? "" : c[1] == NULL ? " or " : ", ";
    used += (size_t) snprintf(buf + used, len - used, "%s%s", sep, **c ? *c : "''");
  }
}

void option_invalid_text(char *buf, size_t len, const char *name, const char *value,
                         const char *compat_error, const char *expect)
{
  char dash[128], shown[PRINTABLE_MAX];
  size_t used = 0;

  dashed(name, dash, sizeof(dash));
  value = printable(value != NULL ? value : "", shown, sizeof(shown));
  buf[0] = '\0';
  if (compat_error == NULL) {
    /* an empty value would not show at all */
    snprintf(buf, len, "FATAL: Invalid value for --%s: %s (expected %s)", dash,
             *value != '\0' ? value : "''", expect != NULL ? expect : "another value");
    return;
  }
  /* The template's value slot is its last "%s" (or "%f"): text, not a format, so a '%' in a
     name before it stays as it is. */
  const char *slot = NULL;
  for (const char *p = compat_error; (p = strchr(p, '%')) != NULL; p++)
    if (p[1] == 's' || p[1] == 'f')
      slot = p;
  if (slot == NULL)
    used = (size_t) snprintf(buf, len, "%s", compat_error);
  else
    used = (size_t) snprintf(buf, len, "%.*s%s%s", (int) (slot - compat_error), compat_error,
                             value, slot + 2);
  if (expect != NULL && used < len && !output_exact())
    snprintf(buf + used, len - used, "\nHINT: --%s expects %s", dash, expect);
}

void option_report_invalid(const char *name, const char *value, const char *compat_error,
                           const char *expect)
{
  char text[2 * PRINTABLE_MAX + 1024];

  option_invalid_text(text, sizeof(text), name, value, compat_error, expect);
  /* After whatever the logger holds back ("last message repeated"), and it must not fold
     the line it printed before this one with the one after. */
  log_flush();
  fflush(stderr);
  printf("%s\n", text);
  fflush(stdout);
}

static bool is_choice(const option_decl *r, const char *text)
{
  for (const char *const *c = r->choices; c != NULL && *c != NULL; c++)
    if (r->any_case ? strcasecmp(text, *c) == 0 : strcmp(text, *c) == 0)
      return true;
  return false;
}

/* Every item of a list: one of the choices, one item_ok passes, or a whole number in range. */
static int check_list(const sb_option *opt)
{
  const option_decl *r = &opt->rule;

  for (size_t i = 0; i < opt->item_count; i++) {
    const char *item = opt->items[i];
    if (is_choice(r, item) || (r->item_ok != NULL && r->item_ok(item)))
      continue;
    if (r->ranged) {
      int64_t n;
      if (parse_int(item, &n) && (double) n >= r->min && (double) n <= r->max)
        continue;
    }
    char expect[512], range[128];
    if (r->expect != NULL) {
      snprintf(expect, sizeof(expect), "%s", r->expect);
    } else {
      say_range(r, range, sizeof(range));
      snprintf(expect, sizeof(expect), "a list of numbers from %s", range);
    }
    option_report_invalid(opt->name, item, r->compat_error, expect);
    return -1;
  }
  return 0;
}

/* 0 when the option's value satisfies its declaration; else reports and returns -1. */
static int check_one(const sb_option *opt)
{
  const option_decl *r = &opt->rule;
  char value[256], expect[512];
  bool ok = true;

  if (opt->unparsable) {
    if (r->ranged)
      say_range(r, expect, sizeof(expect));
    option_report_invalid(opt->name, opt->text ? opt->text : "", r->compat_error,
                          r->expect ? r->expect : r->ranged ? expect
                                    : type_expectation(opt->type));
    return -1;
  }
  if (opt->type == SB_ARG_TYPE_LIST && (r->ranged || r->choices != NULL || r->item_ok != NULL))
    return check_list(opt);
  if (r->ranged) {
    double v;
    switch (opt->type) {
      case SB_ARG_TYPE_INT:
        v = (double) opt->value.integer;
        snprintf(value, sizeof(value), "%lld", (long long) opt->value.integer);
        break;
      case SB_ARG_TYPE_SIZE:
        v = (double) opt->value.size;
        snprintf(value, sizeof(value), "%llu", (unsigned long long) opt->value.size);
        break;
      case SB_ARG_TYPE_DOUBLE:
        /* as typed (1e12, not 1e+12), or as 1.0.20's line printed it (%f) */
        v = opt->value.number;
        if (r->compat_error != NULL && strstr(r->compat_error, "%f") != NULL)
          snprintf(value, sizeof(value), "%f", v);
        else
          snprintf(value, sizeof(value), "%s",
                   opt->item_count > 0 ? opt->items[0] : opt->text ? opt->text : "");
        break;
      default:
        return 0;
    }
    ok = in_range(r, v);
    /* Every number of a list, the first one reported as above, a later one as given. */
    for (size_t i = 1; ok && r->number_list && i < opt->item_count; i++) {
      v = strtod(opt->items[i], NULL);
      ok = in_range(r, v);
      if (!ok)
        snprintf(value, sizeof(value), "%s", opt->items[i]);
    }
    say_range(r, expect, sizeof(expect));
    /* What a range cannot say (a power of two), on the text as the user gave it. */
    if (ok && r->item_ok != NULL && !r->item_ok(opt->text != NULL ? opt->text : "")) {
      ok = false;
      snprintf(value, sizeof(value), "%s", opt->text != NULL ? opt->text : "");
    }
  } else if (r->choices != NULL) {
    const char *text = opt->text ? opt->text : "";
    ok = is_choice(r, text);
    snprintf(value, sizeof(value), "%s", text);
    say_choices(r, expect, sizeof(expect));
  } else if (r->item_ok != NULL) {
    const char *text = opt->text ? opt->text : "";
    ok = r->item_ok(text);
    snprintf(value, sizeof(value), "%s", text);
    snprintf(expect, sizeof(expect), "%s", r->expect ? r->expect : "another value");
  } else {
    return 0;
  }
  if (ok)
    return 0;
  option_report_invalid(opt->name, value, r->compat_error, r->expect ? r->expect : expect);
  return -1;
}

int options_check_given(void)
{
  for (size_t i = 0; i < registry_count; i++) {
    sb_option *opt = registry[i];
    if (opt->user_set && !opt->pending && !opt->rule.checked_on_read && check_one(opt) != 0)
      return -1;
  }
  return 0;
}

int (option_check)(const char *name)
{
  sb_option *opt = options_get(name);
  return opt->user_set ? check_one(opt) : 0;
}

sb_option *options_add_pending(const char *name, const char *value, const char *config_origin)
{
  sb_option *opt = options_find(name);
  if (opt == NULL)
    opt = registry_add(name);
  if (opt == NULL)
    return NULL;
  free(opt->text);
  free(opt->given_name);
  opt->text = value ? strdup(value) : NULL;
  opt->given_name = strdup(name);
  opt->user_set = true;
  opt->pending = true;
  free(opt->config_origin);
  opt->config_origin = config_origin != NULL ? strdup(config_origin) : NULL;
  secrets_note_option(name, value);
  return opt;
}

bool option_is_pending(const sb_option *opt)
{
  return opt->pending;
}

const char *option_config_origin(const sb_option *opt)
{
  return opt->config_origin;
}

void options_accept_pending(void)
{
  for (size_t i = 0; i < registry_count; i++)
    if (registry[i]->config_origin == NULL)
      registry[i]->pending = false;
}

/* ------------------------------------------------------------------------------------------ */

/* The option a reader names. A name nobody declared (or only the user gave) is a bug in the
   reader, caught here before it can read as 0; abort() so that the test suite, and a core
   file, show where. */
sb_option *options_get(const char *name)
{
  sb_option *opt = options_find(name);

  if (opt == NULL || opt->pending) {
    fflush(stdout);
    fprintf(stderr, "BUG: option '%s' is read but no component declares it\n", name);
    abort();
  }
  return opt;
}

bool option_given(const sb_option *opt)
{
  return opt->user_set;
}

/* The function names are in parentheses: options.h defines macros of the same names. */
bool (opt_bool)(const char *name)
{
  return option_flag(options_get(name));
}

int64_t (opt_int)(const char *name)
{
  return option_int(options_get(name));
}

uint64_t (opt_size)(const char *name)
{
  return option_size(options_get(name));
}

double (opt_double)(const char *name)
{
  return option_double(options_get(name));
}

const char *(opt_string)(const char *name)
{
  return options_get(name)->text;
}

const char *const *(opt_list)(const char *name, size_t *count)
{
  return option_list(options_get(name), count);
}

bool (opt_is_set)(const char *name)
{
  return options_get(name)->user_set;
}

size_t (opt_numbers)(const char *name, double *out, size_t max)
{
  sb_option *opt = options_get(name);
  size_t n = 0;

  if (opt->text == NULL || opt->text[0] == '\0')
    return 0;
  if (opt->item_count == 0) {        /* a single value, or an option without lists */
    if (max > 0)
      out[0] = option_double(opt);
    return 1;
  }
  for (size_t i = 0; i < opt->item_count; i++, n++)
    if (i < max)
      out[i] = strtod(opt->items[i], NULL);
  return n;
}

/* The linker's bounds of the names SB_OPTION_READ recorded; weak, so that a program without
   any read still links (both are then NULL). */
extern const char *const __start_sb_option_reads[] __attribute__((weak));
extern const char *const __stop_sb_option_reads[] __attribute__((weak));

static bool declared_in(const option_decl *decls, const char *name)
{
  for (const option_decl *d = decls; d->name != NULL; d++)
    if (name_equal(d->name, name))
      return true;
  return false;
}

const char *options_undeclared_read(const option_decl *const *more)
{
  for (const char *const *read = __start_sb_option_reads;
       read != NULL && read < __stop_sb_option_reads; read++) {
    const char *name = *read;
    if (name == NULL)                /* padding, should the linker align entries apart */
      continue;
    const sb_option *opt = options_find(name);
    bool found = opt != NULL && !opt->pending;
    for (const option_decl *const *t = more; !found && t != NULL && *t != NULL; t++)
      found = declared_in(*t, name);
    if (!found)
      return name;
  }
  return NULL;
}

size_t options_count(void)
{
  return registry_count;
}

sb_option *options_at(size_t index)
{
  return index < registry_count ? registry[index] : NULL;
}

const char *option_name(const sb_option *opt)
{
  return opt->name;
}

const char *option_given_name(const sb_option *opt)
{
  return opt->given_name ? opt->given_name : opt->name;
}

sb_arg_type_t option_type(const sb_option *opt)
{
  return opt->type;
}

const char *option_text(const sb_option *opt)
{
  return opt->text;
}

bool option_flag(const sb_option *opt)
{
  if (opt->type == SB_ARG_TYPE_BOOL)
    return opt->value.flag;
  bool flag = false;
  return opt->text != NULL && parse_flag(opt->text, &flag) && flag;
}

int64_t option_int(const sb_option *opt)
{
  switch (opt->type) {
    case SB_ARG_TYPE_INT:    return opt->value.integer;
    case SB_ARG_TYPE_SIZE:   return (int64_t) opt->value.size;
    case SB_ARG_TYPE_DOUBLE: return (int64_t) opt->value.number;
    case SB_ARG_TYPE_BOOL:   return opt->value.flag;
    default:                 return opt->text ? strtoll(opt->text, NULL, 10) : 0;
  }
}

uint64_t option_size(const sb_option *opt)
{
  uint64_t size = 0;
  if (opt->type == SB_ARG_TYPE_SIZE)
    return opt->value.size;
  if (opt->type == SB_ARG_TYPE_INT)
    return (uint64_t) opt->value.integer;
  return opt->text && parse_size(opt->text, &size) ? size : 0;
}

double option_double(const sb_option *opt)
{
  switch (opt->type) {
    case SB_ARG_TYPE_DOUBLE: return opt->value.number;
    case SB_ARG_TYPE_INT:    return (double) opt->value.integer;
    case SB_ARG_TYPE_SIZE:   return (double) opt->value.size;
    default:                 return opt->text ? strtod(opt->text, NULL) : 0;
  }
}

const char *const *option_list(const sb_option *opt, size_t *count)
{
  if (opt->type != SB_ARG_TYPE_LIST) {
    *count = opt->text ? 1 : 0;
    return opt->text ? (const char *const *) &opt->text : NULL;
  }
  *count = opt->item_count;
  return (const char *const *) opt->items;
}

/* ------------------------------------------------------------------------------------------ */

static const char *type_hint(sb_arg_type_t type)
{
  switch (type) {
    case SB_ARG_TYPE_BOOL:   return "[=on|off]";
    case SB_ARG_TYPE_INT:    return "=N";
    case SB_ARG_TYPE_SIZE:   return "=SIZE";
    case SB_ARG_TYPE_DOUBLE: return "=N";
    case SB_ARG_TYPE_STRING: return "=STRING";
    case SB_ARG_TYPE_LIST:   return "=[LIST,...]";
    case SB_ARG_TYPE_FILE:   return "=FILENAME";
    default:                 return "=UNKNOWN";
  }
}

static sb_arg_type_t help_type(const option_decl *d)
{
  return d->help_type != SB_ARG_TYPE_NULL ? d->help_type : d->type;
}

/* One help line's parts: ours, or 1.0.20's where it differs and `as_1020` asks for those. */
static void help_parts(const option_decl *d, bool as_1020, const char **hint, const char **desc,
                       const char **default_text)
{
  bool old = as_1020 && !d->added;
  *hint = type_hint(old && d->compat_help.type != SB_ARG_TYPE_NULL ? d->compat_help.type
                                                                    : help_type(d));
  *desc = old && d->compat_help.desc != NULL ? d->compat_help.desc : d->desc;
  *default_text = old && d->compat_help.default_text != NULL ? d->compat_help.default_text
                                                              : d->default_text;
}

/* The column of the lines of `added` (or of 1.0.20's) options: 1.0.20's own width for its
   options, so an addition never moves them. */
static size_t help_width(const option_decl *decls, bool added)
{
  size_t width = 0;
  for (const option_decl *d = decls; d->name != NULL; d++) {
    if (d->added != added)
      continue;
    const char *hint, *desc, *default_text;
    help_parts(d, true, &hint, &desc, &default_text);
    size_t len = strlen(d->name) + strlen(hint);
    if (len > width)
      width = len;
  }
  return width;
}

static void print_help_lines(const option_decl *decls, bool added)
{
  size_t width = help_width(decls, added);
  for (const option_decl *d = decls; d->name != NULL; d++) {
    if (d->added != added)
      continue;
    const char *hint, *desc, *default_text;
    help_parts(d, output_exact(), &hint, &desc, &default_text);
    size_t used = strlen(d->name) + strlen(hint);
    printf("  --%s%s%*s%s", d->name, hint, (int) (used < width ? width - used + 1 : 1), "",
           desc ? desc : "");
    if (default_text != NULL)
      printf(" [%s]", default_text);
    printf("\n");
  }
}

void options_print(const option_decl *decls)
{
  print_help_lines(decls, false);
  if (!output_exact())
    print_help_lines(decls, true);
  printf("\n");
}

void options_free_all(void)
{
  for (size_t i = 0; i < registry_count; i++) {
    sb_option *opt = registry[i];
    free(opt->name);
    free(opt->given_name);
    free(opt->config_origin);
    free(opt->desc);
    free(opt->default_text);
    free(opt->text);
    free_items(opt);
    free(opt);
  }
  free(registry);
  registry = NULL;
  registry_count = registry_capacity = 0;
}
