/* A row walked short of its last entry (an upper-triangular solve that
   keeps the diagonal last in each column and divides by it after): the
   bound U_p[j + 1] - 1 still names the offsets array. */
void usolve_t(long n, const long *U_p, const long *U_i, const double *U_x, double *x)
{
    for (long j = 0; j < n; j++) {
        for (long p = U_p[j]; p < U_p[j + 1] - 1; p++)
            x[j] -= U_x[p] * x[U_i[p]];
        x[j] /= U_x[U_p[j + 1] - 1];
    }
}

/* A prefix sum into n + 1 offsets: the last one, p[n], is past the loop. */
void prefix(long n, long *p, const long *c)
{
    long nz = 0;
    for (long i = 0; i < n; i++) {
        p[i] = nz;
        nz += c[i];
    }
    p[n] = nz;
}

/* 1-based vectors of n that a loop runs one past (NPB CG's conj_grad: j <= naa + 1). */
void clear1(long n, double *q)
{
    for (long j = 1; j <= n; j++)
        q[j] = 1.0;
    for (long j = 1; j <= n + 1; j++)
        q[j] = 0.0;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-LABEL: kernel usolve_t @
// CHECK: array U_p i64[] global param @4:23 bind csr.rowptr (inferred)
// CHECK: array U_i i64[] global param @4:40 bind csr.col (inferred)
// CHECK: array U_x f64[] global param @4:57 bind csr.val (inferred)
// CHECK-LABEL: kernel prefix @
// CHECK: array p i64[] global param @14:21 bind vec(n+1) (inferred)
// CHECK-LABEL: kernel clear1 @
// CHECK: array q f64[] global param @25:21 bind vec1(n+1) (inferred)
