/*
 * tool_version.c: the program's own name, version and build commit (tool_version.h). The
 * commit comes from src/build_commit.h, which make writes before every build
 * (build-aux/commit-id.sh), so it is never older than the binary.
 */
#include <stdio.h>

#include "src/build_commit.h"
#include "tool_version.h"

const char tool_name[] = SB_TOOL_NAME;
const char tool_version[] = SB_TOOL_VERSION;
const char tool_commit[] = SB_TOOL_COMMIT;

const char *tool_identity(void)
{
  static char text[128];
  if (text[0] == '\0')
    snprintf(text, sizeof(text), "%s %s (commit %s)", tool_name, tool_version, tool_commit);
  return text;
}
