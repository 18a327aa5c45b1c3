/* A row walked by a loop that leaves through a break at the top of its
   body (k = rowptr[i]; do { if (k >= rowptr[i + 1]) break; ... k++; }
   while (1)): k runs over row i as in a for loop, so what the body reads
   at k is per entry. */
void row_sums(int n, const int *rowptr, const int *col, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0;
        int k = rowptr[i];

        do {
            if (k >= rowptr[i + 1])
                break;
            s += x[col[k]];
            k++;
        } while (1);
        y[i] = s;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: not bound
// CHECK: array rowptr i32[] global param @5:22 bind csr.rowptr (inferred)
// CHECK-NEXT: array col i32[] global param @5:41 bind csr.col (inferred)
// CHECK-NEXT: array x f64[] global param @5:57 bind vec(m) (inferred)
