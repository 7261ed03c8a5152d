/*
 * test_options.c: unit tests for src/options.{h,c}, the option registry: '-' and '_' as one
 * character, every value type's grammar (flags, integers, sizes with K/M/G/T, numbers, lists),
 * the one-line errors that name the option and what it accepts, validate hooks, and values the
 * user gave before a script declared the option (kept, re-typed, or rejected).
 */
#include "options.h"
#include "tap.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char err[512];

static int set(const char *name, const char *value)
{
  sb_option *opt = options_find(name);
  err[0] = '\0';
  return opt == NULL ? -2 : option_set(opt, value, err, sizeof(err));
}

static bool only_even(const char *name, const char *value)
{
  (void) name;
  return value != NULL && value[0] != '\0' && (value[strlen(value) - 1] - '0') % 2 == 0;
}

static const option_decl test_args[] = {
  {.name = "flag-opt", .desc = "a flag", .default_text = "off", .type = SB_ARG_TYPE_BOOL},
  {.name = "int_opt", .desc = "an integer", .default_text = "7", .type = SB_ARG_TYPE_INT},
  {.name = "size-opt", .desc = "a size", .default_text = "1K", .type = SB_ARG_TYPE_SIZE},
  {.name = "double-opt", .desc = "a number", .default_text = "0.5", .type = SB_ARG_TYPE_DOUBLE},
  {.name = "string-opt", .desc = "a string", .default_text = "text", .type = SB_ARG_TYPE_STRING},
  {.name = "list-opt", .desc = "a list", .default_text = "a,b", .type = SB_ARG_TYPE_LIST},
  {.name = "even-opt", .desc = "validated", .default_text = "3", .type = SB_ARG_TYPE_INT,
   .validate = only_even},
  {.name = "no-default", .desc = "no default", .type = SB_ARG_TYPE_STRING},
  {.name = NULL},
};

static void test_defaults_and_names(void)
{
  size_t n = 0;
  const char *const *items;

  ok(!opt_bool("flag_opt"), "a flag's default off reads false");
  ok_num(opt_int("int-opt"), ==, 7, "an integer's default, with '-' for the declared '_'");
  ok_num(opt_size("size_opt"), ==, 1024, "a size default of 1K is 1024");
  ok_num(opt_double("double-opt"), ==, 0.5, "a number's default");
  ok(strcmp(opt_string("string-opt"), "text") == 0, "a string's default");
  items = opt_list("list-opt", &n);
  ok(n == 2 && strcmp(items[0], "a") == 0 && strcmp(items[1], "b") == 0,
     "a list's default splits at commas");
  ok(opt_string("no-default") == NULL, "an option without a default reads NULL");
  ok(!opt_is_set("int-opt"), "a default is not 'given by the user'");
  ok_num(opt_int("even-opt"), ==, 3, "a default is not judged by the declarer's validate hook");
  ok(options_find("int-opt") == options_find("int_opt"), "'-' and '_' find the same option");
  ok(options_find("int-op") == NULL && options_find("int-opt-x") == NULL,
     "a prefix or an extension of a name is not the option");
}

/* Runs `reader` in a child process: true when it died of SIGABRT and said `want` on stderr. */
static bool aborts_saying(void (*reader)(void), const char *want)
{
  int pipe_fds[2];
  char said[512] = "";
  int status = 0;

  if (pipe(pipe_fds) != 0)
    return false;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDERR_FILENO);
    signal(SIGABRT, SIG_DFL);
    reader();
    _exit(0);
  }
  close(pipe_fds[1]);
  ssize_t n = read(pipe_fds[0], said, sizeof(said) - 1);
  said[n > 0 ? n : 0] = '\0';
  close(pipe_fds[0]);
  waitpid(pid, &status, 0);
  if (strstr(said, want) == NULL)
    printf("#   stderr: %s\n", said);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && strstr(said, want) != NULL;
}

/* (The functions, not the macros: the macros would record these names as read.) */
static void read_unknown_int(void) { (void) (opt_int)("int-opt-typo"); }
static void read_unknown_flag(void) { (void) (opt_bool)("int-opt-typo"); }
static void read_unknown_string(void) { (void) (opt_string)("int-opt-typo"); }
static void read_unknown_given(void) { (void) (opt_is_set)("int-opt-typo"); }
static void read_pending(void) { (void) (opt_string)("only-given"); }

/* A name no component declares is a bug of the reader: it stops the program, naming it. */
static void test_undeclared_reads(void)
{
  const char *want = "BUG: option 'int-opt-typo' is read but no component declares it";

  ok(aborts_saying(read_unknown_int, want), "opt_int() of an undeclared name aborts, naming it");
  ok(aborts_saying(read_unknown_flag, want), "... so does opt_bool()");
  ok(aborts_saying(read_unknown_string, want), "... and opt_string()");
  ok(aborts_saying(read_unknown_given, want), "... and opt_is_set()");
  options_add_pending("only-given", "1", NULL);
  ok(aborts_saying(read_pending, "'only-given'"),
     "an option only the user gave (no component declares it) is not readable either");
}

static void test_flags(void)
{
  static const char *const yes[] = {"on", "ON", "true", "True", "1", "yes"};
  static const char *const no[] = {"off", "OFF", "false", "0", "no"};

  for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
    set("flag-opt", "off");
    ok(set("flag-opt", yes[i]) == 0 && opt_bool("flag-opt"), "flag '%s' is true", yes[i]);
  }
  for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
    set("flag-opt", "on");
    ok(set("flag-opt", no[i]) == 0 && !opt_bool("flag-opt"), "flag '%s' is false", no[i]);
  }
  ok(set("flag-opt", NULL) == 0 && opt_bool("flag-opt"), "a bare --flag is on");
  ok(strcmp(option_text(options_find("flag-opt")), "on") == 0, "a flag's text is 'on'/'off'");
  ok(opt_is_set("flag-opt"), "a value set is 'given by the user'");
  ok(set("flag-opt", "maybe") == -1, "flag 'maybe' is rejected");
  ok(strstr(err, "flag-opt") != NULL && strstr(err, "maybe") != NULL &&
     strstr(err, "on|off") != NULL, "... naming the option, the value and what it accepts: %s",
     err);
  ok(strchr(err, '\n') != NULL && strchr(strchr(err, '\n') + 1, '\n') == NULL,
     "... in two lines: 1.0.20's and the hint");
}

static void test_integers_and_numbers(void)
{
  ok(set("int-opt", "-42") == 0 && opt_int("int-opt") == -42, "a negative integer");
  ok(set("int-opt", "9223372036854775807") == 0 && opt_int("int-opt") == INT64_MAX,
     "the largest 64-bit integer");
  ok(set("int-opt", "9223372036854775808") == -1, "one past it is rejected, not wrapped");
  ok(set("int-opt", "12abc") == -1 && strstr(err, "expects an integer") != NULL,
     "trailing garbage is rejected: %s", err);
  ok(set("int-opt", "1.5") == -1, "a fraction is not an integer");
  ok(set("int-opt", "") == 0 && opt_int("int-opt") == 0, "an empty integer is 0");
  ok(set("double-opt", "2.5e3") == 0 && opt_double("double-opt") == 2500,
     "a number in exponent form");
  ok(set("double-opt", "abc") == -1 && strstr(err, "expects a number") != NULL,
     "a number rejects words");
  ok(set("double-opt", "1e999") == -1, "a number out of range is rejected");
}

static void test_sizes(void)
{
  static const struct { const char *text; uint64_t value; } good[] = {
    {"0", 0}, {"512", 512}, {"4K", 4096}, {"4k", 4096}, {"2M", 2u << 20},
    {"3G", UINT64_C(3) << 30}, {"1T", UINT64_C(1) << 40}, {"16777215T", UINT64_C(16777215) << 40},
  };
  static const char *const bad[] = {"1.5K", "K", "-1", "1KB", "1P", "16777216T",
                                    "18446744073709551616", " 1"};
  uint64_t v = 0;

  for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
    ok(set("size-opt", good[i].text) == 0 && opt_size("size-opt") == good[i].value,
       "size '%s' is %llu", good[i].text, (unsigned long long) good[i].value);
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    ok(set("size-opt", bad[i]) == -1 && strstr(err, "K, M, G or T") != NULL,
       "size '%s' is rejected, saying what a size is", bad[i]);
  ok(parse_size("18446744073709551615", &v) && v == UINT64_MAX, "parse_size takes 2^64-1");
}

static void test_lists_and_validation(void)
{
  size_t n = 99;
  const char *const *items;

  ok(set("list-opt", "x,,y,z") == 0, "a list with an empty item");
  items = opt_list("list-opt", &n);
  ok(n == 3 && strcmp(items[2], "z") == 0, "... keeps the three non-empty items");
  ok(set("list-opt", "") == 0 && (opt_list("list-opt", &n), n == 0), "an empty list");
  ok(set("even-opt", "4") == 0 && opt_int("even-opt") == 4, "a validate hook accepts 4");
  ok(set("even-opt", "5") == -1 && strstr(err, "even_opt") != NULL,
     "... and rejects 5, naming the option: %s", err);
  ok(opt_int("even-opt") == 4 && strcmp(option_text(options_find("even-opt")), "4") == 0,
     "... leaving the option as it was (value and text)");
  set("size-opt", "2K");
  ok(set("size-opt", "2X") == -1 && opt_size("size-opt") == 2048,
     "a size that does not parse leaves the last good one");
  set("list-opt", "p,q");
  ok(set("list-opt", NULL) == 0 && (opt_list("list-opt", &n), n == 0),
     "a bare --list empties it");
}

static const option_decl late[] = {
  {.name = "late_opt", .desc = "declared later", .default_text = "5", .type = SB_ARG_TYPE_INT},
  {.name = NULL},
};

/* What the command line gave before a script declared the option. */
static void test_pending(void)
{
  char e[256];
  sb_option *p = options_add_pending("late-opt", "12", NULL);

  ok(p != NULL && option_is_pending(p), "an undeclared option given by the user is pending");
  ok(strcmp(option_given_name(p), "late-opt") == 0, "... remembering how the user spelled it");
  ok(options_declare(late, e, sizeof(e)) == 0, "declaring it afterwards succeeds");
  ok(!option_is_pending(p) && opt_int("late-opt") == 12,
     "... and the user's 12 wins over the default 5, now an integer");

  options_add_pending("late-bad", "lots", "config file 'x.cfg' line 3");
  is_str(option_config_origin(options_find("late-bad")), "config file 'x.cfg' line 3",
         "a value from a config file keeps the file and line it came from");
  ok(option_config_origin(options_find("late-opt")) == NULL,
     "... one from the command line has none");
  static const option_decl late_bad[] = {
    {.name = "late-bad", .desc = "an integer", .default_text = "1", .type = SB_ARG_TYPE_INT},
    {.name = NULL},
  };
  ok(options_declare(late_bad, e, sizeof(e)) == -1 && strstr(e, "late_bad") != NULL &&
     strstr(e, "lots") != NULL, "a given value that does not fit the declared type fails: %s",
     e);

  options_add_pending("never-declared", "x", NULL);
  options_add_pending("from-a-file", "y", "config file 'x.cfg' line 4");
  options_accept_pending();
  ok(!option_is_pending(options_find("never-declared")) &&
     strcmp(option_text(options_find("never-declared")), "x") == 0,
     "accepting pending options keeps them as strings (1.0's legacy scripts)");
  ok(option_is_pending(options_find("from-a-file")),
     "... those of the command line: a config file's stays pending (1.0.20 does not export it)");
}

static void test_redeclare(void)
{
  char e[256];
  static const option_decl again[] = {
    {.name = "int-opt", .desc = "redeclared", .default_text = "99", .type = SB_ARG_TYPE_INT},
    {.name = "string-opt", .desc = "redeclared", .default_text = "new", .type = SB_ARG_TYPE_STRING},
    {.name = NULL},
  };
  size_t before = options_count();

  set("int-opt", "3");
  ok(options_declare(again, e, sizeof(e)) == 0, "declaring options again succeeds");
  ok(options_count() == before, "... without adding duplicates");
  ok(opt_int("int-opt") == 3, "... a user-given value survives the new declaration");
  ok(strcmp(opt_string("string-opt"), "new") == 0, "... an unset one takes the new default");
}

/* Ranges and choices from the declaration are checked by options_check_given(), which
   prints the message; a value inside them passes. */
static void test_declared_checks(void)
{
  static const char *const colours[] = {"red", "green", NULL};
  static const option_decl checked[] = {
    {.name = "ranged-opt", .default_text = "5", .type = SB_ARG_TYPE_INT, .ranged = true,
     .min = 1, .max = 10, .compat_error = "FATAL: old line %s."},
    {.name = "choice-opt", .default_text = "red", .type = SB_ARG_TYPE_STRING,
     .choices = colours},
    {.name = "old-size", .default_text = "1K", .type = SB_ARG_TYPE_SIZE, .ranged = true,
     .min = 8, .max = 1024, .compat_error = "FATAL: old size %s"},
    {.name = NULL},
  };
  char e[256];

  ok(options_declare(checked, e, sizeof(e)) == 0, "declaring checked options succeeds");
  ok(options_check_given() == 0, "defaults are not checked against the declaration");
  ok(option_set(options_find("ranged-opt"), "10", e, sizeof(e)) == 0 &&
     options_check_given() == 0, "a value at the top of the range passes");
  ok(option_set(options_find("ranged-opt"), "11", e, sizeof(e)) == 0,
     "a value out of range is still taken as an integer");
  ok(options_check_given() == -1, "... and refused by the check");
  option_set(options_find("ranged-opt"), "3", e, sizeof(e));
  ok(option_set(options_find("choice-opt"), "blue", e, sizeof(e)) == 0 &&
     options_check_given() == -1, "a word outside the choices is refused");
  ok(option_set(options_find("choice-opt"), "RED", e, sizeof(e)) == 0 &&
     options_check_given() == -1, "choices compare exactly, as 1.0.20's (RED is not red)");
  option_set(options_find("choice-opt"), "green", e, sizeof(e));
  ok(options_check_given() == 0, "a listed word passes");
  ok(option_set(options_find("old-size"), "abc", e, sizeof(e)) == 0,
     "a size with 1.0.20's own error line takes text that is no size ...");
  ok(options_check_given() == -1, "... and the check refuses it");
  ok(option_set(options_find("old-size"), "16", e, sizeof(e)) == 0 &&
     options_check_given() == 0, "a good size afterwards clears it");
  ok(option_set(options_find("size-opt"), "abc", e, sizeof(e)) == -1 &&
     strstr(e, "HINT: --size-opt expects a size") != NULL,
     "a size without such a line is refused at once, with a hint line");
  ok(option_set(options_find("flag-opt"), "maybe", e, sizeof(e)) == -1 &&
     strncmp(e, "invalid option: --flag-opt=maybe\nHINT: ", 39) == 0,
     "a boolean that is not one: 1.0.20's 'invalid option' line, then the hint");
}

static bool five_letters(const char *item)
{
  return strlen(item) == 5;
}

/* item_ok: every item of a list (besides the choices), or a string's value, must pass it. */
static void test_item_checks(void)
{
  static const char *const all[] = {"all", NULL};
  static const option_decl checked[] = {
    {.name = "code-list", .default_text = "ABCDE", .type = SB_ARG_TYPE_LIST, .choices = all,
     .item_ok = five_letters, .expect = "codes of five letters"},
    {.name = "code-word", .default_text = "ABCDE", .type = SB_ARG_TYPE_STRING,
     .item_ok = five_letters, .expect = "a code of five letters"},
    {.name = NULL},
  };
  char e[256];

  ok(options_declare(checked, e, sizeof(e)) == 0, "declaring options with item checks succeeds");
  ok(option_set(options_find("code-list"), "AAAAA,all,BBBBB", e, sizeof(e)) == 0 &&
     options_check_given() == 0, "a list of passing items and choices passes");
  ok(option_set(options_find("code-list"), "AAAAA,BBB", e, sizeof(e)) == 0 &&
     options_check_given() == -1, "one item that fails is refused");
  option_set(options_find("code-list"), "all", e, sizeof(e));
  ok(option_set(options_find("code-word"), "XYZ", e, sizeof(e)) == 0 &&
     options_check_given() == -1, "a string the check refuses is refused");
  ok(option_set(options_find("code-word"), "VWXYZ", e, sizeof(e)) == 0 &&
     options_check_given() == 0, "a string it accepts passes");
}

/* The one spelling of a rejected value: 1.0.20's line and a HINT, or one line of ours. */
static void test_invalid_text(void)
{
  char text[512];

  option_invalid_text(text, sizeof(text), "cpu_max_prime", "0",
                      "FATAL: Invalid value of cpu-max-prime: %s.", "1 to 100");
  ok(strcmp(text, "FATAL: Invalid value of cpu-max-prime: 0.\n"
                  "HINT: --cpu-max-prime expects 1 to 100") == 0,
     "1.0.20's line with the value in its slot, then the HINT with the dashed name");
  option_invalid_text(text, sizeof(text), "rate", "-5", NULL, "0 or more");
  ok(strcmp(text, "FATAL: Invalid value for --rate: -5 (expected 0 or more)") == 0,
     "without a 1.0.20 line: one line of ours: %s", text);
  option_invalid_text(text, sizeof(text), "rocksdb-path", "", NULL, "a directory path");
  ok(strcmp(text, "FATAL: Invalid value for --rocksdb-path: '' (expected a directory path)") == 0,
     "an empty value shows as '': %s", text);
  option_invalid_text(text, sizeof(text), "even", "3", "Invalid value for the 'even' option: "
                      "'%s'", NULL);
  ok(strcmp(text, "Invalid value for the 'even' option: '3'") == 0,
     "without an expectation: 1.0.20's line alone");
  option_invalid_text(text, sizeof(text), "x", "\x1b[5m", NULL, "a word");
  ok(strcmp(text, "FATAL: Invalid value for --x: \\x1b[5m (expected a word)") == 0,
     "control bytes of the value are shown escaped: %s", text);
  option_invalid_text(text, sizeof(text), "x", "-1.000000", "FATAL: bad x: %f.", "0 or more");
  ok(strncmp(text, "FATAL: bad x: -1.000000.\n", 25) == 0, "a %%f slot takes the value too");
}

/* checked_on_read: the declaration holds the rule; the component checks when it reads. */
static const option_decl checked_later[] = {
  {.name = "later-count", .default_text = "1", .type = SB_ARG_TYPE_INT, .ranged = true,
   .min = 0, .max = 10, .checked_on_read = true},
  {.name = "later-ratio", .default_text = "1.5", .type = SB_ARG_TYPE_DOUBLE, .ranged = true,
   .min = 0, .max = 1e300, .checked_on_read = true,
   .compat_error = "FATAL: Invalid value for --later-ratio: %f."},
  {.name = NULL},
};

static void test_checked_on_read(void)
{
  char e[256];

  ok(options_declare(checked_later, e, sizeof(e)) == 0,
     "declaring options checked on read succeeds");
  ok(option_check("later-count") == 0, "a default passes option_check()");
  option_set(options_find("later-count"), "11", e, sizeof(e));
  ok(options_check_given() == 0, "options_check_given() leaves a value checked on read alone");
  ok(option_check("later-count") == -1, "... and option_check() refuses it");
  option_set(options_find("later-count"), "10", e, sizeof(e));
  ok(option_check("later-count") == 0, "a value in range passes option_check()");
  option_set(options_find("later-ratio"), "-1", e, sizeof(e));
  ok(option_check("later-ratio") == -1, "a number below its range is refused (printed with %%f)");
  option_set(options_find("later-ratio"), "0", e, sizeof(e));
}

int main(void)
{
  char e[256];

  ok(options_undeclared_read(NULL) != NULL,
     "before any declaration, a name the code reads is reported undeclared");
  ok(options_undeclared_read((const option_decl *const[]) {test_args, late, checked_later, NULL}) == NULL,
     "names declared by the tables given (a compiled-in test's) count as declared");
  if (options_declare(test_args, e, sizeof(e)) != 0) {
    printf("Bail out! options_register: %s\n", e);
    return 1;
  }
  test_defaults_and_names();
  test_flags();
  test_integers_and_numbers();
  test_sizes();
  test_lists_and_validation();
  test_pending();
  test_redeclare();
  test_declared_checks();
  test_item_checks();
  test_invalid_text();
  test_checked_on_read();
  test_undeclared_reads();
  ok(options_undeclared_read(NULL) == NULL, "every name this program reads is declared");
  options_free_all();
  return tap_done();
}
