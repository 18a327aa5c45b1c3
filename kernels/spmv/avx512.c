/*
 * avx512.c - CSR sparse matrix-vector product with AVX-512: eight entries of
 * a row at a time (values loaded, x gathered through the column indices,
 * fused multiply-add), the row's tail under a mask, rows shared out
 * statically among OpenMP threads (kernels/spmv). Compile with -mavx512f
 * and call only where __builtin_cpu_supports("avx512f").
 */
#include <immintrin.h>

#include "kernel.h"

void spmv_csr_avx512(uint32_t nrows, const uint64_t *rowptr, const uint32_t *col, const double *val,
                     const double *x, double *y)
{
#pragma omp parallel for schedule(static)
    for (uint32_t i = 0; i < nrows; i++) {
        __m512d acc = _mm512_setzero_pd();
        uint64_t j = rowptr[i];
        uint64_t end = rowptr[i + 1];

        for (; j + 8 <= end; j += 8) {
            __m256i idx = _mm256_loadu_si256((const __m256i *)(col + j));
            __m512d xv = _mm512_i32gather_pd(idx, x, 8);

            acc = _mm512_fmadd_pd(_mm512_loadu_pd(val + j), xv, acc);
        }
        if (j < end) {
            __mmask8 m = (__mmask8)((1u << (end - j)) - 1u);
            __m256i idx = _mm256_maskz_loadu_epi32(m, col + j);
            __m512d xv = _mm512_mask_i32gather_pd(_mm512_setzero_pd(), m, idx, x, 8);

            acc = _mm512_fmadd_pd(_mm512_maskz_loadu_pd(m, val + j), xv, acc);
        }
        y[i] = _mm512_reduce_add_pd(acc);
    }
}
