/*
 * fileio_report.c: what the fileio test prints around a run: its mode lines after "Running the
 * test with following options", the intermediate line, and the final report: 1.0.20's "File
 * operations" and "Throughput" blocks and general statistics, byte for byte, then one block of
 * ours, the latency of each kind of operation (read, write, fsync), after everything 1.0.20
 * prints, so parsers of 1.0.20's report keep working.
 */
#include <inttypes.h>
#include <stdio.h>

#include "fileio.h"
#include "logger.h"
#include "output_mode.h"
#include "report.h"
#include "runner.h"
#include "stats.h"
#include "units.h"


static double per_second(double amount, double seconds)
{
  return seconds > 0 ? amount / seconds : 0;
}

void fileio_print_extra_flags(const fileio_settings *s)
{
  /* 1.0.20's spelling, trailing spaces included. */
  log_text(LOG_NOTICE, "Extra file open flags: %s%s%s%s",
           s->extra_flags == 0 ? "(none)" : "",
           s->extra_flags & FILEIO_FLAG_SYNC ? "sync " : "",
           s->extra_flags & FILEIO_FLAG_DSYNC ? "dsync " : "",
           s->extra_flags & FILEIO_FLAG_DIRECT ? "directio" : "");
}

static const char *const test_mode_text[] = {
  [FILEIO_SEQWR] = "sequential write (creation)",
  [FILEIO_SEQREWR] = "sequential rewrite",
  [FILEIO_SEQRD] = "sequential read",
  [FILEIO_RNDRD] = "random read",
  [FILEIO_RNDWR] = "random write",
  [FILEIO_RNDRW] = "random r/w",
};

static const char *const io_mode_text[] = {
  [FILEIO_IO_SYNC] = "synchronous",
  [FILEIO_IO_ASYNC] = "asynchronous",
  [FILEIO_IO_MMAP] = "fast mmaped",
};

void fileio_report_mode(const fileio_settings *s)
{
  char size[32];

  fileio_print_extra_flags(s);
  log_text(LOG_NOTICE, "%u files, %sB each", s->file_num,
           fileio_size_text(size, sizeof(size), (double) s->file_size));
  log_text(LOG_NOTICE, "%sB total file size",
           fileio_size_text(size, sizeof(size), (double) (s->file_size * s->file_num)));
  log_text(LOG_NOTICE, "Block size %sB",
           fileio_size_text(size, sizeof(size), (double) s->block_size));
  if (s->merged_requests > 0)
    log_text(LOG_NOTICE, "Merging requests up to %sB for sequential IO.",
             fileio_size_text(size, sizeof(size), (double) s->request_size));
  if (!fileio_mode_sequential(s->mode)) {
    log_text(LOG_NOTICE, "Number of IO requests: %" PRIu64, runner_config()->max_events);
    log_text(LOG_NOTICE, "Read/Write ratio for combined random IO test: %2.2f", s->rw_ratio);
  }
  if (s->fsync_freq > 0)
    log_text(LOG_NOTICE, "Periodic FSYNC enabled, calling fsync() each %u requests.",
             s->fsync_freq);
  if (s->fsync_end)
    log_text(LOG_NOTICE, "Calling fsync() at the end of test, Enabled.");
  if (s->fsync_all)
    log_text(LOG_NOTICE, "Calling fsync() after each write operation.");
  log_text(LOG_NOTICE, "Using %s I/O mode", io_mode_text[s->io_mode]);
  if (s->validate)
    log_text(LOG_NOTICE, "Using checksums validation.");
  log_text(LOG_NOTICE, "Doing %s test", test_mode_text[s->mode]);
}

void fileio_report_intermediate(worker *reporter, sb_stat_t *stat, const report_layout *layout)
{
  (void) reporter;
  double t = stat->time_interval;
  char pct[32];

  log_timestamped(LOG_NOTICE, stat->time_total,
                  "reads: %4.2f MiB/s writes: %4.2f MiB/s fsyncs: %4.2f/s "
                  "latency (ms,%s%%): %4.3f",
                  per_second(units_mebibytes((double) stat->bytes_read), t),
                  per_second(units_mebibytes((double) stat->bytes_written), t),
                  per_second((double) stat->other, t),
                  percentile_text(layout->percentile, pct, sizeof(pct)),
                  stat->latency_pct * 1e3);
}

/* Ours: one line per kind of operation, after 1.0.20's blocks and their closing blank line,
   with no blank line of its own: without these lines the text is 1.0.20's exactly. */
static void report_operation_latency(double percentile)
{
  static const char *const names[FILEIO_OP_KINDS] = {"read:", "write:", "fsync:"};
  fileio_latency_summary ops[FILEIO_OP_KINDS];
  char column[40], pct[32];

  fileio_latency_summarize(ops, percentile);
  snprintf(column, sizeof(column), "%sth", percentile_text(percentile, pct, sizeof(pct)));
  log_text(LOG_NOTICE, "Latency by operation (ms):");
  if (percentile > 0)
    log_text(LOG_NOTICE, "                   count        min        avg        max %10s",
             column);
  else
    log_text(LOG_NOTICE, "                   count        min        avg        max");
  for (unsigned k = 0; k < FILEIO_OP_KINDS; k++) {
    const fileio_latency_summary *o = &ops[k];
    if (percentile > 0)
      log_text(LOG_NOTICE, "    %-7s %11" PRIu64 " %10.2f %10.2f %10.2f %10.2f", names[k],
               o->count, o->min * 1e3, o->avg * 1e3, o->max * 1e3, o->percentile * 1e3);
    else
      log_text(LOG_NOTICE, "    %-7s %11" PRIu64 " %10.2f %10.2f %10.2f", names[k], o->count,
               o->min * 1e3, o->avg * 1e3, o->max * 1e3);
  }
}

void fileio_report_cumulative(worker *reporter, sb_stat_t *stat, const report_layout *layout)
{
  (void) reporter;
  double t = stat->time_interval;

  log_text(LOG_NOTICE, "%s", "");
  log_text(LOG_NOTICE, "File operations:");
  log_text(LOG_NOTICE, "    reads/s:                      %4.2f",
           per_second((double) stat->reads, t));
  log_text(LOG_NOTICE, "    writes/s:                     %4.2f",
           per_second((double) stat->writes, t));
  log_text(LOG_NOTICE, "    fsyncs/s:                     %4.2f",
           per_second((double) stat->other, t));
  log_text(LOG_NOTICE, "%s", "");
  log_text(LOG_NOTICE, "Throughput:");
  log_text(LOG_NOTICE, "    read, MiB/s:                  %4.2f",
           per_second(units_mebibytes((double) stat->bytes_read), t));
  log_text(LOG_NOTICE, "    written, MiB/s:               %4.2f",
           per_second(units_mebibytes((double) stat->bytes_written), t));
  report_cumulative_general(stat, layout);
  if (!output_exact())
    report_operation_latency(layout->percentile);
}
