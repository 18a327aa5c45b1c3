/* The allocator alloc_wrapper.c's program would link: large blocks from malloc. */
#include <stdlib.h>

void *xmalloc_large(size_t n);
void xfree_large(void *p);

void *xmalloc_large(size_t n)
{
    return malloc(n);
}

void xfree_large(void *p)
{
    free(p);
}
