/*
 * signals.h: the one policy for SIGINT and SIGTERM. `run`, a thread sweep (a parent and one
 * child process per step) and `prepare`/`verify` all follow it, whichever of the two signals
 * comes and whether it was sent to the process or to its whole process group:
 *
 *   - A signal the parent set to be ignored stays ignored. A parent that ignores a signal for
 *     us (`trap '' INT`, the background jobs of a non-interactive shell, which get SIGINT
 *     ignored) has decided it must not stop the program; 1.0.20 installs no handler and so
 *     keeps that decision, and so do we.
 *   - The first signal asks for a graceful stop: the command that owns the signals now (the
 *     run, the sweep, the load) is told, stops where it is, prints its report, writes its
 *     result files and exits 128 + that signal.
 *   - Signals that come less than SIGNAL_SAME_REQUEST_NS after the first are the same request
 *     delivered twice, and change nothing (see signals.c for why they arrive so).
 *   - A signal later than that forces the end: the owner may pass it on (a sweep to its
 *     running step), then the process dies of that signal at once, as 1.0.20 does on the
 *     first -- for a command stuck on a server that never answers.
 */
#ifndef SB_SIGNALS_H
#define SB_SIGNALS_H

#include <stdbool.h>
#include <stdint.h>

#include "units.h"

/* Signals closer than this to the first one are that one again (justified in signals.c). */
#define SIGNAL_SAME_REQUEST_NS NS_PER_SEC

/* What the owner of the signals does. Both functions are called from a signal handler, on any
   thread: async-signal-safe calls only (atomic stores, sem_post, kill). */
typedef struct {
  void (*stop)(int sig);      /* the graceful stop; may be called twice for one request;
                                 NULL: the request is only recorded, for the next owner */
  void (*force)(int sig);     /* right before the process dies of `sig`; may be NULL */
} signal_owner;

/* What one signal means under the policy (signal_policy_deliver). */
typedef enum {
  SIGNAL_STOP,                /* the first: stop gracefully */
  SIGNAL_SAME_REQUEST,        /* the first one again (it came too soon after it) */
  SIGNAL_FORCE                /* a second, clearly later one: end at once */
} signal_meaning;

/* Catches SIGINT and SIGTERM, each unless it is ignored, for the rest of the process's life
   (a forked child keeps them). Calling it again changes nothing. */
void signal_policy_install(void);
/* The command that acts on the signals from now on. When a request came already,
   owner->stop is called at once. NULL: no command can stop gracefully now, and a first
   signal ends the process as if there were no handler (a copy of an earlier request is still
   only that). */
void signal_policy_own(const signal_owner *owner);
/* The signal that asked to stop (0 while none did). */
int signal_stop_requested(void);
/* In a child just forked: the parent's request and owner are the parent's. */
void signal_policy_forget(void);
/* The policy's decision for signal `sig` arriving at `now_ns` (monotonic), recorded as the
   handler records it. The handler's core; public for the unit test. */
signal_meaning signal_policy_deliver(int sig, uint64_t now_ns);

#endif
