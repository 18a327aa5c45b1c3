/* Pointers declared again as aligned, as vectorised mesh codes do:
   __builtin_assume_aligned hands back its first argument, so accesses
   through the new names are the arrays' own, and the memset clears one. */
#include <string.h>

void lump_mass(int ntri, int nnode, const int *restrict tri, const double *restrict area,
               double *restrict lumped)
{
    const int *t = __builtin_assume_aligned(tri, 64);
    const double *ar = __builtin_assume_aligned(area, 64);
    double *m = __builtin_assume_aligned(lumped, 64);

    memset(m, 0, (size_t)nnode * sizeof(double));
    for (int e = 0; e < ntri; e++) {
        const double third = ar[e] / 3.0;

        for (int v = 0; v < 3; v++)
            m[t[3 * e + v]] += third;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: __builtin_assume_aligned
// CHECK-NOT: cannot tell which array
// CHECK: for copy.k = 0_i64; copy.k < (i64)(u64)nnode; copy.k += 4_i64 @13:5
// CHECK-NEXT: store lumped[copy.k + (i64)lane] @13:5 x4
// CHECK: for e = 0; e < ntri; e += 1 @14:5
// CHECK-NEXT: load area[e] @15:30
// CHECK: for v = 0; v < 3; v += 1 @17:9
// CHECK-NEXT: load tri[3 * e + v] @18:15
// CHECK-NEXT: update lumped[tri[3 * e + v]] @18:13 indirect(tri)
