/*
 * db.c: the database layer's state shared by all drivers, and the reports of Lua tests: the
 * SQL layout once a script created a driver, the plain one otherwise.
 */
#include <stdbool.h>

#include "db.h"
#include "report.h"

static bool driver_created;

bool db_used(void)
{
  return __atomic_load_n(&driver_created, __ATOMIC_ACQUIRE);
}

void db_report_intermediate(sb_stat_t *stat)
{
  if (db_used())
    report_intermediate_sql(stat);
  else
    report_intermediate_default(stat);
}

void db_report_cumulative(sb_stat_t *stat)
{
  if (db_used())
    report_cumulative_sql(stat);
  report_cumulative_general(stat);
}

void db_done(void)
{
}
