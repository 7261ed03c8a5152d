/*
 * socket_io.h: fewer system calls per query with MariaDB Connector/C (socket_io.c).
 */
#ifndef SB_MYSQL_SOCKET_IO_H
#define SB_MYSQL_SOCKET_IO_H

#include <stdbool.h>

#include <mysql.h>

/* After a connect: make the client library read and write its socket with plain blocking
   calls (one recv per response instead of recv + EAGAIN + poll + recv). Returns false, and
   changes nothing, where that is not possible (TLS, other client libraries). */
bool mysqldrv_socket_io_attach(MYSQL *mysql);
/* The client library holds no unread bytes of this connection. */
bool mysqldrv_socket_io_idle(MYSQL *mysql);

#endif
