/* registry.c — lookup in the generated kernel table. */
#include <string.h>
#include "registry.h"

const vkb_kernel *vkb_registry_find(const char *name)
{
    for (int i = 0; vkb_registry[i]; i++)
        if (strcmp(vkb_registry[i]->name, name) == 0) return vkb_registry[i];
    return NULL;
}
