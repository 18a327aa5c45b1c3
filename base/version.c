/*
 * version.c - the library version (module: base).
 */
#include "augur/base.h"

const char *augur_version(void)
{
    return AUGUR_VERSION;
}
