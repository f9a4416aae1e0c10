#ifndef VKB_VERSION_H
#define VKB_VERSION_H
/* `git describe --always --dirty` at build time, or "unknown". */
const char *vkb_version_commit(void);
#endif
