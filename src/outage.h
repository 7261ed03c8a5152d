/*
 * outage.h: connection outages, the time a worker's reconnects kept failing after its
 * connection was lost (--mysql-ignore-errors / --pgsql-ignore-errors made the loss
 * ignorable), and the run's summary of them for the final report and the result file.
 *
 * Each worker owns one worker_outage (inside its worker_stats): only its own thread writes it,
 * from the database layer's reconnect loop and when an event is recorded. The reporter reads
 * `since_ns` at each tick (how many threads are reconnecting); everything else is read by the
 * main thread for the final report, after the workers have been joined.
 */
#ifndef SB_OUTAGE_H
#define SB_OUTAGE_H

#include <stdbool.h>
#include <stdint.h>

#define OUTAGE_ERROR_MAX 240

typedef struct worker_outage {
  uint64_t since_ns;           /* when the lost connection was noticed, if reconnecting to it
                                  has failed since; 0 = not in an outage (relaxed atomics) */
  uint64_t failed_now;         /* failed reconnects of the outage in progress */
  uint64_t ended;              /* outages that ended with a reconnect */
  uint64_t ended_first_ns;     /* start of the first of them */
  uint64_t ended_last_ns;      /* when the last of them ended */
  uint64_t failed_ended;       /* failed reconnects of those that ended */
  uint64_t last_event_start_ns;  /* start of the worker's last recorded event; 0 = none */
  char last_error[OUTAGE_ERROR_MAX];   /* why the last reconnect failed */
} worker_outage;

/* The owner, after a reconnect attempt failed: the loss noticed at `lost_ns` starts an
   outage (if none is in progress), `why` is the reason of this attempt. */
void outage_reconnect_failed(worker_outage *o, uint64_t lost_ns, const char *why);
/* The owner, after a reconnect worked at `now_ns`: the outage in progress (if any) ended. */
void outage_reconnected(worker_outage *o, uint64_t now_ns);
/* Is the worker in an outage now? (any thread) */
static inline bool outage_in_progress(const worker_outage *o)
{
  return __atomic_load_n(&o->since_ns, __ATOMIC_RELAXED) != 0;
}

/* The run's outages, from every worker's record; times are seconds since the measurement
   started (an outage that began during the warm-up counts from 0). */
typedef struct outage_summary {
  unsigned ongoing_threads;    /* threads still reconnecting when the run ended */
  double ongoing_from;         /* the earliest start of their outages */
  uint64_t ongoing_failed;     /* their failed reconnects */
  bool events_after;           /* an event that started after ongoing_from was recorded */
  bool run_failed;             /* still unreachable at the end, and no such event: the run
                                  failed */
  unsigned ended_threads;      /* threads whose outages ended with a reconnect */
  bool ended_several;          /* ... one of them had more than one */
  double ended_from, ended_to; /* first start and last end of those outages */
  uint64_t ended_failed;       /* their failed reconnects */
  double end;                  /* the end of the run */
  char last_error[OUTAGE_ERROR_MAX];   /* why a reconnect failed last: of a thread still
                                          reconnecting, else of one that reconnected */
  /* while adding (nanoseconds of the monotonic clock) */
  uint64_t start_ns, end_ns, ongoing_since_ns, ended_first_ns, ended_last_ns,
           last_event_start_ns;
} outage_summary;

/* An empty summary of a run measured from `start_ns` to `end_ns`. */
void outage_summary_begin(outage_summary *s, uint64_t start_ns, uint64_t end_ns);
/* Add one worker's record (for each worker, after they stopped). */
void outage_summary_add(outage_summary *s, const worker_outage *o);
/* After the last one: the times in seconds, events_after and run_failed. */
void outage_summary_finish(outage_summary *s);
/* Was there an outage in the measured time? */
bool outage_summary_any(const outage_summary *s);

#endif
