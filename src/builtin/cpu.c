/*
 * cpu.c: the `cpu` test. Each event counts the primes below --cpu-max-prime by trial
 * division, as sysbench 1.0 does, so events per second compare across versions.
 */
#include <math.h>
#include <stdint.h>

#include "logger.h"
#include "options.h"
#include "report.h"
#include "test.h"

static const sb_arg_t cpu_args[] = {
  {"cpu-max-prime", "upper limit for primes generator", "10000", SB_ARG_TYPE_INT, NULL},
  {NULL, NULL, NULL, SB_ARG_TYPE_NULL, NULL}
};

static unsigned max_prime;

static int cpu_init(void)
{
  int64_t n = opt_int("cpu-max-prime");
  if (n <= 0 || n > UINT32_MAX) {
    log_text(LOG_FATAL, "Invalid value of cpu-max-prime: %lld. (expected 1 to 4294967295)",
             (long long) n);
    return 1;
  }
  max_prime = (unsigned) n;
  return 0;
}

static void cpu_print_mode(void)
{
  log_text(LOG_NOTICE, "Prime numbers limit: %u\n", max_prime);
}

/* The result is published through a volatile so the compiler keeps the work. */
static volatile unsigned long long primes_found;

static int cpu_event(int thread_id)
{
  unsigned long long n = 0;
  (void) thread_id;

  for (unsigned long long c = 3; c < max_prime; c++) {
    double limit = sqrt((double) c);
    unsigned long long l;
    for (l = 2; l <= limit; l++)
      if (c % l == 0)
        break;
    if (l > limit)
      n++;
  }
  primes_found = n;
  return 0;
}

static void cpu_report_cumulative(sb_stat_t *stat)
{
  log_text(LOG_NOTICE, "CPU speed:");
  log_text(LOG_NOTICE, "    events per second: %8.2f",
           stat->time_interval > 0 ? (double) stat->events / stat->time_interval : 0);
  report_cumulative_general(stat);
}

sb_test cpu_test = {
  .name = "cpu",
  .description = "CPU performance test",
  .args = cpu_args,
  .ops = {
    .init = cpu_init,
    .print_mode = cpu_print_mode,
    .event = cpu_event,
    .report_cumulative = cpu_report_cumulative,
  },
};
