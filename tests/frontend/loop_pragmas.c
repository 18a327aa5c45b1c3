/* Other compilers' loop pragmas (Intel, GCC, Cray, clang's own): clang
   wraps a loop under unroll, nounroll, "clang loop" or "GCC unroll" in an
   attributed statement and ignores the rest; none of them changes what the
   loop does, so every loop is kept as written. */
void smooth(int n, const int *rowptr, const int *col, const double *w, const double *x,
            double *y, double *r)
{
#pragma omp parallel for schedule(dynamic, 32)
#pragma GCC unroll 4
    for (int i = 0; i < n; i++) {
        double s = 0.0;
#pragma unroll(2)
        for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
            s += w[j] * x[col[j]];
#pragma clang loop vectorize(enable) interleave_count(2)
        for (int k = 0; k < 2; k++)
            s *= 0.5;
        y[i] = s;
    }
#pragma GCC ivdep
#pragma ivdep
#pragma vector always
    for (int i = 0; i < n; i++)
        r[i] = x[i] - y[i];
#pragma novector
#pragma nounroll
    for (int i = 0; i < n; i++)
        r[i] *= 2.0;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: not analysed
// CHECK-NOT: not followed by a loop
// CHECK: for i = 0; i < n; i += 1 @10:5 parallel omp(parallel for schedule(dynamic, 32))
// CHECK-NEXT: load rowptr[i] @13:22
// CHECK-NEXT: load rowptr[i + 1] @13:37
// CHECK-NEXT: for j = rowptr[i]; j < rowptr[i + 1]; j += 1 @13:9
// CHECK: for k = 0; k < 2; k += 1 @16:9
// CHECK-NEXT: ops fmul.f64.c=1 @17:13
// CHECK-NEXT: store y[i] @18:9
// CHECK: for i.2 = 0; i.2 < n; i.2 += 1 @23:5
// CHECK-NEXT: load x[i.2] @24:16
// CHECK: for i.3 = 0; i.3 < n; i.3 += 1 @27:5
// CHECK-NEXT: update r[i.3] @28:9
