/*
 * sbtest_rows.h: the rows of the sbtest tables the OLTP workloads use, generated row by row
 * from (seed, table, id) alone, so a table has the same contents whichever thread loads which
 * of its rows, in any order, in one go or resumed; and their text forms for the loaders.
 */
#ifndef SB_SBTEST_ROWS_H
#define SB_SBTEST_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest c or pad template a loader takes (the columns are CHAR(120) and CHAR(60)). */
#define SBTEST_STRING_MAX 255
/* Room one row's text form needs, in any format. */
#define SBTEST_ROW_TEXT_MAX (2 * 24 + 2 * SBTEST_STRING_MAX + 16)

/* The rows of one table. */
typedef struct {
  uint64_t seed;               /* the --rand-seed in effect when the rows were generated */
  uint32_t table;              /* N of sbtestN */
  uint64_t table_size;         /* k is drawn from 1..table_size with --rand-type */
  const char *c_template;      /* sysbench.rand.string templates ('#' digit, '@' letter) */
  const char *pad_template;
  size_t c_len, pad_len;
} sbtest_rows;

typedef struct {
  int64_t id;
  int64_t k;
  char c[SBTEST_STRING_MAX];
  char pad[SBTEST_STRING_MAX];
} sbtest_row;

/* Fills `rows`; false (and a reason) when a template is too long or holds a character the
   text forms cannot carry unescaped (quote, backslash, tab, newline, a control character). */
bool sbtest_rows_init(sbtest_rows *rows, uint64_t seed, uint32_t table, uint64_t table_size,
                      const char *c_template, const char *pad_template, const char **why);

/* Row `id`: draws c, then pad, then k (1.0.20's order) from the row's own stream. */
void sbtest_row_make(const sbtest_rows *rows, int64_t id, sbtest_row *row);

/* Text forms, written at `out` (SBTEST_ROW_TEXT_MAX bytes of room); return the length.
   Tab-separated "id\tk\tc\tpad\n" (LOAD DATA, COPY) and "(id,k,'c','pad')" (INSERT). */
size_t sbtest_row_tsv(const sbtest_rows *rows, const sbtest_row *row, char *out);
size_t sbtest_row_values(const sbtest_rows *rows, const sbtest_row *row, char *out);

#endif
