/* A stencil benchmark that reads its sizes from the command line: a local
   set once from atoi or strtol (with a default when the argument is not
   given) is a size to bind, as a parameter is, not a value outside the
   slice. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    long steps = argc > 2 ? strtol(argv[2], NULL, 10) : 10;
    double *u = calloc((size_t)n, sizeof(double));
    double *v = calloc((size_t)n, sizeof(double));

    for (long t = 0; t < steps; t++) {
        for (int i = 1; i < n - 1; i++)
            v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
        for (int i = 1; i < n - 1; i++)
            u[i] = v[i];
    }
    printf("%g\n", u[n / 2]);
    free(u);
    free(v);
    return 0;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: opaque
// CHECK: param n i32 @10:5 bind n (inferred)
// CHECK-NEXT: param steps i64 @11:5 bind =1 (inferred)
// CHECK-NOT: argc
// CHECK: array u f64[(i64)(u64)n] local @12:5
// CHECK-NEXT: array v f64[(i64)(u64)n] local @13:5
// CHECK: for t = (i64)0; t < steps; t += 1_i64 @15:5
// CHECK-NEXT: for i = 1; i < n - 1; i += 1 @16:9
