/* version.c — the commit this binary was built from (passed in by the Makefile). */
#include "version.h"
#ifndef VKB_COMMIT
#define VKB_COMMIT "unknown"
#endif
const char *vkb_version_commit(void) { return VKB_COMMIT; }
