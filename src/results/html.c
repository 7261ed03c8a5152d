/*
 * html.c: the pages of html.h. One inline style sheet; charts are the SVG of svg.c written
 * into the page, so the file opens the same anywhere, offline, with no scripts.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "results/html.h"

static const char style[] =
  "body{font-family:'DejaVu Sans',Arial,Helvetica,sans-serif;margin:24px;color:#222;"
  "background:#fff}"
  "h1{font-size:22px}h2{font-size:18px;margin-top:28px}"
  "table{border-collapse:collapse;margin:8px 0 16px}"
  "th,td{border:1px solid #ccc;padding:4px 10px;font-size:13px}"
  "th{background:#f2f2f2;text-align:left}td.num{text-align:right;"
  "font-variant-numeric:tabular-nums}"
  "figure{display:inline-block;margin:8px 16px 16px 0;border:1px solid #ddd}"
  "p.note{color:#555;font-size:13px}"
  /* Colours of their own (tests/cli/results_render.t finds these boxes in screenshots). */
  "div.warnings{background:#fff3cd;border:1px solid #d39e00;padding:2px 12px;margin:12px 0;"
  "max-width:1200px}div.warnings p{font-size:13px;margin:6px 0}"
  "pre.command{background:#e3ebf6;border:1px solid #b8c7dc;padding:8px 12px;font-size:13px;"
  "white-space:pre-wrap;word-break:break-all;max-width:1200px}"
  "tr.failed td{background:#f8d7da}";

void html_begin(FILE *out, const char *title)
{
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
  svg_escape(out, title);
  fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
}

void html_heading(FILE *out, int level, const char *text)
{
  fprintf(out, "<h%d>", level);
  svg_escape(out, text);
  fprintf(out, "</h%d>\n", level);
}

void html_paragraph(FILE *out, const char *text)
{
  fputs("<p class=\"note\">", out);
  svg_escape(out, text);
  fputs("</p>\n", out);
}

void html_table_begin(FILE *out)
{
  fputs("<table>\n", out);
}

/* "1234.5", "-0.25", "1.21x", "8" are numbers; "oltp_read_only" is not. */
static bool looks_numeric(const char *s)
{
  bool digit = false;
  for (; *s; s++) {
    if (isdigit((unsigned char) *s))
      digit = true;
    else if (strncmp(s, "\xc2\xb1", 2) == 0)    /* the ± of a noise band */
      s++;
    else if (*s != '.' && *s != '-' && *s != '+' && *s != 'x' && *s != '%' && *s != 'e' &&
             *s != ' ' && *s != '?')
      return false;
  }
  return digit;
}

void html_table_row(FILE *out, const char *const *cells, size_t n, int header)
{
  html_table_row_class(out, cells, n, header, NULL);
}

void html_table_row_class(FILE *out, const char *const *cells, size_t n, int header,
                          const char *row_class)
{
  if (row_class != NULL)
    fprintf(out, "<tr class=\"%s\">", row_class);
  else
    fputs("<tr>", out);
  for (size_t i = 0; i < n; i++) {
    const char *tag = header ? "th" : "td";
    if (!header && looks_numeric(cells[i] ? cells[i] : ""))
      fprintf(out, "<%s class=\"num\">", tag);
    else
      fprintf(out, "<%s>", tag);
    svg_escape(out, cells[i]);
    fprintf(out, "</%s>", tag);
  }
  fputs("</tr>\n", out);
}

void html_table_end(FILE *out)
{
  fputs("</table>\n", out);
}

void html_command(FILE *out, const char *label, const char *const *words, size_t n)
{
  fputs("<pre class=\"command\">", out);
  if (label != NULL) {
    svg_escape(out, label);
    fputs(": ", out);
  }
  for (size_t i = 0; i < n; i++) {
    if (i > 0)
      fputc(' ', out);
    svg_escape(out, words[i]);
  }
  fputs("</pre>\n", out);
}

void html_warnings(FILE *out, const char *const *lines, size_t n)
{
  if (n == 0)
    return;
  fputs("<div class=\"warnings\">\n", out);
  for (size_t i = 0; i < n; i++) {
    fputs("<p>WARNING: ", out);
    svg_escape(out, lines[i]);
    fputs("</p>\n", out);
  }
  fputs("</div>\n", out);
}

void html_chart(FILE *out, const chart *c)
{
  fputs("<figure>\n", out);
  svg_chart(out, c, 0, 0);
  fputs("</figure>\n", out);
}

void html_end(FILE *out)
{
  fputs("</body>\n</html>\n", out);
}
