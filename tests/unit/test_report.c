/*
 * test_report.c: unit tests for the SQL intermediate line (report.c's report_sql_line), the
 * one formatter behind 1.0.20's C report and its Lua sysbench.report_default: the exact
 * bytes of both spellings, and what an empty interval gives in each.
 */
#include "report.h"
#include "tap.h"

#include <string.h>

static void check(const char *got, const char *want, const char *name)
{
  if (!ok(strcmp(got, want) == 0, "%s", name))
    printf("#   got  '%s'\n#   want '%s'\n", got, want);
}

int main(void)
{
  char line[512];

  report_sql_line(line, sizeof(line), 2, 1.0, 1234, 17276, 4936, 2468, "95", 1.23, 3, 1,
                  false);
  check(line, "thds: 2 tps: 1234.00 qps: 24680.00 (r/w/o: 17276.00/4936.00/2468.00) "
        "lat (ms,95%): 1.23 err/s: 3.00 reconn/s: 1.00",
        "the C report's line, 'err/s:' with its colon (1.0.20's db_report_intermediate)");
  report_sql_line(line, sizeof(line), 2, 1.0, 1234, 17276, 4936, 2468, "95", 1.23, 3, 1,
                  true);
  check(line, "thds: 2 tps: 1234.00 qps: 24680.00 (r/w/o: 17276.00/4936.00/2468.00) "
        "lat (ms,95%): 1.23 err/s 3.00 reconn/s: 1.00",
        "the Lua spelling: 'err/s' without a colon (1.0.20's sysbench.report_default)");
  report_sql_line(line, sizeof(line), 8, 0.5, 7, 0, 0, 3, "99.9", 12345.678, 0, 0, false);
  check(line, "thds: 8 tps: 14.00 qps: 6.00 (r/w/o: 0.00/0.00/6.00) "
        "lat (ms,99.9%): 12345.68 err/s: 0.00 reconn/s: 0.00",
        "rates are per second of the interval; the percentile is the text given");
  report_sql_line(line, sizeof(line), 1, 0, 5, 0, 0, 0, "95", 0, 0, 0, false);
  check(line, "thds: 1 tps: 0.00 qps: 0.00 (r/w/o: 0.00/0.00/0.00) "
        "lat (ms,95%): 0.00 err/s: 0.00 reconn/s: 0.00",
        "an empty interval: the C report prints zero rates");
  report_sql_line(line, sizeof(line), 1, 0, 5, 0, 0, 0, "95", 0, 0, 0, true);
  check(line, "thds: 1 tps:  inf qps:  nan (r/w/o:  nan/ nan/ nan) "
        "lat (ms,95%): 0.00 err/s  nan reconn/s:  nan",
        "... the Lua spelling divides anyway, and writes NaN as Lua does ('nan', not '-nan')");
  int n = report_sql_line(line, 16, 1, 1, 1, 1, 1, 1, "95", 1, 1, 1, false);
  ok(n > 16 && strlen(line) == 15, "a short buffer holds a cut line and the length is the whole");
  return tap_done();
}
