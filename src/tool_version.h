/*
 * tool_version.h: this program's own name, version and the commit it was built from, beside
 * the sysbench release it reproduces (SB_COMPAT_VERSION): --version, the header at
 * --verbosity=4 and every result file name all three, so a log or a result file says which
 * program measured it.
 */
#ifndef SB_TOOL_VERSION_H
#define SB_TOOL_VERSION_H

extern const char tool_name[];      /* "sysbench-rebuilt" (configure.ac) */
extern const char tool_version[];   /* its version (configure.ac) */
extern const char tool_commit[];    /* git commit of the build, or "unknown" */

/* "sysbench-rebuilt 1.0.0 (commit 0123456789ab)", the line --version adds. */
const char *tool_identity(void);

#endif
