/* Parameters named like the skeleton's own words (ptr, f64 are type names
   in the text form) are kept under a unique name, bound by their C name. */
void scale(int n, const long *ptr, const int *col, const double *f64, double *y)
{
    for (int i = 0; i < n; i++)
        for (long k = ptr[i]; k < ptr[i + 1]; k++)
            y[i] += f64[k] * y[col[k]];
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: array ptr.2 i64[] global param @3:19 bind csr.rowptr (inferred)
// CHECK: array f64.2 f64[] global param @3:52 bind csr.val (inferred)
// CHECK: load f64.2[k]
// RUN: %augur skeleton --bind ptr=csr.rowptr,f64=csr.val %s 2>&1 | FileCheck --check-prefix=BIND %s
// BIND: array ptr.2 i64[] global param @3:19 bind csr.rowptr (cli)
// BIND: array f64.2 f64[] global param @3:52 bind csr.val (cli)
