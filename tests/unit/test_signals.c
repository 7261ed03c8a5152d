/*
 * test_signals.c: unit tests for src/signals.{h,c}, the SIGINT/SIGTERM policy: the decision
 * for each signal with a fake clock (the first stops, copies within a second are that request,
 * a later one forces), INT and TERM alike; the owner told of a request it missed; and with
 * real signals, in forked children where the process may die: a handled request, an ignored
 * signal that stays ignored, a first signal with no owner, a late second one.
 */
#include "signals.h"
#include "tap.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define S UINT64_C(1000000000)
#define MS UINT64_C(1000000)

static int stopped_with;
static int stop_calls;

static void note_stop(int sig)
{
  stopped_with = sig;
  stop_calls++;
}

static const signal_owner noting = { .stop = note_stop };

static void test_decisions(void)
{
  signal_policy_forget();
  ok(signal_stop_requested() == 0, "no request before a signal");
  ok(signal_policy_deliver(SIGINT, 100 * S) == SIGNAL_STOP, "the first SIGINT asks to stop");
  ok(signal_stop_requested() == SIGINT, "... and is the request's signal");
  ok(signal_policy_deliver(SIGINT, 100 * S + 1 * MS) == SIGNAL_SAME_REQUEST,
     "a second SIGINT 1 ms later is the same request (timeout's child-then-group)");
  ok(signal_policy_deliver(SIGTERM, 100 * S + 10 * MS) == SIGNAL_SAME_REQUEST,
     "... so is a SIGTERM 10 ms later");
  ok(signal_policy_deliver(SIGINT, 100 * S + SIGNAL_SAME_REQUEST_NS - 1) == SIGNAL_SAME_REQUEST,
     "... and one 1 ns before the window's end");
  ok(signal_policy_deliver(SIGINT, 100 * S + SIGNAL_SAME_REQUEST_NS) == SIGNAL_FORCE,
     "a signal a whole window (1 s) after the first forces the end");
  ok(signal_policy_deliver(SIGTERM, 160 * S) == SIGNAL_FORCE, "... and so does one a minute later");
  ok(signal_stop_requested() == SIGINT, "the request keeps the first signal (exit 130)");
  ok(SIGNAL_SAME_REQUEST_NS == 1 * S, "the window is one second, as docs/usage.md says");

  signal_policy_forget();
  ok(signal_stop_requested() == 0, "a forked child forgets its parent's request");
  ok(signal_policy_deliver(SIGTERM, 5 * S) == SIGNAL_STOP, "... and its first SIGTERM asks to stop");
  ok(signal_policy_deliver(SIGTERM, 5 * S - 2 * MS) == SIGNAL_SAME_REQUEST,
     "a copy whose clock reading came before the first's is the same request too");
  signal_policy_forget();
}

static void test_owner_told_late(void)
{
  signal_policy_forget();
  stopped_with = stop_calls = 0;
  signal_policy_deliver(SIGTERM, 7 * S);
  signal_policy_own(&noting);
  ok(stopped_with == SIGTERM && stop_calls == 1,
     "an owner that takes over after the request is told at once (a sweep's step)");
  signal_policy_own(NULL);
  signal_policy_forget();
}

/* Runs `child` in a forked process; its wait status. */
static int in_child(int (*child)(void))
{
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    stopped_with = stop_calls = 0;
    _exit(child());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

/* A real SIGINT with an owner, then a real SIGTERM at once: one request, the process lives. */
static int handled_request(void)
{
  signal_policy_install();
  signal_policy_own(&noting);
  raise(SIGINT);
  raise(SIGTERM);
  return stopped_with == SIGINT && stop_calls == 1 && signal_stop_requested() == SIGINT ? 0 : 1;
}

/* SIGINT ignored by the parent stays ignored after install. */
static int ignored_stays_ignored(void)
{
  signal(SIGINT, SIG_IGN);
  signal_policy_install();
  signal_policy_own(&noting);
  raise(SIGINT);
  return stop_calls == 0 && signal_stop_requested() == 0 ? 0 : 1;
}

/* No owner (a load that has ended): the first signal ends the process, as without a handler. */
static int no_owner(void)
{
  signal_policy_install();
  signal_policy_own(NULL);
  raise(SIGTERM);
  return 0;
}

/* After the load ended, a copy of its request is still only that copy. */
static int copy_after_owner_left(void)
{
  signal_policy_install();
  signal_policy_own(&noting);
  raise(SIGINT);
  signal_policy_own(NULL);
  raise(SIGINT);
  return stop_calls == 1 ? 0 : 1;
}

/* A second signal clearly later than the first: the process dies of it. */
static int late_second(void)
{
  signal_policy_install();
  signal_policy_own(&noting);
  raise(SIGINT);
  usleep((useconds_t) (SIGNAL_SAME_REQUEST_NS / 1000 + 100000));
  raise(SIGINT);
  return 0;
}

static void test_real_signals(void)
{
  int status = in_child(handled_request);
  ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
     "real SIGINT then SIGTERM: the owner stops once, with SIGINT, and the process lives");
  status = in_child(ignored_stays_ignored);
  ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "an ignored SIGINT stays ignored");
  status = in_child(no_owner);
  ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
     "with no owner the first SIGTERM ends the process as its default action does");
  status = in_child(copy_after_owner_left);
  ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
     "a copy of a request that comes after its owner left changes nothing");
  status = in_child(late_second);
  ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT,
     "a second SIGINT after the window: the process dies of SIGINT at once");
}

int main(void)
{
  test_decisions();
  test_owner_told_late();
  test_real_signals();
  return tap_done();
}
