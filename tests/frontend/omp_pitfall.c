/* The OpenMP pitfall (style-anchors §5.3): parsed with -fopenmp, libclang
   hides the loops under a directive (an OMPParallelForDirective over a
   CapturedStmt). augur drops -fopenmp, keeps _OPENMP defined, and reads the
   directives from the tokens, so every loop stays visible with its schedule,
   collapse and reduction clauses - here with -fopenmp given on purpose. */
#ifdef _OPENMP
#include <omp.h>
#endif
#define W 4
#define CHUNK 16
#define OMP_FOR _Pragma("omp for schedule(guided)")

double ell_dot(int n, const int *idx, const double *val, const double *x, double *y)
{
    double total = 0.0;
#pragma omp parallel for collapse(2) schedule(static, CHUNK) reduction(+:total)
    for (int i = 0; i < n; i++)
        for (int k = 0; k < W; k++)
            total += val[i * W + k] * x[idx[i * W + k]];
#pragma omp parallel
    {
        OMP_FOR
        for (int i = 0; i < n; i++)
            y[i] = x[idx[i * W]];
#pragma omp single
        y[0] = 0.0;
#pragma omp barrier
#pragma omp for nowait
        for (int i = 0; i < n; i++) {
#pragma omp atomic
            y[idx[i * W + 1]] += val[i * W + 1];
        }
    }
    return total;
}

// RUN: %augur skeleton %s -- -fopenmp | FileCheck %s
// CHECK: for i = 0; i < n; i += 1 @17:5 parallel omp(parallel for schedule(static, 16) collapse(2) reduction(+: total)) #1
// CHECK-NEXT: for k = 0; k < 4; k += 1 @18:9 #2
// CHECK-NEXT: load val[i * 4 + k] @19:22
// CHECK-NEXT: load idx[i * 4 + k] @19:41
// CHECK-NEXT: load x[idx[i * 4 + k]] @19:39 indirect(idx)
// CHECK: region parallel @21:5 omp(parallel)
// CHECK-NEXT: for i.2 = 0; i.2 < n; i.2 += 1 @23:9 parallel omp(for schedule(guided))
// CHECK: region single @26:9
// CHECK-NEXT: store y[0] @26:9
// CHECK-NEXT: sync barrier @27:1
// CHECK-NEXT: for i.3 = 0; i.3 < n; i.3 += 1 @29:9 parallel omp(for nowait)
// CHECK-NEXT: region atomic @31:13
// CHECK: update y[idx[i.3 * 4 + 1]] @31:13 atomic indirect(idx)
