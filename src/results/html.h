/*
 * html.h: a self-contained HTML page (inline style, inline SVG charts, no scripts and nothing
 * fetched over the network) with headings, text, tables and charts.
 */
#ifndef SB_RESULTS_HTML_H
#define SB_RESULTS_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "results/svg.h"

void html_begin(FILE *out, const char *title);
void html_heading(FILE *out, int level, const char *text);
void html_paragraph(FILE *out, const char *text);
/* A table: html_table_begin, html_table_row for each row (the first row can be the header
   with header = 1), html_table_end. Cells are text; numbers are right-aligned. */
void html_table_begin(FILE *out);
void html_table_row(FILE *out, const char *const *cells, size_t n, int header);
/* A row with a class of its own ("failed": a run that did not end well, shown in red). */
void html_table_row_class(FILE *out, const char *const *cells, size_t n, int header,
                          const char *row_class);
void html_table_end(FILE *out);
/* A command line, its words separated by blanks, in a box of its own ("A: sysbench ..."). */
void html_command(FILE *out, const char *label, const char *const *words, size_t n);
/* Warnings, one line each ("WARNING: ..."), in a yellow box; nothing when n is 0. */
void html_warnings(FILE *out, const char *const *lines, size_t n);
void html_chart(FILE *out, const chart *c);
void html_end(FILE *out);

#endif
