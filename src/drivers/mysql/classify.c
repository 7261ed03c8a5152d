/*
 * classify.c: what a server or client-library error means for the run. --mysql-ignore-errors
 * lists the errors that restart the event instead of stopping the run ("all" for every
 * error); a lost connection among them is to be reconnected first. A layered driver (TiDB)
 * may reclassify any error through its hook. No I/O here: unit tests link this file alone.
 */
#include <errmsg.h>

#include "drivers/mysql/classify.h"
#include "drivers/mysql/hooks.h"
#include "drivers/mysql/settings.h"

bool mysqldrv_is_connection_loss(unsigned sql_errno)
{
  switch (sql_errno) {
    case CR_SERVER_GONE_ERROR:      /* 2006 */
    case CR_SERVER_LOST:            /* 2013 */
    case CR_TCP_CONNECTION:         /* 2011 */
    case 2055:                      /* CR_SERVER_LOST_EXTENDED (libmysqlclient) */
      return true;
    default:
      return false;
  }
}

driver_error_class mysqldrv_classify_error(unsigned sql_errno, const char *sql_state)
{
  driver_error_class chosen = DRIVER_ERROR_FATAL;

  if (error_codes_has_number(&mysqldrv_config.ignored, sql_errno))
    chosen = mysqldrv_is_connection_loss(sql_errno) ? DRIVER_ERROR_RECONNECT
                                                    : DRIVER_ERROR_IGNORE;
  if (mysqldrv_active_hooks.classify != NULL)
    chosen = mysqldrv_active_hooks.classify(sql_errno, sql_state, chosen);
  return chosen;
}

