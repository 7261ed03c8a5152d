/*
 * signals.c: the SIGINT/SIGTERM policy (see signals.h): one handler that tells a first
 * request from its duplicates and from a later, forcing signal, and the owner it reports to.
 *
 * Why signals close together are one request: one request often arrives twice. coreutils'
 * `timeout` signals its child, then the process group the child is in; a terminal's Ctrl-C
 * goes to the whole foreground group, where a sweep's parent also passes it on to the step
 * that got it from the terminal already; a supervisor may signal a pid and its group. The
 * copies come microseconds apart, and well within a second even on a machine so loaded that
 * the handler runs late. A person who presses Ctrl-C again because the first seems to do
 * nothing does so after looking, which takes longer; and the graceful stop ends a run within
 * milliseconds and a prepare within a second (load_report.c's grace), so a second press in
 * the first second would hurry nothing. One second (SIGNAL_SAME_REQUEST_NS) covers the copies
 * with room to spare and costs an impatient user at most that second.
 */
#include "signals.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>

#include "clock.h"

static int requested;                    /* the first signal; 0 = none came */
static uint64_t requested_ns;            /* when (monotonic); 0 while it is being recorded */
static const signal_owner *current_owner;
static bool installed;

signal_meaning signal_policy_deliver(int sig, uint64_t now_ns)
{
  int none = 0;
  /* Two threads may take one signal each at the same moment: one of them is the first. */
  if (__atomic_compare_exchange_n(&requested, &none, sig, false, __ATOMIC_SEQ_CST,
                                  __ATOMIC_SEQ_CST)) {
    __atomic_store_n(&requested_ns, now_ns > 0 ? now_ns : 1, __ATOMIC_RELEASE);
    return SIGNAL_STOP;
  }
  uint64_t first_ns = __atomic_load_n(&requested_ns, __ATOMIC_ACQUIRE);
  /* first_ns == 0: the first is being recorded on another thread right now */
  if (first_ns == 0 || now_ns < first_ns + SIGNAL_SAME_REQUEST_NS)
    return SIGNAL_SAME_REQUEST;
  return SIGNAL_FORCE;
}

/* The default action of `sig`: the process ends as if we had installed nothing. The signal
   is blocked while its handler runs, so it is delivered as the handler returns. */
static void die_of(int sig)
{
  struct sigaction dfl;
  memset(&dfl, 0, sizeof(dfl));
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  raise(sig);
}

static void on_signal(int sig)
{
  int saved_errno = errno;
  signal_meaning meaning = signal_policy_deliver(sig, clock_now_ns());
  const signal_owner *owner = __atomic_load_n(&current_owner, __ATOMIC_SEQ_CST);

  if (meaning == SIGNAL_STOP && owner == NULL) {
    die_of(sig);               /* nothing to stop gracefully: as without a handler */
  } else if (meaning == SIGNAL_STOP && owner->stop != NULL) {
    owner->stop(sig);
  } else if (meaning == SIGNAL_FORCE) {
    if (owner != NULL && owner->force != NULL)
      owner->force(sig);
    die_of(sig);
  }
  errno = saved_errno;
}

/* sigaction(sig, sa) unless `sig` is ignored now (see signals.h). */
static void catch_unless_ignored(int sig, const struct sigaction *sa)
{
  struct sigaction current;
  if (sigaction(sig, NULL, &current) == 0 && current.sa_handler != SIG_IGN)
    sigaction(sig, sa, NULL);
}

void signal_policy_install(void)
{
  if (__atomic_exchange_n(&installed, true, __ATOMIC_ACQ_REL))
    return;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  /* Calls the threads are blocked in go on: they look at the stop flags between events or
     blocks, and a driver must not take an interrupted read for a lost connection. */
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  catch_unless_ignored(SIGINT, &sa);
  catch_unless_ignored(SIGTERM, &sa);
}

void signal_policy_own(const signal_owner *owner)
{
  /* Sequentially consistent with the handler's record-then-look: a request that comes while
     the owner changes is seen by the handler, by this call, or by both (stop may run twice). */
  __atomic_store_n(&current_owner, owner, __ATOMIC_SEQ_CST);
  int sig = __atomic_load_n(&requested, __ATOMIC_SEQ_CST);
  if (owner != NULL && owner->stop != NULL && sig != 0)
    owner->stop(sig);
}

int signal_stop_requested(void)
{
  return __atomic_load_n(&requested, __ATOMIC_SEQ_CST);
}

void signal_policy_forget(void)
{
  __atomic_store_n(&current_owner, NULL, __ATOMIC_SEQ_CST);
  __atomic_store_n(&requested_ns, 0, __ATOMIC_SEQ_CST);
  __atomic_store_n(&requested, 0, __ATOMIC_SEQ_CST);
}
