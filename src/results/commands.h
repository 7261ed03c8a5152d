/*
 * commands.h: the top-level commands `sysbench compare FILE...` and `sysbench merge FILE...`.
 *
 * They are told apart from tests the way 1.0.20 would have failed on them: the first word that
 * is not an option is "compare" or "merge", and no test by that name can be found as 1.0.20
 * looks for one (a file named so, or a Lua module such as ./compare.lua on package.path). When
 * such a script exists, the script runs, as in 1.0.20. So the only 1.0.20 command lines that
 * now do something else are those that failed with "Cannot find benchmark 'compare'".
 */
#ifndef SB_RESULTS_COMMANDS_H
#define SB_RESULTS_COMMANDS_H

/* "compare" or "merge" when argv asks for one of these commands, else NULL. --help and
   --version anywhere keep their 1.0.20 meaning (general help, version) and win. */
const char *results_command_requested(int argc, char **argv);
/* Run it; returns the exit code. */
int results_command_main(const char *command, int argc, char **argv);

#endif
