/*
 * commands.c: `sysbench compare` and `sysbench merge`: their own small command lines (result
 * files, --html=PATH, --report-file=PATH, help), reading the files with one clear line per
 * bad file, and writing the comparison or the merged document.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lua_env.h"
#include "results/commands.h"
#include "results/compare.h"
#include "results/merge.h"
#include "results/page.h"
#include "results/result_io.h"

#define MAX_FILES 26

/* --help and --version act before 1.0.20 looks at the test's name: they keep doing that. */
static bool is_early_option(const char *arg)
{
  static const char *const early[] = {"help", "version"};
  for (size_t i = 0; i < sizeof(early) / sizeof(early[0]); i++) {
    size_t n = strlen(early[i]);
    if (strncmp(arg + 2, early[i], n) == 0 && (arg[2 + n] == '\0' || arg[2 + n] == '='))
      return true;
  }
  return false;
}

const char *results_command_requested(int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (strncmp(argv[i], "--", 2) == 0 && is_early_option(argv[i]))
      return NULL;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--", 2) == 0)
      continue;
    if (strcmp(argv[i], "compare") != 0 && strcmp(argv[i], "merge") != 0)
      return NULL;
    /* A script of that name runs, as it did in 1.0.20. */
    return lua_test_exists(argv[i]) ? NULL : argv[i];
  }
  return NULL;
}

static void usage(FILE *out, const char *command)
{
  if (strcmp(command, "compare") == 0)
    fprintf(out,
            "Usage:\n"
            "  sysbench compare [--html=PAGE] RESULT.json [RESULT.json]...\n\n"
            "Shows the result files side by side, per thread count, with the ratios of each to\n"
            "the first: tps, qps, latency average, percentiles and maximum, errors. --html\n"
            "also writes a page with the tables and the charts (throughput and latency per\n"
            "thread count, latency percentiles, throughput over time).\n");
  else
    fprintf(out,
            "Usage:\n"
            "  sysbench merge [--report-file=TOTAL.json] RESULT.json RESULT.json...\n\n"
            "Combines the results of clients that ran together against one server or cluster\n"
            "into one result (counts added, latency histograms merged exactly, intervals\n"
            "aligned on the wall clock). The merged document goes to standard output, or to\n"
            "--report-file. Start the clients with the same --start-at to align their runs.\n");
}

static void release(result_doc *docs, size_t n)
{
  for (size_t i = 0; i < n; i++)
    result_doc_free(&docs[i]);
}

static int write_merged(const result_doc *merged, const char *path)
{
  if (path == NULL) {
    result_write_json(stdout, merged);
    return fflush(stdout) == 0 ? 0 : 1;
  }
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    fprintf(stderr, "FATAL: Cannot write '%s': %s\n", path, strerror(errno));
    return 1;
  }
  result_write_json(f, merged);
  if (fclose(f) != 0) {
    fprintf(stderr, "FATAL: Cannot write '%s': %s\n", path, strerror(errno));
    return 1;
  }
  return 0;
}

int results_command_main(const char *command, int argc, char **argv)
{
  bool merge = strcmp(command, "merge") == 0, seen_command = false;
  const char *files[MAX_FILES], *html = NULL, *report_file = NULL;
  size_t n = 0;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!seen_command && strcmp(a, command) == 0) {
      seen_command = true;
    } else if (strcmp(a, "help") == 0 && access(a, F_OK) != 0) {
      usage(stdout, command);
      return 0;
    } else if (!merge && strncmp(a, "--html=", 7) == 0 && a[7] != '\0') {
      html = a + 7;
    } else if (merge && strncmp(a, "--report-file=", 14) == 0 && a[14] != '\0') {
      report_file = a + 14;
    } else if (strncmp(a, "--", 2) == 0) {
      fprintf(stderr, "invalid option: %s\nHINT: sysbench %s takes %s and result files "
              "(usage: sysbench %s help)\n", a, command,
              merge ? "--report-file=PATH" : "--html=PATH", command);
      return 1;
    } else if (n == MAX_FILES) {
      fprintf(stderr, "FATAL: sysbench %s takes up to %d result files\n", command, MAX_FILES);
      return 1;
    } else {
      files[n++] = a;
    }
  }
  if (n < (merge ? 2u : 1u)) {
    fprintf(stderr, "FATAL: sysbench %s needs %s result file%s\n", command,
            merge ? "at least two" : "at least one", merge ? "s" : "");
    usage(stderr, command);
    return 1;
  }

  result_doc docs[MAX_FILES];
  for (size_t i = 0; i < n; i++) {
    char err[600];
    if (result_read_file(files[i], &docs[i], err, sizeof(err)) != 0) {
      fprintf(stderr, "FATAL: %s\n", err);
      release(docs, i);
      return 1;
    }
  }

  int rc = 0;
  if (merge) {
    result_doc merged;
    char err[600];
    /* Warnings (clients that did not start together) go to standard error with the rest;
       standard output carries the merged document alone. */
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    if (saved >= 0)
      dup2(STDERR_FILENO, STDOUT_FILENO);
    int merge_rc = merge_documents(docs, files, n, &merged, err, sizeof(err));
    fflush(stdout);
    if (saved >= 0) {
      dup2(saved, STDOUT_FILENO);
      close(saved);
    }
    if (merge_rc != 0) {
      fprintf(stderr, "FATAL: %s\n", err);
      rc = 1;
    } else {
      rc = write_merged(&merged, report_file);
      result_doc_free(&merged);
    }
  } else {
    figures_source src[MAX_FILES];
    static const char *const labels[MAX_FILES] = {
      "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q",
      "R", "S", "T", "U", "V", "W", "X", "Y", "Z"};
    for (size_t i = 0; i < n; i++)
      src[i] = (figures_source) { .doc = &docs[i], .label = labels[i], .name = files[i] };
    compare_print(stdout, src, n);
    if (html != NULL) {
      if (page_write_html(html, n > 1 ? "sysbench comparison" : "sysbench result", src,
                          n) != 0) {
        fprintf(stderr, "FATAL: Cannot write '%s': %s\n", html, strerror(errno));
        rc = 1;
      } else {
        printf("\nHTML page: %s\n", html);
      }
    }
  }
  release(docs, n);
  return rc;
}
