/* One conjugate-gradient matrix-vector step in the NPB style: 1-based arrays
   and sizes as file statics. The loop from 1 to lastrow - firstrow + 1 walks
   rowstr at j and j + 1: csr1.*, vec1(...), lastrow n and firstrow 1; the
   statics take the data in their first elements. */
#define NA     14000
#define NONZER 11
#define NZ     (NA * (NONZER + 1) * (NONZER + 1))

static int naa, nzz;
static int firstrow, lastrow;
static int colidx[NZ + 1];
static int rowstr[NA + 2];
static double a[NZ + 1];
static double p[NA + 3], q[NA + 3];

static void cg_matvec(void)
{
    int j, k;
    double sum;

    for (j = 1; j <= lastrow - firstrow + 1; j++) {
        sum = 0.0;
        for (k = rowstr[j]; k < rowstr[j + 1]; k++) {
            sum = sum + a[k] * p[colidx[k]];
        }
        q[j] = sum;
    }
}

/* A 1-based loop to one scalar: n. */
void scale1(int n, const double *x, double *y)
{
    for (int i = 1; i <= n; i++)
        y[i] = 2.0 * x[i];
}

// RUN: %augur skeleton %s --function cg_matvec 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: param lastrow i32 @10:1 bind n (inferred)
// CHECK-NEXT: param firstrow i32 @10:1 bind =1 (inferred)
// CHECK: array rowstr i32[14002] global @12:1 bind csr1.rowptr (inferred)
// CHECK-NEXT: array a f64[2016001] global @13:1 bind csr1.val (inferred)
// CHECK-NEXT: array p f64[14003] global @14:1 bind vec1(m) (inferred)
// CHECK-NEXT: array colidx i32[2016001] global @11:1 bind csr1.col (inferred)
// CHECK-NEXT: array q f64[14003] global @14:1 bind vec1(n) (inferred)
// RUN: %augur skeleton %s --function scale1 2>&1 | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//' | FileCheck --check-prefix=SCALE %s
// SCALE: param n i32 bind n (inferred)
// SCALE-NEXT: array x f64[] global param bind vec1(n) (inferred)
// SCALE-NEXT: array y f64[] global param bind vec1(n) (inferred)
// small.el: 6 rows and 8 entries, each read once, as the 0-based SpMV does.
// RUN: %augur simulate %s --function cg_matvec --data %S/../data/graphs/small.el | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: rowstr 12
// SIM-NEXT: a 8
// SIM-NEXT: p 8
// SIM-NEXT: colidx 8
// SIM-NEXT: q 6
// SIM: rowstr csr1.rowptr
// SIM-SAME: 14002 4 56008
