/*
 * omp.c - CSR sparse matrix-vector product with OpenMP: rows shared out
 * statically (equal row counts) or dynamically (chunks of 64 rows taken in
 * turn, for skewed row lengths) (kernels/spmv).
 */
#include "kernel.h"

void spmv_csr_omp_static(uint32_t nrows, const uint64_t *rowptr, const uint32_t *col,
                         const double *val, const double *x, double *y)
{
#pragma omp parallel for schedule(static)
    for (uint32_t i = 0; i < nrows; i++) {
        double sum = 0.0;

        for (uint64_t j = rowptr[i]; j < rowptr[i + 1]; j++)
            sum += val[j] * x[col[j]];
        y[i] = sum;
    }
}

void spmv_csr_omp_dynamic(uint32_t nrows, const uint64_t *rowptr, const uint32_t *col,
                          const double *val, const double *x, double *y)
{
#pragma omp parallel for schedule(dynamic, 64)
    for (uint32_t i = 0; i < nrows; i++) {
        double sum = 0.0;

        for (uint64_t j = rowptr[i]; j < rowptr[i + 1]; j++)
            sum += val[j] * x[col[j]];
        y[i] = sum;
    }
}
