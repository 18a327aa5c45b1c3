/*
 * kernel.h - CSR sparse matrix-vector product y = A x: descriptor and the
 * prototypes of its variants (kernels/spmv).
 */
#ifndef AUGUR_KERNEL_SPMV_H
#define AUGUR_KERNEL_SPMV_H

#include <stdint.h>

#include "../kernel_desc.h"

extern const struct augur_kernel_desc spmv_csr_desc;

/*
 * Every variant computes y[i] = sum over j in [rowptr[i], rowptr[i+1]) of
 * val[j] * x[col[j]] for the nrows rows. val must be present (use an array
 * of ones for a pattern matrix). The AVX-512 variant needs column indices
 * below 2^31 (its gathers take signed 32-bit indices).
 */
void spmv_csr_ref(uint32_t nrows, const uint64_t *rowptr, const uint32_t *col, const double *val,
                  const double *x, double *y);
void spmv_csr_omp_static(uint32_t nrows, const uint64_t *rowptr, const uint32_t *col,
                         const double *val, const double *x, double *y);
void spmv_csr_omp_dynamic(uint32_t nrows, const uint64_t *rowptr, const uint32_t *col,
                          const double *val, const double *x, double *y);
void spmv_csr_avx512(uint32_t nrows, const uint64_t *rowptr, const uint32_t *col, const double *val,
                     const double *x, double *y);

/*
 * CUDA (cuda.cu, built only when nvcc is found): copies the matrix and x to
 * the first GPU, runs the kernel reps times (one thread per row) and copies y
 * back. Returns 0, or -1 when no GPU is usable; *seconds gets the time of one
 * launch (the fastest), measured with CUDA events.
 */
int spmv_csr_cuda_run(uint32_t nrows, uint64_t nnz, const uint64_t *rowptr, const uint32_t *col,
                      const double *val, const double *x, double *y, int reps, double *seconds);
/* The same with a warp of 32 threads per row (the "vector" CSR kernel). */
int spmv_csr_vector_cuda_run(uint32_t nrows, uint64_t nnz, const uint64_t *rowptr,
                             const uint32_t *col, const double *val, const double *x, double *y,
                             int reps, double *seconds);

#endif
