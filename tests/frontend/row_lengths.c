/* A row's length as the difference of two row pointers: the array is the
   CSR row pointer, and the loop over its rows runs to n. */
void degree_hist(int nodes, const long *rowptr, int *hist, int nbins)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < nodes; i++) {
        long d = rowptr[i + 1] - rowptr[i];
        int b = d < nbins ? (int)d : nbins - 1;
#pragma omp atomic
        hist[b]++;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: param nodes i32 @3:18 bind n (inferred)
// CHECK: array rowptr i64[] global param @3:29 bind csr.rowptr (inferred)
// CHECK: update hist[b] @10:9 atomic indirect(rowptr)
