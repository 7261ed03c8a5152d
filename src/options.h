/*
 * options.h: the registry of command-line options (general, random numbers, log, database,
 * driver and test options), their typed values, and the help text that lists them.
 *
 * Names compare with '-' and '_' as equal. Values are checked when set, so a bad value is
 * reported once, naming the option and what it accepts, before anything runs. The code reads
 * only names that are declared (opt_* below). sb_arg_t and sb_arg_type_t keep the layout
 * sysbench 1.0's Lua layer declares through FFI.
 */
#ifndef SB_OPTIONS_H
#define SB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  SB_ARG_TYPE_NULL,
  SB_ARG_TYPE_BOOL,
  SB_ARG_TYPE_INT,
  SB_ARG_TYPE_SIZE,
  SB_ARG_TYPE_DOUBLE,
  SB_ARG_TYPE_STRING,
  SB_ARG_TYPE_LIST,
  SB_ARG_TYPE_FILE,
  SB_ARG_TYPE_MAX
} sb_arg_type_t;

/* Option validation hook of the Lua API: (name, value) -> acceptable. */
typedef bool sb_opt_validate_t(const char *, const char *);

/* One option definition; arrays of these end with a NULL name. */
typedef struct {
  const char *name;
  const char *desc;
  const char *value;           /* default, as text; NULL = none */
  sb_arg_type_t type;
  sb_opt_validate_t *validate;
} sb_arg_t;

/*
 * An option as a C component declares it: its 1.0 fields (name, help, default, type) and what
 * it accepts beyond its type. Parsing, the checks, the error text and --help all follow from
 * this one declaration. Arrays end with a NULL name.
 */
typedef struct option_decl {
  const char *name;
  const char *desc;
  const char *default_text;    /* NULL = none */
  sb_arg_type_t type;
  sb_arg_type_t help_type;     /* the type --help shows, when not `type` (1.0.20 read some
                                  options as text with a reader of its own); 0: `type` */
  bool ranged;                 /* INT, SIZE, DOUBLE: min <= value <= max; LIST: every item
                                  is a whole number in that range (or one of the choices) */
  double min, max;
  double smallest_nonzero;     /* > 0: a value is 0 or from this to max (min stays 0) */
  const char *const *choices;  /* STRING: one of these words; LIST: every item is (or a number
                                  in range, when ranged); NULL-terminated */
  bool any_case;               /* choices compare ignoring case (else exactly, as 1.0.20) */
  bool (*item_ok)(const char *item);  /* LIST: every item passes this (or is a choice);
                                         STRING: the value does; a ranged number: its text
                                         does too (a rule a range cannot say) */
  bool number_list;            /* INT, DOUBLE: also takes a comma-separated list of numbers
                                  (each in range); the value is the first, the whole list
                                  comes from opt_numbers() */
  const char *expect;          /* what is accepted, in words; NULL: said from range/choices */
  const char *compat_error;    /* 1.0.20's own line for a value it rejects too, where "%s"
                                  stands for the value (a "%f" instead: the number as C's %f
                                  prints it, as 1.0.20 did); NULL: ours alone */
  bool compat_integer;         /* 1.0.20 read this option as a C int: text that is not one
                                  (1e11, nan) and is out of range gets 1.0.20's line for a
                                  bad value, "Invalid value for the 'x' option: 'text'" */
  bool checked_on_read;        /* checked by option_check() when its component reads it (as
                                  1.0.20 checks it: only for the commands that use it, in
                                  its order), not by options_check_given() */
  sb_opt_validate_t *validate; /* a Lua script's own check (sysbench.cmdline.options) */
  bool added;                  /* not one of 1.0.20's options: --help lists it after 1.0.20's
                                  lines of its block, in a column of its own, so that theirs
                                  keep 1.0.20's column; in exact mode (output_mode.h) not */
  struct {                     /* where --help's line differs from 1.0.20's (a wider type, a
                                  longer list of choices): 1.0.20's parts, used in exact mode
                                  and for the width of the block's column; 0/NULL: ours */
    sb_arg_type_t type;
    const char *desc;
    const char *default_text;
  } compat_help;
} option_decl;

typedef struct sb_option sb_option;

/*
 * Register options. An option already registered (for example one a config file or the
 * command line set before the script declared it) keeps its value when the user gave one, and
 * takes the new definition and default otherwise. Returns -1 if a user-given value does not fit
 * the new type (the message, for stderr, is in err).
 */
int options_declare(const option_decl *decls, char *err, size_t errlen);

/*
 * Check every declared option the user gave against its declaration (range, choices). On the
 * first bad one prints the error (1.0.20's line where it has one, then a "HINT: " line; else
 * one line of ours) and returns -1. Run once the command line and config files are read, and
 * again after a test declares its own options.
 */
int options_check_given(void);

/*
 * The one spelling of a rejected value of --name, written to buf (no final newline): 1.0.20's
 * own line (compat_error, its "%s" or "%f" standing for the value) followed, unless expect is
 * NULL, by "HINT: --name expects EXPECT"; or, where 1.0.20 has no line, one line of ours:
 * "FATAL: Invalid value for --name: VALUE (expected EXPECT)", an empty VALUE shown as ''.
 * Control bytes of the value are shown escaped.
 */
void option_invalid_text(char *buf, size_t len, const char *name, const char *value,
                         const char *compat_error, const char *expect);

/* A boolean option given a value that is not one: 1.0.20 does not take the argument as the
   option at all ("invalid option: --name=value"); our HINT says what it takes. `as_typed` is
   the name as the user spelled it. */
void option_flag_rejected_text(char *buf, size_t len, const char *as_typed, const char *value);

/* option_invalid_text() printed to stdout, where 1.0.20's logger printed such lines. */
void option_report_invalid(const char *name, const char *value, const char *compat_error,
                           const char *expect);

/*
 * Check the user's value of option `name` against its declaration now (the options declared
 * checked_on_read): 0, or -1 after reporting it as options_check_given() does.
 */
int option_check(const char *name);

sb_option *options_find(const char *name);

/*
 * Set an option from text (value NULL = bare "--name"). On a bad value writes one line to
 * `err` naming the option and what it accepts, and returns -1.
 */
int option_set(sb_option *opt, const char *value, char *err, size_t errlen);

/* The user's value of option `from` becomes the user's value of option `to` (1.0.20's
   deprecated aliases); -1 with a message when `to` cannot take it. */
int option_copy_given(const char *to, const char *from);


/*
 * Typed reads by name. Reading a name that no component declared is a bug of the reader (a
 * typo would read as 0 and go unnoticed): it prints the name and aborts.
 *
 * The name must be a string literal: each call site's name is also recorded by the linker
 * (section "sb_option_reads"), so options_undeclared_read() can check at start-up every
 * name the code reads, on every path, not only those a run takes.
 */
bool opt_bool(const char *name);
int64_t opt_int(const char *name);
uint64_t opt_size(const char *name);
double opt_double(const char *name);
const char *opt_string(const char *name);      /* NULL when unset and no default */
const char *const *opt_list(const char *name, size_t *count);
bool opt_is_set(const char *name);             /* given by the user (command line/config) */
/* The numbers of a number_list option (one for a single value, 0 when empty); at most `max`
   are stored in `out`; returns how many the option holds. */
size_t opt_numbers(const char *name, double *out, size_t max);

/* A static, literal name recorded in the "sb_option_reads" section; the expression is the
   name. (A name that is not a constant does not compile: it could not be checked.) */
#define SB_OPTION_READ(name) __extension__ ({                                             \
    static const char *const sb_option_read_                                             \
      __attribute__((used, section("sb_option_reads"), aligned(sizeof(char *)))) = name;  \
    sb_option_read_; })
#define opt_bool(name) opt_bool(SB_OPTION_READ(name))
#define opt_int(name) opt_int(SB_OPTION_READ(name))
#define opt_size(name) opt_size(SB_OPTION_READ(name))
#define opt_double(name) opt_double(SB_OPTION_READ(name))
#define opt_string(name) opt_string(SB_OPTION_READ(name))
#define opt_list(name, count) opt_list(SB_OPTION_READ(name), count)
#define opt_is_set(name) opt_is_set(SB_OPTION_READ(name))
#define opt_numbers(name, out, max) opt_numbers(SB_OPTION_READ(name), out, max)
#define option_check(name) option_check(SB_OPTION_READ(name))

/*
 * The names the code reads (every opt_*() call site), checked against the declarations:
 * those of the components registered so far, and the tables in `more` (NULL-terminated; the
 * compiled-in tests', declared only when that test is run). Returns NULL, or the first name
 * read that nothing declares. main() runs it at every start, so the test suite runs it.
 */
const char *options_undeclared_read(const option_decl *const *more);

/* The declared option `name` (for code that holds names in a table); an undeclared name is a
   bug: it prints the name and aborts. */
sb_option *options_get(const char *name);
bool option_given(const sb_option *opt);       /* given by the user (command line/config) */

/* Iteration over all options, in registration order (for exporting them to Lua). */
size_t options_count(void);
sb_option *options_at(size_t index);
const char *option_name(const sb_option *opt);
const char *option_given_name(const sb_option *opt);   /* as the user spelled it */
sb_arg_type_t option_type(const sb_option *opt);
const char *option_text(const sb_option *opt);  /* current value as text, NULL if none */
bool option_flag(const sb_option *opt);
int64_t option_int(const sb_option *opt);
uint64_t option_size(const sb_option *opt);
double option_double(const sb_option *opt);
const char *const *option_list(const sb_option *opt, size_t *count);

/* Help for a set of options as 1.0 prints it ("  --name=TYPE   description [default]"),
   followed by a blank line: 1.0.20's options first, in the column 1.0.20's own lines give,
   then the added ones in a column of their own (none in exact mode). */
void options_print(const option_decl *decls);

/* Remember an option given by the user before anything declared it (a test option parsed
   before the test is loaded). Returns the placeholder, typed STRING until declared. */
sb_option *options_add_pending(const char *name, const char *value, const char *config_origin);
/* Options the user gave that no component declared: call after the test is loaded. */
bool option_is_pending(const sb_option *opt);
/* "config file 'F' line N" for a value a config file gave, NULL for the command line's. */
const char *option_config_origin(const sb_option *opt);
/* Turn every still-pending option of the command line into a declared STRING option (1.0's
   legacy mode for scripts that declare no options); a config file's stay pending, as 1.0.20
   does not export them ("will not be exported, because the type is unknown"). */
void options_accept_pending(void);

/* Parse a size with an optional K/M/G/T suffix (powers of 1024). */
bool parse_size(const char *text, uint64_t *out);

void options_free_all(void);

#endif
