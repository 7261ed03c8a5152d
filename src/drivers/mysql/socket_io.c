/*
 * socket_io.c: fewer system calls per query with MariaDB Connector/C.
 *
 * Connector/C reads a response with recv(MSG_DONTWAIT); the server has not answered yet, so
 * that returns EAGAIN, then it poll()s, then it recv()s again: four system calls per query
 * with the send. Its socket is in blocking mode after the connect, so a plain blocking recv()
 * does the same work in one call, and the thread sleeps in it exactly as it slept in poll().
 * After each plain-text connect we point the handle's I/O methods at a copy of the library's
 * socket methods whose read and write are those blocking calls; everything else (connect,
 * close, timeouts, TLS, which has its own path) stays the library's.
 *
 * The method table is Connector/C's plugin interface (ma_pvio.h). It is used only when the
 * library found at run time has the major.minor version of the headers we were built with,
 * and SYSBENCH_MYSQL_LIBRARY_IO=1 in the environment turns this off (and with it the wire path,
 * wire.c, which needs the socket in this state).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "drivers/mysql/socket_io.h"
#include "logger.h"

#if defined(MARIADB_PACKAGE_VERSION_ID) && defined(HAVE_MA_PVIO_H)

#include <ma_pvio.h>

static pthread_mutex_t setup_mutex = PTHREAD_MUTEX_INITIALIZER;
static bool setup_done, usable;
static const PVIO_METHODS *library_methods;   /* the socket plugin's own table */
static PVIO_METHODS blocking_methods;         /* a copy with read/write replaced */

static int socket_of(MARIADB_PVIO *pvio)
{
  my_socket fd = -1;
  if (library_methods->get_handle(pvio, &fd) != 0)
    return -1;
  return (int) fd;
}

static ssize_t blocking_read(MARIADB_PVIO *pvio, uchar *buffer, size_t length)
{
  int fd = socket_of(pvio);
  ssize_t r;

  if (fd < 0)
    return -1;
  do
    r = recv(fd, buffer, length, 0);
  while (r < 0 && errno == EINTR);
  return r;
}

static ssize_t blocking_write(MARIADB_PVIO *pvio, const uchar *buffer, size_t length)
{
  int fd = socket_of(pvio);
  ssize_t r;

  if (fd < 0)
    return -1;
  do
    r = send(fd, buffer, length, MSG_NOSIGNAL);
  while (r < 0 && errno == EINTR);
  return r;
}

static bool same_library_version(void)
{
  unsigned long runtime = mysql_get_client_version();
  return runtime / 100 == (unsigned long) MARIADB_PACKAGE_VERSION_ID / 100;
}

static bool set_up(MARIADB_PVIO *pvio)
{
  pthread_mutex_lock(&setup_mutex);
  if (!setup_done) {
    const char *off = getenv("SYSBENCH_MYSQL_LIBRARY_IO");
    usable = (off == NULL || *off == '\0' || *off == '0') && same_library_version() &&
             pvio->methods != NULL && pvio->methods->get_handle != NULL &&
             pvio->methods->is_blocking != NULL;
    if (usable) {
      library_methods = pvio->methods;
      blocking_methods = *pvio->methods;
      blocking_methods.read = blocking_read;
      blocking_methods.write = blocking_write;
    }
    log_text(LOG_DEBUG, "mysql: %s socket I/O", usable ? "blocking" : "client library's");
    setup_done = true;
  }
  pthread_mutex_unlock(&setup_mutex);
  return usable;
}

bool mysqldrv_socket_io_attach(MYSQL *mysql)
{
  MARIADB_PVIO *pvio = mysql->net.pvio;

  if (pvio == NULL || pvio->ctls != NULL ||
      (pvio->type != PVIO_TYPE_SOCKET && pvio->type != PVIO_TYPE_UNIXSOCKET))
    return false;
  if (pvio->methods == &blocking_methods)
    return true;
  if (!set_up(pvio) || pvio->methods != library_methods || !library_methods->is_blocking(pvio))
    return false;
  pvio->methods = &blocking_methods;
  return true;
}

bool mysqldrv_socket_io_idle(MYSQL *mysql)
{
  MARIADB_PVIO *pvio = mysql->net.pvio;
  /* the read-ahead cache holds bytes from cache_pos to cache + cache_size */
  return pvio != NULL && (pvio->cache == NULL || pvio->cache_pos >= pvio->cache + pvio->cache_size);
}

#else

/* libmysqlclient reads a blocking socket already. */
bool mysqldrv_socket_io_attach(MYSQL *mysql)
{
  (void) mysql;
  return false;
}

bool mysqldrv_socket_io_idle(MYSQL *mysql)
{
  (void) mysql;
  return false;
}

#endif
