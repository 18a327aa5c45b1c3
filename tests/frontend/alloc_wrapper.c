/* Scratch arrays from a program's own allocators (a wrapper that aborts on
   failure, an aligned one, a calloc-like one with a count and a size):
   functions without a body here whose name holds "alloc" and that return a
   pointer allocate as malloc does; their free-like partners are no calls. */
#include <stddef.h>

extern void *xmalloc(size_t bytes);
extern void *pool_alloc_aligned(size_t bytes, size_t align);
extern void *xcalloc(size_t count, size_t size);
extern void xfree(void *p);
extern void pool_free(void *p);

void histogram(int n, int nbins, const int *restrict key, int *restrict count)
{
    int *local = xmalloc((size_t)nbins * sizeof(int));
    int *order = pool_alloc_aligned((size_t)n * sizeof(int), 64);
    int *seen;

    seen = xcalloc((size_t)nbins, sizeof(int));
    for (int b = 0; b < nbins; b++)
        local[b] = 0;
    for (int i = 0; i < n; i++) {
        order[i] = local[key[i]]++;
        seen[key[i]] = 1;
    }
    for (int b = 0; b < nbins; b++)
        count[b] = seen[b] ? local[b] : 0;
    xfree(local);
    pool_free(order);
    xfree(seen);
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: is not analysed
// CHECK-NOT: cannot tell which array
// CHECK: array local i32[(i64)(u64)nbins] local @15:5
// CHECK-NEXT: array order i32[(i64)(u64)n] local @16:5
// CHECK-NEXT: array seen i32[(i64)(u64)nbins] local @17:5
// CHECK: store local[b] @21:9
// CHECK: update local[key[i]] @23:20 indirect(key)
// CHECK-NEXT: store order[i] @23:9
// CHECK: store seen[key[i]] = 1 @24:9 indirect(key)
// CHECK-NOT: call
