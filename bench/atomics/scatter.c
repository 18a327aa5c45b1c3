/*
 * scatter.c - the transpose SpMV y = A^T x as a scatter (each row's entries
 * add into y[col[k]]), plain and with every update an OpenMP atomic, the
 * form a parallel scatter takes (bench/atomics.sh). The plain one is not
 * thread-safe: it runs on one thread.
 */
#include <stdint.h>

void scatter_plain(uint32_t n, const uint64_t *rowptr, const uint32_t *col, const double *val,
                   const double *x, double *y)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint64_t k = rowptr[i]; k < rowptr[i + 1]; k++)
            y[col[k]] += val[k] * x[i];
}

void scatter_atomic(uint32_t n, const uint64_t *rowptr, const uint32_t *col, const double *val,
                    const double *x, double *y)
{
#pragma omp parallel for schedule(static)
    for (uint32_t i = 0; i < n; i++)
        for (uint64_t k = rowptr[i]; k < rowptr[i + 1]; k++) {
#pragma omp atomic
            y[col[k]] += val[k] * x[i];
        }
}
