/*
 * test_run_config.c: unit tests for src/run_config.{h,c}: the options as a run uses them --
 * a sweep's step shows its own thread count, --debug shows verbosity 5 -- and every other
 * option as its own text (NULL: nothing to override).
 */
#include "run_config.h"
#include "tap.h"

#include <string.h>

int main(void)
{
  char buf[32];
  run_config single = { .threads = 4 };
  run_config step = { .threads = 16, .sweep_step = true };
  run_config debug = { .threads = 1, .debug = true };

  ok(run_config_option_text(&single, "threads", buf, sizeof(buf)) == NULL,
     "a single run shows --threads as given");
  const char *t = run_config_option_text(&step, "threads", buf, sizeof(buf));
  ok(t != NULL && strcmp(t, "16") == 0, "a sweep's step shows its own count: 16");
  ok(run_config_option_text(&single, "verbosity", buf, sizeof(buf)) == NULL,
     "without --debug, --verbosity as given");
  t = run_config_option_text(&debug, "verbosity", buf, sizeof(buf));
  ok(t != NULL && strcmp(t, "5") == 0, "--debug shows verbosity 5, as 1.0.20");
  ok(run_config_option_text(&step, "time", buf, sizeof(buf)) == NULL &&
     run_config_option_text(&debug, "debug", buf, sizeof(buf)) == NULL,
     "every other option is its own text");
  return tap_done();
}
