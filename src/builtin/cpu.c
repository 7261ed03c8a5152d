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

static const option_decl cpu_args[] = {
  {.name = "cpu-max-prime", .desc = "upper limit for primes generator",
   .default_text = "10000", .type = SB_ARG_TYPE_INT, .ranged = true, .min = 1,
   .max = UINT32_MAX, .compat_error = "FATAL: Invalid value of cpu-max-prime: %s."},
  {.name = NULL}
};

static unsigned max_prime;

static int cpu_init(void)
{
  max_prime = (unsigned) opt_int("cpu-max-prime");    /* range checked by its declaration */
  return 0;
}

static void cpu_print_mode(void)
{
  log_text(LOG_INFO, "Doing CPU performance benchmark\n");
  log_text(LOG_NOTICE, "Prime numbers limit: %u\n", max_prime);
}

static int cpu_event(worker *w)
{
  unsigned long long n = 0;
  (void) w;

  for (unsigned long long c = 3; c < max_prime; c++) {
    double limit = sqrt((double) c);
    unsigned long long l;
    for (l = 2; l <= limit; l++)
      if (c % l == 0)
        break;
    if (l > limit)
      n++;
  }
  /* The count is handed to an empty asm statement, so the compiler must compute it; no
     thread stores it anywhere (a shared variable written per event is a data race and a
     cache line every thread fights over). */
  __asm__ __volatile__("" : : "r"(n));
  return 0;
}

static void cpu_report_cumulative(worker *reporter, sb_stat_t *stat, const report_layout *layout)
{
  (void) reporter;
  log_text(LOG_NOTICE, "CPU speed:");
  log_text(LOG_NOTICE, "    events per second: %8.2f",
           stat->time_interval > 0 ? (double) stat->events / stat->time_interval : 0);
  report_cumulative_general(stat, layout);
}

sb_test cpu_test = {
  .name = "cpu",
  .description = "CPU performance test",
  .options = cpu_args,
  .ops = {
    .init = cpu_init,
    .print_mode = cpu_print_mode,
    .event = cpu_event,
    .report_cumulative = cpu_report_cumulative,
  },
};
