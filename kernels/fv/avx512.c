/*
 * avx512.c - the finite-volume kernel with AVX-512: eight consecutive cells
 * per vector; for each slot, A and l are loaded at unit stride (ELLPACK is
 * slot-major) and x is gathered; the last cells under a mask; vectors shared
 * out statically among OpenMP threads (kernels/fv).
 */
#include <immintrin.h>

#include "kernel.h"

void fv_ell_avx512(uint32_t n, uint32_t width, const uint32_t *idx, const double *a,
                   const double *x, double *y)
{
    uint32_t nvec = (n + 7) / 8;

#pragma omp parallel for schedule(static)
    for (uint32_t v = 0; v < nvec; v++) {
        uint32_t i = v * 8;
        __mmask8 m = n - i >= 8 ? (__mmask8)0xff : (__mmask8)((1u << (n - i)) - 1u);
        __m512d xi = _mm512_maskz_loadu_pd(m, x + i);
        __m512d sum = _mm512_setzero_pd();

        for (uint32_t k = 0; k < width; k++) {
            uint64_t s = (uint64_t)k * n + i;
            __m256i li = _mm256_maskz_loadu_epi32(m, idx + s);
            __m512d xl = _mm512_mask_i32gather_pd(_mm512_setzero_pd(), m, li, x, 8);
            __m512d ak = _mm512_maskz_loadu_pd(m, a + s);

            sum = _mm512_fmadd_pd(ak, _mm512_sub_pd(xl, xi), sum);
        }
        _mm512_mask_storeu_pd(y + i, m, sum);
    }
}
