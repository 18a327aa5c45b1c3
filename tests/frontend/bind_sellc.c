/* SELL-C-sigma SpMV: chunks of C rows stored column by column, each chunk as
   wide as its longest row. Accesses at cs[c] + j*C + r with j < cl[c] and
   r < C make cs, cl, col and val SELL-8's; y holds C values per chunk. */
#define C 8

void sellc_spmv(int nchunks, const int *restrict cs, const int *restrict cl, const int *restrict col,
                const double *restrict val, const double *restrict x, double *restrict y)
{
    for (int c = 0; c < nchunks; c++) {
        double acc[C] = { 0 };
        for (int j = 0; j < cl[c]; j++)
            for (int r = 0; r < C; r++) {
                const int at = cs[c] + j * C + r;
                acc[r] += val[at] * x[col[at]];
            }
        for (int r = 0; r < C; r++)
            y[c * C + r] = acc[r];
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: param nchunks i32 @6:17 bind sell8.nchunks (inferred)
// CHECK: array cs i32[] global param @6:30 bind sell8.cs (inferred)
// CHECK-NEXT: array cl i32[] global param @6:54 bind sell8.cl (inferred)
// CHECK-NEXT: array col i32[] global param @6:78 bind sell8.col (inferred)
// CHECK-NEXT: array val f64[] global param @7:17 bind sell8.val (inferred)
// CHECK-NEXT: array x f64[] global param @7:45 bind vec(m) (inferred)
// CHECK-NEXT: array y f64[] global param @7:71 bind vec(8*sell8.nchunks) (inferred)
// small.el: one chunk of 6 rows (and 2 of padding) as wide as its longest
// row (2 entries): 16 slots, 8 of them padding; y gets 8 values.
// RUN: %augur simulate %s --data %S/../data/graphs/small.el | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: cs 16
// SIM-NEXT: cl 1
// SIM-NEXT: col 16
// SIM-NEXT: val 16
// SIM-NEXT: x 16
// SIM-NEXT: y 8
