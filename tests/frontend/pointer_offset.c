/* A pointer set to a row's start inside the row loop is address generation,
   as a subscript is: compilers strength-reduce w * i to a pointer bumped by
   w, so its multiply and adds are not counted as operations (the loop's
   own step and the sum's add still are). */
void row_sums(unsigned n, unsigned w, const double *a, double *y)
{
    for (unsigned i = 0; i < n; i++) {
        const double *row = a + (unsigned long)w * i;
        double s = 0.0;

        for (unsigned k = 0; k < w; k++)
            s += row[k];
        y[i] = s;
    }
}

// RUN: %augur skeleton %s | FileCheck %s
// CHECK: kernel row_sums @
// CHECK: set row = (i64)((u64)w * i) @8:9
// CHECK-NOT: imul
// CHECK: load a[row + k] @12:18
// CHECK: ops fadd.f64.c=1 iadd.u32=1 cmp.u32=1 @12:13
