/* A loop nest given to a timing macro as its argument, its row loop written
   by another macro: code from a macro argument is read where it is spelled
   (its operators and lines), code from a macro body where it is expanded. */
#define TIMED(label, code) do { code } while (0)
#define FOR_EACH_ROW(r, nr) for (int r = 0; r < (nr); ++r)

void jacobi_sweep(int nrows, const int *rp, const int *idx, const double *a, const double *diag,
                  const double *b, const double *xold, double *xnew)
{
    TIMED("sweep",
          FOR_EACH_ROW(r, nrows) {
              double acc = b[r];
              for (int p = rp[r]; p < rp[r + 1]; p++)
                  acc -= a[p] * xold[idx[p]];
              xnew[r] = xold[r] + acc / diag[r];
          });
}

/* A loop macro that takes its body as an argument, nested, with operator
   macros inside: each for's header comes from its own invocation. */
#define LOOP(i, n, body) for (int i = 0; i < (n); i++) { body }
#define ADD(a, b)        ((a) + (b))
#define MAX(a, b)        ((a) > (b) ? (a) : (b))

void row_sums(int n, const int *rp, const int *idx, const double *x, double *y)
{
    LOOP(i, n, double s = 0;
         LOOP(j, rp[i + 1] - rp[i], s = ADD(s, x[idx[rp[i] + j]]);)
         y[i] = MAX(s, 0.0);)
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: cannot read this operator
// CHECK: do @10:5
// CHECK-NEXT: for r = 0; r < nrows; r += 1 @11:11
// CHECK-NEXT: load b[r] @12:28
// CHECK-NEXT: load rp[r] @13:28
// CHECK-NEXT: load rp[r + 1] @13:39
// CHECK-NEXT: for p = rp[r]; p < rp[r + 1]; p += 1 @13:15
// CHECK-NEXT: load a[p] @14:26
// CHECK-NEXT: load idx[p] @14:38
// CHECK-NEXT: load xold[idx[p]] @14:33 indirect(idx)
// CHECK-NEXT: ops ffma.f64.c=1 iadd.i32=1 cmp.i32=1 @14:26
// CHECK-NEXT: load xold[r] @15:25
// CHECK-NEXT: load diag[r] @15:41
// CHECK-NEXT: store xnew[r] @15:15
// CHECK-NEXT: ops fadd.f64=1 fdiv.f64=1 iadd.i32=1 cmp.i32=1 @15:35
// CHECK-LABEL: kernel row_sums @
// CHECK: for i = 0; i < n; i += 1 @27:5
// CHECK-NEXT: load rp[i + 1] @28:18
// CHECK-NEXT: load rp[i] @28:30
// CHECK: for j = 0; j < rp[i + 1] - rp[i]; j += 1 @28:10
// CHECK: load x[idx[rp[i] + j]] @28:48 indirect(rp, idx)
// CHECK-NEXT: ops fadd.f64.c=1 iadd.i32=1 cmp.i32=1 @28:41
// CHECK-NEXT: store y[i] @29:10
