/* Jagged-diagonal SpMV: diagonals of decreasing length, rows permuted by
   length. jd_ptr bounds the positions of a diagonal (not a row pointer),
   perm is read at the position alone and indexes the output. */
void jds_spmv(int n, int ndiag, const int *restrict jd_ptr, const int *restrict col,
              const double *restrict val, const int *restrict perm, const double *restrict x,
              double *restrict y)
{
    for (int d = 0; d < ndiag; d++) {
        const int len = jd_ptr[d + 1] - jd_ptr[d];
        const int off = jd_ptr[d];
        for (int r = 0; r < len; r++)
            y[perm[r]] += val[off + r] * x[col[off + r]];
    }
    (void)n;
}

/* The same walked from jp[d] to jp[d + 1]: the permutation read at k - jp[d]. */
void jds_spmv_offsets(int ndiag, const int *restrict jp, const int *restrict ci,
                      const double *restrict a, const int *restrict rows, const double *restrict x,
                      double *restrict y)
{
    for (int d = 0; d < ndiag; d++)
        for (int k = jp[d]; k < jp[d + 1]; k++)
            y[rows[k - jp[d]]] += a[k] * x[ci[k]];
}

// RUN: %augur skeleton %s --function jds_spmv 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: param ndiag i32 @4:22 bind jds.ndiag (inferred)
// CHECK: array jd_ptr i32[] global param @4:33 bind jds.ptr (inferred)
// CHECK-NEXT: array col i32[] global param @4:61 bind jds.col (inferred)
// CHECK-NEXT: array val f64[] global param @5:15 bind jds.val (inferred)
// CHECK-NEXT: array perm i32[] global param @5:43 bind jds.perm (inferred)
// CHECK-NEXT: array x f64[] global param @5:69 bind vec(m) (inferred)
// CHECK-NEXT: array y f64[] global param @6:15 bind vec(n) (inferred)
// RUN: %augur skeleton %s --function jds_spmv_offsets 2>&1 | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//' | FileCheck --check-prefix=OFF %s
// OFF: param ndiag i32 bind jds.ndiag (inferred)
// OFF-NEXT: array jp i32[] global param bind jds.ptr (inferred)
// OFF-NEXT: array ci i32[] global param bind jds.col (inferred)
// OFF-NEXT: array a f64[] global param bind jds.val (inferred)
// OFF-NEXT: array rows i32[] global param bind jds.perm (inferred)
// OFF-NEXT: array x f64[] global param bind vec(m) (inferred)
// OFF-NEXT: array y f64[] global param bind vec(n) (inferred)
// small.el: rows of 2 1 2 1 1 1 entries, two diagonals of 6 and 2; three
// reads of jd_ptr per diagonal, every entry once, y updated (two events).
// RUN: %augur simulate %s --function jds_spmv --data %S/../data/graphs/small.el | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: jd_ptr 6
// SIM-NEXT: col 8
// SIM-NEXT: val 8
// SIM-NEXT: perm 8
// SIM-NEXT: x 8
// SIM-NEXT: y 16
