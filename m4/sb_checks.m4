# sb_checks.m4: configure checks for pthreads, the optional database client libraries and libaio.

# AX_PTHREAD_SIMPLE: every platform this project targets (glibc, musl) takes -pthread.
AC_DEFUN([AX_PTHREAD_SIMPLE], [
  PTHREAD_CFLAGS="-pthread"
  PTHREAD_LIBS="-pthread"
  AC_SUBST([PTHREAD_CFLAGS])
  AC_SUBST([PTHREAD_LIBS])
])

# SB_CHECK_MYSQL: --with-mysql[=PATH]. Tries, in order, PATH/bin/mysql_config,
# mariadb_config, mysql_config, then pkg-config (libmariadb, mysqlclient).
AC_DEFUN([SB_CHECK_MYSQL], [
  AC_ARG_WITH([mysql],
    [AS_HELP_STRING([--with-mysql[=PATH]],
      [build the MySQL and TiDB drivers (default: if a client library is found); PATH is a
       directory holding bin/mysql_config or bin/mariadb_config])],
    [], [with_mysql=check])
  sb_mysql_summary=no
  MYSQL_CFLAGS=""
  MYSQL_LIBS=""
  AS_IF([test "x$with_mysql" != xno], [
    sb_mysql_config=""
    AS_IF([test "x$with_mysql" != xyes && test "x$with_mysql" != xcheck], [
      for c in "$with_mysql/bin/mariadb_config" "$with_mysql/bin/mysql_config"; do
        AS_IF([test -x "$c"], [sb_mysql_config="$c"; break])
      done
    ], [
      AC_PATH_PROGS([sb_mysql_config], [mariadb_config mysql_config])
    ])
    AS_IF([test -n "$sb_mysql_config"], [
      MYSQL_CFLAGS=`$sb_mysql_config --include`
      MYSQL_LIBS=`$sb_mysql_config --libs`
    ], [
      PKG_CHECK_MODULES([MYSQL], [libmariadb], [],
        [PKG_CHECK_MODULES([MYSQL], [mysqlclient], [], [:])])
    ])
    sb_save_CFLAGS="$CFLAGS"; sb_save_LIBS="$LIBS"
    CFLAGS="$CFLAGS $MYSQL_CFLAGS"; LIBS="$MYSQL_LIBS $LIBS"
    AC_MSG_CHECKING([for a usable MySQL client library])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mysql.h>]],
                     [[MYSQL *m = mysql_init(0); mysql_close(m);]])],
      [AC_MSG_RESULT([yes]); sb_mysql_summary="yes ($MYSQL_LIBS)"],
      [AC_MSG_RESULT([no])])
    AS_IF([test "x$sb_mysql_summary" != xno], [
      # What the client library offers: Oracle's ssl-mode and compression algorithms, and
      # MariaDB Connector/C's I/O plugin interface (the driver's blocking socket reads).
      CPPFLAGS_save="$CPPFLAGS"; CPPFLAGS="$CPPFLAGS $MYSQL_CFLAGS"
      AC_CHECK_DECL([MYSQL_OPT_SSL_MODE],
        [AC_DEFINE([HAVE_MYSQL_OPT_SSL_MODE], [1], [libmysqlclient has MYSQL_OPT_SSL_MODE])],
        [], [[#include <mysql.h>]])
      AC_CHECK_DECL([MYSQL_OPT_COMPRESSION_ALGORITHMS],
        [AC_DEFINE([HAVE_MYSQL_OPT_COMPRESSION_ALGORITHMS], [1],
          [libmysqlclient has MYSQL_OPT_COMPRESSION_ALGORITHMS])],
        [], [[#include <mysql.h>]])
      AC_CHECK_HEADER([ma_pvio.h],
        [AC_DEFINE([HAVE_MA_PVIO_H], [1], [MariaDB Connector/C I/O plugin header])],
        [], [[#include <mysql.h>]])
      CPPFLAGS="$CPPFLAGS_save"
    ])
    CFLAGS="$sb_save_CFLAGS"; LIBS="$sb_save_LIBS"
    AS_IF([test "x$sb_mysql_summary" = xno && test "x$with_mysql" != xcheck],
      [AC_MSG_ERROR([--with-mysql given but no MySQL client library found: install libmariadb-dev])])
  ])
  AS_IF([test "x$sb_mysql_summary" != xno], [AC_DEFINE([USE_MYSQL], [1], [MySQL/TiDB drivers])])
  AM_CONDITIONAL([USE_MYSQL], [test "x$sb_mysql_summary" != xno])
  AC_SUBST([MYSQL_CFLAGS])
  AC_SUBST([MYSQL_LIBS])
])

# SB_CHECK_ROCKSDB: --with-rocksdb[=PATH] (PATH holds include/rocksdb/c.h and lib/).
AC_DEFUN([SB_CHECK_ROCKSDB], [
  AC_ARG_WITH([rocksdb],
    [AS_HELP_STRING([--with-rocksdb[=PATH]],
      [build the embedded RocksDB driver (default: if librocksdb is found)])],
    [], [with_rocksdb=check])
  sb_rocksdb_summary=no
  ROCKSDB_CFLAGS=""
  ROCKSDB_LIBS="-lrocksdb"
  AS_IF([test "x$with_rocksdb" != xno], [
    AS_IF([test "x$with_rocksdb" != xyes && test "x$with_rocksdb" != xcheck], [
      ROCKSDB_CFLAGS="-I$with_rocksdb/include"
      ROCKSDB_LIBS="-L$with_rocksdb/lib -lrocksdb"
    ])
    sb_save_CFLAGS="$CFLAGS"; sb_save_LIBS="$LIBS"
    CFLAGS="$CFLAGS $ROCKSDB_CFLAGS"; LIBS="$ROCKSDB_LIBS $LIBS"
    AC_MSG_CHECKING([for the RocksDB C API])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <rocksdb/c.h>]],
                     [[rocksdb_options_t *o = rocksdb_options_create(); rocksdb_options_destroy(o);]])],
      [AC_MSG_RESULT([yes]); sb_rocksdb_summary="yes ($ROCKSDB_LIBS)"],
      [AC_MSG_RESULT([no])])
    CFLAGS="$sb_save_CFLAGS"; LIBS="$sb_save_LIBS"
    AS_IF([test "x$sb_rocksdb_summary" = xno && test "x$with_rocksdb" != xcheck],
      [AC_MSG_ERROR([--with-rocksdb given but librocksdb not found: install librocksdb-dev])])
  ])
  AS_IF([test "x$sb_rocksdb_summary" != xno], [AC_DEFINE([USE_ROCKSDB], [1], [RocksDB driver])],
        [ROCKSDB_LIBS=""])
  AM_CONDITIONAL([USE_ROCKSDB], [test "x$sb_rocksdb_summary" != xno])
  AC_SUBST([ROCKSDB_CFLAGS])
  AC_SUBST([ROCKSDB_LIBS])
])

# SB_CHECK_PGSQL: --with-pgsql[=PATH]. libpq from pkg-config (libpq.pc), else from
# pg_config (PATH/bin/pg_config when PATH is given, else the first on $PATH).
AC_DEFUN([SB_CHECK_PGSQL], [
  AC_ARG_WITH([pgsql],
    [AS_HELP_STRING([--with-pgsql[=PATH]],
      [build the PostgreSQL driver (default: if libpq is found); PATH is a directory
       holding bin/pg_config])],
    [], [with_pgsql=check])
  sb_pgsql_summary=no
  PGSQL_CFLAGS=""
  PGSQL_LIBS=""
  AS_IF([test "x$with_pgsql" != xno], [
    sb_pg_config=""
    AS_IF([test "x$with_pgsql" != xyes && test "x$with_pgsql" != xcheck], [
      AS_IF([test -x "$with_pgsql/bin/pg_config"], [sb_pg_config="$with_pgsql/bin/pg_config"],
        [AC_MSG_ERROR([--with-pgsql=$with_pgsql: no $with_pgsql/bin/pg_config])])
    ], [
      PKG_CHECK_MODULES([PGSQL], [libpq], [],
        [AC_PATH_PROGS([sb_pg_config], [pg_config])])
    ])
    AS_IF([test -n "$sb_pg_config"], [
      PGSQL_CFLAGS="-I`$sb_pg_config --includedir`"
      PGSQL_LIBS="-L`$sb_pg_config --libdir` -lpq"
    ])
    sb_save_CFLAGS="$CFLAGS"; sb_save_LIBS="$LIBS"
    CFLAGS="$CFLAGS $PGSQL_CFLAGS"; LIBS="$PGSQL_LIBS $LIBS"
    AC_MSG_CHECKING([for a usable libpq])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <libpq-fe.h>]],
                     [[PGconn *c = PQconnectdb(""); PQfinish(c); return PQlibVersion() > 0 ? 0 : 1;]])],
      [AC_MSG_RESULT([yes]); sb_pgsql_summary="yes ($PGSQL_LIBS)"],
      [AC_MSG_RESULT([no])])
    CFLAGS="$sb_save_CFLAGS"; LIBS="$sb_save_LIBS"
    AS_IF([test "x$sb_pgsql_summary" = xno && test "x$with_pgsql" != xcheck],
      [AC_MSG_ERROR([--with-pgsql given but libpq not found: install libpq-dev])])
  ])
  AS_IF([test "x$sb_pgsql_summary" != xno], [AC_DEFINE([USE_PGSQL], [1], [PostgreSQL driver])],
        [PGSQL_CFLAGS=""; PGSQL_LIBS=""])
  AM_CONDITIONAL([USE_PGSQL], [test "x$sb_pgsql_summary" != xno])
  AC_SUBST([PGSQL_CFLAGS])
  AC_SUBST([PGSQL_LIBS])
])

# SB_CHECK_LIBAIO: --with-libaio (default: if found). Linux native AIO for fileio's
# --file-io-mode=async; without it that mode stops with one clear error.
AC_DEFUN([SB_CHECK_LIBAIO], [
  AC_ARG_WITH([libaio],
    [AS_HELP_STRING([--with-libaio],
      [use Linux native AIO for fileio's async mode (default: if libaio is found)])],
    [], [with_libaio=check])
  sb_libaio_summary=no
  AIO_LIBS=""
  AS_IF([test "x$with_libaio" != xno], [
    sb_save_LIBS="$LIBS"; LIBS="-laio $LIBS"
    AC_MSG_CHECKING([for libaio])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <libaio.h>]],
                     [[io_context_t ctx = 0; io_queue_init(1, &ctx); io_queue_release(ctx);]])],
      [AC_MSG_RESULT([yes]); sb_libaio_summary="yes (-laio)"; AIO_LIBS="-laio"],
      [AC_MSG_RESULT([no])])
    LIBS="$sb_save_LIBS"
    AS_IF([test "x$sb_libaio_summary" = xno && test "x$with_libaio" = xyes],
      [AC_MSG_ERROR([--with-libaio given but libaio not found: install libaio-dev])])
  ])
  AS_IF([test "x$sb_libaio_summary" != xno],
        [AC_DEFINE([HAVE_LIBAIO], [1], [Linux native AIO (libaio) for fileio's async mode])])
  AC_SUBST([AIO_LIBS])
])
