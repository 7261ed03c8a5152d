/*
 * signals.c: installs a signal handler unless the signal is ignored (see signals.h).
 */
#include <stddef.h>

#include "signals.h"

bool signal_catch(int sig, const struct sigaction *sa, struct sigaction *old)
{
  struct sigaction current;

  if (sigaction(sig, NULL, &current) != 0)
    return false;
  if (old != NULL)
    *old = current;
  if (current.sa_handler == SIG_IGN)
    return false;
  return sigaction(sig, sa, NULL) == 0;
}
