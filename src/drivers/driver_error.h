/*
 * driver_error.h: the one class of driver errors. Each driver's rules map what its server or
 * engine reports (a MySQL error number, a SQLSTATE, a TiDB code, a RocksDB status) to one of
 * these; what happens then -- a retry, a rollback, a reconnect, the end of the run -- follows
 * from the class alone.
 */
#ifndef SB_DRIVER_ERROR_H
#define SB_DRIVER_ERROR_H

typedef enum {
  DRIVER_ERROR_NONE,                 /* the call succeeded */
  DRIVER_ERROR_IGNORE,               /* count an ignored error and retry the event */
  DRIVER_ERROR_RESTART_TRANSACTION,  /* the transaction is aborted: roll it back, count the
                                        error and retry the event */
  DRIVER_ERROR_RECONNECT,            /* the connection is gone: reconnect, count a reconnect
                                        and retry the event */
  DRIVER_ERROR_FATAL                 /* stop the run */
} driver_error_class;

#endif
