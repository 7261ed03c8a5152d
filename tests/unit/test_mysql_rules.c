/*
 * test_mysql_rules.c: unit tests for the mysql driver's rules that need no server: which
 * errors are fatal, ignorable or a lost connection to reconnect (--mysql-ignore-errors, "all",
 * a layered driver's hook), and the order in which connections take hosts, ports and sockets.
 */
#include "drivers/mysql/mysql_driver.h"
#include "tap.h"

#include <string.h>

mysqldrv_settings mysqldrv_config;

static void ignore(const unsigned *codes, size_t n, bool all)
{
  static unsigned list[16];
  if (n > 0)
    memcpy(list, codes, n * sizeof(unsigned));
  mysqldrv_config.ignored = (error_code_list) {.all = all, .count = n, .numbers = list};
}

/* A layered driver's hook: 9007 restarts the transaction, 8004 is fatal whatever the list
   says. */
static driver_error_class tidb_like(unsigned sql_errno, const char *sql_state,
                                    driver_error_class chosen)
{
  (void) sql_state;
  if (sql_errno == 9007)
    return DRIVER_ERROR_IGNORE;
  if (sql_errno == 8004)
    return DRIVER_ERROR_FATAL;
  return chosen;
}

static void test_classification(void)
{
  const unsigned defaults[] = {1213, 1020, 1205};
  ignore(defaults, 3, false);
  ok(mysqldrv_classify_error(1213, "40001") == DRIVER_ERROR_IGNORE,
     "default list: 1213 (deadlock) is ignorable");
  ok(mysqldrv_classify_error(1205, "HY000") == DRIVER_ERROR_IGNORE,
     "default list: 1205 (lock wait timeout) is ignorable");
  ok(mysqldrv_classify_error(1146, "42S02") == DRIVER_ERROR_FATAL,
     "default list: 1146 (no such table) is fatal");
  ok(mysqldrv_classify_error(2013, "HY000") == DRIVER_ERROR_FATAL,
     "default list: a lost connection (2013) is fatal");

  const unsigned lost[] = {2013, 2006};
  ignore(lost, 2, false);
  ok(mysqldrv_classify_error(2013, "HY000") == DRIVER_ERROR_RECONNECT,
     "2013 listed: reconnect");
  ok(mysqldrv_classify_error(2006, "HY000") == DRIVER_ERROR_RECONNECT,
     "2006 listed: reconnect");
  ok(mysqldrv_classify_error(2011, "HY000") == DRIVER_ERROR_FATAL,
     "2011 not listed: fatal");
  ok(mysqldrv_classify_error(1213, "40001") == DRIVER_ERROR_FATAL,
     "1213 not listed: fatal");

  ignore(NULL, 0, true);
  ok(mysqldrv_classify_error(1146, "42S02") == DRIVER_ERROR_IGNORE,
     "all: any server error is ignorable");
  ok(mysqldrv_classify_error(2011, "HY000") == DRIVER_ERROR_RECONNECT &&
         mysqldrv_classify_error(2055, "HY000") == DRIVER_ERROR_RECONNECT,
     "all: 2011 and 2055 reconnect");

  ok(mysqldrv_is_connection_loss(2006) && mysqldrv_is_connection_loss(2013) &&
         mysqldrv_is_connection_loss(2011) && mysqldrv_is_connection_loss(2055) &&
         !mysqldrv_is_connection_loss(2002) && !mysqldrv_is_connection_loss(1927),
     "connection loss is exactly 2006, 2013, 2011, 2055");

  ignore(defaults, 3, false);
  mysqldrv_set_hooks(&(mysqldrv_hooks) {.classify = tidb_like});
  ok(mysqldrv_classify_error(9007, "HY000") == DRIVER_ERROR_IGNORE,
     "a hook can make an unlisted error ignorable");
  ok(mysqldrv_classify_error(1213, "40001") == DRIVER_ERROR_IGNORE,
     "the hook sees the list's decision and may keep it");
  ignore(NULL, 0, true);
  ok(mysqldrv_classify_error(8004, "HY000") == DRIVER_ERROR_FATAL,
     "a hook can make an error fatal even under 'all'");
  mysqldrv_set_hooks(&(mysqldrv_hooks) {0});
}

/* --mysql-ignore-errors and the TiDB lists go through the one parser of error-code lists. */
static void test_code_lists(void)
{
  error_code_list list = {0};
  const char *const good[] = {"1213", "1020", "1205"};
  ok(error_codes_parse(&list, ERROR_CODES_NUMBERS, true, good, 3) == NULL &&
         error_codes_has_number(&list, 1020) && !error_codes_has_number(&list, 1146) &&
         !list.all,
     "1213,1020,1205 lists exactly those numbers");
  const char *const all[] = {"1213", "ALL"};
  ok(error_codes_parse(&list, ERROR_CODES_NUMBERS, true, all, 2) == NULL && list.all &&
         error_codes_has_number(&list, 1146),
     "\"all\" (in any case) lists every number");
  const char *bad = error_codes_parse(&list, ERROR_CODES_NUMBERS, false, all, 2);
  ok(bad != NULL && strcmp(bad, "ALL") == 0, "\"all\" is refused where a list takes none");
  const char *const out_of_range[] = {"1213", "65536"};
  bad = error_codes_parse(&list, ERROR_CODES_NUMBERS, true, out_of_range, 2);
  ok(bad != NULL && strcmp(bad, "65536") == 0, "a number past 65535 is named as the bad one");
  const char *const not_a_number[] = {"12x"};
  bad = error_codes_parse(&list, ERROR_CODES_NUMBERS, true, not_a_number, 1);
  ok(bad != NULL && strcmp(bad, "12x") == 0, "an item that is not a number is refused");
  error_codes_free(&list);
}

static void test_rotation(void)
{
  static const char *const hosts[] = {"h1", "h2"};
  static unsigned ports[] = {3306, 3307, 3308};
  mysqldrv_endpoint ep;
  char text[300];
  unsigned start;

  mysqldrv_config.hosts = hosts;
  mysqldrv_config.host_count = 2;
  mysqldrv_config.ports = ports;
  mysqldrv_config.port_count = 3;
  mysqldrv_config.socket_count = 0;
  ok(mysqldrv_endpoint_count() == 6, "2 hosts x 3 ports: 6 endpoints");

  /* find the rotation's start (the counter is process-wide) */
  do
    mysqldrv_next_endpoint(&ep);
  while (ep.index != 5);
  const char *want_host[] = {"h1", "h1", "h1", "h2", "h2", "h2", "h1"};
  unsigned want_port[] = {3306, 3307, 3308, 3306, 3307, 3308, 3306};
  bool in_order = true;
  for (int i = 0; i < 7; i++) {
    mysqldrv_next_endpoint(&ep);
    in_order &= strcmp(ep.host, want_host[i]) == 0 && ep.port == want_port[i] &&
                ep.socket == NULL;
  }
  ok(in_order, "connections take ports fastest, then hosts, and wrap around (1.0.20's order)");
  mysqldrv_describe_endpoint(&ep, text, sizeof(text));
  ok(strcmp(text, "host 'h1', port 3306") == 0, "an endpoint describes itself: %s", text);

  static const char *const sockets[] = {"/tmp/a.sock", "/tmp/b.sock"};
  mysqldrv_config.sockets = sockets;
  mysqldrv_config.socket_count = 2;
  ok(mysqldrv_endpoint_count() == 2, "sockets replace host x port");
  mysqldrv_next_endpoint(&ep);
  start = ep.index;
  mysqldrv_next_endpoint(&ep);
  ok(ep.index == (start + 1) % 2 && strcmp(ep.host, "localhost") == 0 && ep.port == 0 &&
         strcmp(ep.socket, sockets[ep.index]) == 0,
     "sockets rotate, with host 'localhost' and no port");
  mysqldrv_describe_endpoint(&ep, text, sizeof(text));
  ok(strncmp(text, "socket '/tmp/", 13) == 0, "a socket endpoint describes itself: %s", text);
}

int main(void)
{
  test_classification();
  test_code_lists();
  test_rotation();
  return tap_done();
}
