/*
 * result_io.h: the result document to and from its JSON file (schema: docs/results.md).
 */
#ifndef SB_RESULTS_RESULT_IO_H
#define SB_RESULTS_RESULT_IO_H

#include <stddef.h>
#include <stdio.h>

#include "results/result.h"

void result_write_json(FILE *out, const result_doc *d);
void result_write_run_json(FILE *out, const result_run *r);

/* Read a result document from text. On error returns -1 with one line in err saying where
   ("runs[0].final.events: expected a non-negative integer") and what was expected. */
int result_read_text(const char *text, size_t len, result_doc *out, char *err, size_t errlen);
/* The same from a file ("-" is standard input); err names the file. */
int result_read_file(const char *path, result_doc *out, char *err, size_t errlen);

#endif
