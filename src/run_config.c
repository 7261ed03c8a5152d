/*
 * run_config.c: the options as a run uses them (run_config.h).
 */
#include <stdio.h>
#include <string.h>

#include "run_config.h"

static run_config options_config;

void run_config_publish(const run_config *cfg)
{
  options_config = *cfg;
}

const run_config *run_config_of_options(void)
{
  return &options_config;
}

const char *run_config_option_text(const run_config *cfg, const char *name, char *buf,
                                   size_t len)
{
  if (strcmp(name, "threads") == 0 && cfg->sweep_step) {
    snprintf(buf, len, "%u", cfg->threads);
    return buf;
  }
  if (strcmp(name, "verbosity") == 0 && cfg->debug) {
    snprintf(buf, len, "5");
    return buf;
  }
  return NULL;
}
