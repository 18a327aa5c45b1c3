#include <immintrin.h>

/* Loop-carried accumulators: the next iteration waits for the operation's
   latency (.c); a multiply feeding an add is one fused multiply-add. */
static double twice(double v)
{
    double t = v;

    t += v; /* a helper's local: lives one call, carries nothing */
    return t;
}

void carried(int n, const int *ptr, const int *col, const double *a, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double sum = 0.0, prod = 1.0, fresh;
        int count = 0;

        for (int j = ptr[i]; j < ptr[i + 1]; j++) {
            sum += a[j] * x[col[j]];
            prod = prod * a[j];
            count += col[j];
            fresh = a[j];
            fresh += x[j];
            y[j] = fresh + twice(a[j]);
        }
        y[i] = sum + prod + count;
    }
}

void carried_avx512(int n, const double *a, const double *b, double *out)
{
    __m512d acc = _mm512_setzero_pd();

    for (int i = 0; i + 8 <= n; i += 8)
        acc = _mm512_fmadd_pd(_mm512_loadu_pd(&a[i]), _mm512_loadu_pd(&b[i]), acc);
    out[0] = _mm512_reduce_add_pd(acc);
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-LABEL: kernel carried @
// sum += a*x: a carried multiply-add; prod = prod * a: a carried multiply;
// count += (integer), fresh set afresh then +=, the helper's t += v: not carried
// CHECK: ops fadd.f64=3 fmul.f64.c=1 ffma.f64.c=1 iadd.i32=2 cmp.i32=1 @20:20
// CHECK-NEXT: store y[i] @27:9
// CHECK-NEXT: ops fadd.f64=2 iadd.i32=1 cmp.i32=1 @27:16
// CHECK-LABEL: kernel carried_avx512 @
// CHECK: ops ffma.f64x8.c=1 iadd.i32=2 cmp.i32=1 vload.f64x8=2 @36:31

/* Four accumulators: four independent chains (.c4), not one of four links. */
void spmm4_acc(int n, const int *rowptr, const int *col, const double *val, const double *X,
               double *Y)
{
    for (int i = 0; i < n; i++) {
        double a0 = 0, a1 = 0, a2 = 0, a3 = 0;

        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
            double v = val[k];

            a0 += v * X[4 * col[k] + 0];
            a1 += v * X[4 * col[k] + 1];
            a2 += v * X[4 * col[k] + 2];
            a3 += v * X[4 * col[k] + 3];
        }
        Y[4 * i] = a0 + a1 + a2 + a3;
    }
}

// CHECK-LABEL: kernel spmm4_acc @
// CHECK: ops ffma.f64.c4=4 iadd.i32=1 cmp.i32=1 @60:19
