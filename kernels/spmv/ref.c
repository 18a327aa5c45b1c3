/*
 * ref.c - CSR sparse matrix-vector product, the scalar reference (kernels/spmv).
 */
#include "kernel.h"

void spmv_csr_ref(uint32_t nrows, const uint64_t *rowptr, const uint32_t *col, const double *val,
                  const double *x, double *y)
{
    for (uint32_t i = 0; i < nrows; i++) {
        double sum = 0.0;

        for (uint64_t j = rowptr[i]; j < rowptr[i + 1]; j++)
            sum += val[j] * x[col[j]];
        y[i] = sum;
    }
}
