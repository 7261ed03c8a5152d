/*
 * signals.h: the handlers for SIGINT and SIGTERM go in only where the signal is not ignored.
 * A parent that ignores a signal for us (`trap '' INT`, the background jobs of a
 * non-interactive shell, which get SIGINT ignored) has decided it must not stop the program;
 * 1.0.20 installs no handler and so keeps that decision, and so do we.
 */
#ifndef SB_SIGNALS_H
#define SB_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

/* sigaction(sig, sa, old) unless `sig` is ignored now. `old` (may be NULL) receives the
   disposition that was in force either way, to restore it later. Returns whether `sa` was
   installed. */
bool signal_catch(int sig, const struct sigaction *sa, struct sigaction *old);

#endif
