/*
 * args.c: reads the command line and --config-file files into the option registry, and picks
 * out the test name and command. Options may appear anywhere; names the core does not know yet
 * are kept pending until the test (which may declare them) is loaded.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"
#include "logger.h"
#include "options.h"
#include "output_mode.h"
#include "printable.h"
#include "secrets.h"

static const char *current_command;

/* Warnings about config-file lines, said after the header like 1.0.20's warnings
   (args_print_config_warnings()) rather than while the files are read, before it. */
#define CONFIG_WARNINGS_MAX 32
static char *config_warnings[CONFIG_WARNINGS_MAX];
static size_t config_warning_count;

/* Boolean options given a value that is not a boolean. 1.0.20 does not take such an argument
   as the option at all and reports it with the unknown ones, once the test is loaded. */
#define REJECTED_FLAGS_MAX 64
static char *rejected_flags[REJECTED_FLAGS_MAX];
static size_t rejected_flag_count;

const char *args_current_command(void)
{
  return current_command;
}

void args_forget(void)
{
  for (size_t i = 0; i < rejected_flag_count; i++)
    free(rejected_flags[i]);
  rejected_flag_count = 0;
  for (size_t i = 0; i < config_warning_count; i++)
    free(config_warnings[i]);
  config_warning_count = 0;
  current_command = NULL;
}

void args_print_config_warnings(void)
{
  for (size_t i = 0; i < config_warning_count; i++) {
    log_text(LOG_WARNING, "%s", config_warnings[i]);
    free(config_warnings[i]);
  }
  config_warning_count = 0;
}

/* `where`: "config file 'F' line N" for a config file's line, NULL for the command line. */
static int set_one(const char *name, const char *value, const char *where)
{
  char err[512];
  sb_option *opt = options_find(name);

  if (opt == NULL || option_is_pending(opt)) {
    if (options_add_pending(name, value, where) == NULL) {
      fprintf(stderr, "out of memory\n");
      return -1;
    }
    return 0;
  }
  if (option_type(opt) == SB_ARG_TYPE_FILE)
    return args_read_config_file(value ? value : "");
  if (option_set(opt, value, err, sizeof(err)) != 0) {
    if (where == NULL && option_type(opt) == SB_ARG_TYPE_BOOL &&
        rejected_flag_count < REJECTED_FLAGS_MAX) {
      size_t len = strlen(name) + strlen(value ? value : "") + 4;
      char *arg = malloc(len);
      if (arg != NULL) {
        snprintf(arg, len, "%s=%s", name, value ? value : "");
        rejected_flags[rejected_flag_count++] = arg;
        return 0;
      }
    }
    /* err is 1.0.20's line and a HINT line; say where a config file line came from (not in
       exact mode: 1.0.20's line alone) */
    if (where != NULL && !output_exact())
      fprintf(stderr, "%s (%s)\n", err, where);
    else
      fprintf(stderr, "%s\n", err);
    return -1;
  }
  return 0;
}

static char *trim(char *s)
{
  while (isspace((unsigned char) *s))
    s++;
  char *end = s + strlen(s);
  while (end > s && isspace((unsigned char) end[-1]))
    *--end = '\0';
  return s;
}

/*
 * A value as 1.0 reads it: comma-separated items, each optionally quoted with ' or ";
 * unquoted text ends at a '#' comment. Items are joined with ',' for list options.
 */
static int parse_config_value(char *raw, char *out, size_t outlen)
{
  size_t used = 0;
  char *p = raw;

  out[0] = '\0';
  while (*p != '\0') {
    while (isspace((unsigned char) *p))
      p++;
    if (*p == '\0' || *p == '#')
      break;
    const char *item;
    size_t len;
    if (*p == '\'' || *p == '"') {
      char quote = *p++;
      char *close = strchr(p, quote);
      if (close == NULL)
        return -1;
      item = p;
      len = (size_t) (close - p);
      p = close + 1;
      while (*p != '\0' && *p != ',' && *p != '#')
        p++;
    } else {
      item = p;
      while (*p != '\0' && *p != ',' && *p != '#')
        p++;
      len = (size_t) (p - item);
      while (len > 0 && isspace((unsigned char) item[len - 1]))
        len--;
    }
    if (used + len + 2 > outlen)
      return -1;
    if (used > 0)
      out[used++] = ',';
    memcpy(out + used, item, len);
    used += len;
    out[used] = '\0';
    if (*p == ',')
      p++;
    else if (*p == '#')
      break;
  }
  return 0;
}

/* One line of a config file (trimmed, not blank, not a comment). 0, or -1 after an error
   message: the file stops there. */
static int apply_config_line(char *text, const char *where)
{
  char *eq = strchr(text, '=');
  char shown[PRINTABLE_MAX];

  if (eq == NULL) {
    /* "mysql-password s3cret" (the '=' forgotten): the password is not shown. 1.0.20 skips
       such a line without a word: ours is an addition. */
    char *warning = NULL;
    const char *line = secret_option_name(text) ? SECRET_MASK : text;
    if (!output_exact() && config_warning_count < CONFIG_WARNINGS_MAX &&
        asprintf(&warning, "%s: expected name=value, got '%s'; line ignored", where,
                 printable(line, shown, sizeof(shown))) >= 0)
      config_warnings[config_warning_count++] = warning;
    return 0;
  }
  *eq = '\0';
  char *name = trim(text);
  if (strncmp(name, "--", 2) == 0)
    name += 2;
  /* The value is never longer than the text it comes from (+2: parse_config_value keeps
     room for a comma and the terminator). */
  size_t room = strlen(eq + 1) + 2;
  char *value = malloc(room);
  if (value == NULL) {
    fprintf(stderr, "%s: out of memory\n", where);
    return -1;
  }
  int rc = 0;
  if (*name == '\0' || parse_config_value(eq + 1, value, room) != 0) {
    fprintf(stderr, "%s: cannot parse '%s' (expected name=value, with quotes closed)\n",
            where, printable(name, shown, sizeof(shown)));
    rc = -1;
  } else {
    rc = set_one(name, value, where);
  }
  free(value);
  return rc;
}

/* fopen() gives a directory to "r" and the first read fails; a directory is refused here
   as a missing file is. Pipes and devices stay readable (--config-file=<(...)). */
static FILE *open_config_file(const char *path)
{
  FILE *f = fopen(path, "r");
  struct stat st;

  if (f != NULL && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    errno = EISDIR;
    return NULL;
  }
  return f;
}

static FILE *(*config_opener)(const char *path) = open_config_file;

void args_set_config_opener(FILE *(*open)(const char *path))
{
  config_opener = open != NULL ? open : open_config_file;
}

/* 1.0.20's line for a config file it cannot open ("f.cfg: No such file or directory", as
   perror prints it); 1.0.20 then goes on without the file, we stop. */
static void report_unreadable(const char *path, int error)
{
  char shown[PRINTABLE_MAX];

  fprintf(stderr, "%s: %s\n", printable(path, shown, sizeof(shown)), strerror(error));
  if (!output_exact())
    fprintf(stderr, "HINT: --config-file expects a readable file of name=value lines\n");
}

static int read_config_file(const char *path)
{
  FILE *f = config_opener(path);
  char *line = NULL, where[PRINTABLE_MAX + 64], shown[PRINTABLE_MAX];
  size_t capacity = 0;
  int lineno = 0, rc = 0;

  if (f == NULL) {
    report_unreadable(path, errno);
    return -1;
  }
  /* getline: a line of any length is one line (a long comment must not turn into settings). */
  errno = 0;
  while (rc == 0 && getline(&line, &capacity, f) != -1) {
    lineno++;
    char *text = trim(line);
    if (*text == '\0' || *text == '#' || *text == ';')
      continue;
    snprintf(where, sizeof(where), "config file '%s' line %d",
             printable(path, shown, sizeof(shown)), lineno);
    rc = apply_config_line(text, where);
    errno = 0;
  }
  if (rc == 0 && ferror(f)) {
    report_unreadable(path, errno != 0 ? errno : EIO);
    rc = -1;
  }
  free(line);
  fclose(f);
  return rc;
}

/* A config file may name another one; the limit stops a file that (indirectly) names itself
   from recursing until the stack overflows. */
#define CONFIG_NESTING_MAX 8

int args_read_config_file(const char *path)
{
  static int depth;
  char shown[PRINTABLE_MAX];

  if (depth >= CONFIG_NESTING_MAX) {
    fprintf(stderr, "Cannot read the config file '%s': config files nest more than %d deep "
            "(does one include itself?)\n", printable(path, shown, sizeof(shown)),
            CONFIG_NESTING_MAX);
    return -1;
  }
  depth++;
  int rc = read_config_file(path);
  depth--;
  return rc;
}

int args_parse(int argc, char *argv[], parsed_args *out)
{
  memset(out, 0, sizeof(*out));

  for (int i = 1; i < argc; i++) {
    char *arg = argv[i];

    if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
      if (out->testname == NULL) {
        out->testname = arg;
      } else if (out->command == NULL) {
        out->command = arg;
        current_command = arg;
      } else {
        char shown[PRINTABLE_MAX];
        fprintf(stderr, "Unrecognized command line argument: %s\n",
                printable(arg, shown, sizeof(shown)));
        return -1;
      }
      continue;
    }

    char *name = strdup(arg + 2);
    char *eq = strchr(name, '=');
    const char *value = NULL;
    if (eq != NULL) {
      *eq = '\0';
      value = eq + 1;
    }

    int rc = 0;
    if (strcmp(name, "test") == 0) {
      fprintf(stderr, "WARNING: the --test option is deprecated. You can pass a script name or "
              "path on the command line without any options.\n");
      out->testname = value ? argv[i] + 7 : NULL;
      /* scripts read it as sysbench.opt.test, as in 1.0.20 */
      if (value != NULL)
        rc = set_one(name, value, NULL);
    } else {
      rc = set_one(name, value, NULL);
    }
    free(name);
    if (rc != 0)
      return -1;
  }
  return 0;
}

/* A config file's name that no component declared: a Lua test says 1.0.20's line for it, then
   where it came from; a compiled-in test, for which 1.0.20 says nothing, our line. */
static void warn_unused_config_name(const sb_option *opt, bool lua_test)
{
  char buf[PRINTABLE_MAX], name[PRINTABLE_MAX];
  const char *shown = printable(option_given_name(opt), buf, sizeof(buf));

  if (!lua_test) {
    if (!output_exact())        /* 1.0.20 says nothing: ours is an addition */
      log_text(LOG_WARNING, "%s sets '%s', which this test does not use; ignored",
               option_config_origin(opt), shown);
    return;
  }
  /* 1.0.20 names it with '_' for '-', once per Lua state; here once */
  snprintf(name, sizeof(name), "%s", shown);
  for (char *p = name; *p != '\0'; p++)
    if (*p == '-')
      *p = '_';
  log_text(LOG_WARNING, "Global option '%s' will not be exported, because the type is unknown",
           name);
  log_hint("%s sets '%s', which this test does not declare (its help command lists those it "
           "does)", option_config_origin(opt), shown);
}

int args_check_pending(bool accept_unknown, bool lua_test)
{
  int rc = 0;
  char shown[PRINTABLE_MAX], shown_value[PRINTABLE_MAX];

  for (size_t i = 0; i < rejected_flag_count; i++) {
    char *eq = strchr(rejected_flags[i], '='), text[2 * PRINTABLE_MAX + 128];
    *eq = '\0';
    option_flag_rejected_text(text, sizeof(text), rejected_flags[i], eq + 1);
    *eq = '=';
    fprintf(stderr, "%s\n", text);
    rc = -1;
  }
  if (rc != 0)
    return rc;

  if (accept_unknown)
    options_accept_pending();
  for (size_t i = 0; i < options_count(); i++) {
    sb_option *opt = options_at(i);
    if (!option_is_pending(opt))
      continue;
    if (option_config_origin(opt) != NULL) {
      warn_unused_config_name(opt, lua_test);
      continue;
    }
    /* The value as it may be shown: a password stays hidden even in a mistyped option. */
    char *text = secrets_option_value_dup(option_name(opt), option_text(opt));
    fprintf(stderr, "invalid option: --%s%s%s\n",
            printable(option_given_name(opt), shown, sizeof(shown)), text ? "=" : "",
            text ? printable(text, shown_value, sizeof(shown_value)) : "");
    free(text);
    rc = -1;
  }
  return rc;
}
