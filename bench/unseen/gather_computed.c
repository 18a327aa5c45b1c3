/* AVX-512 SpMV over column-major ELLPACK, eight rows a vector: the gather's indices are computed. */
#include <immintrin.h>

void ell_spmv_avx512(int n, int width, const int *restrict idx, const double *restrict val,
                     const double *restrict x, double *restrict y)
{
    for (int i = 0; i + 8 <= n; i += 8) {
        __m512d acc = _mm512_setzero_pd();
        for (int k = 0; k < width; k++) {
            __m256i ci = _mm256_loadu_si256((const __m256i *)(idx + (size_t)k * n + i));
            __m256i off = _mm256_add_epi32(_mm256_mullo_epi32(ci, _mm256_set1_epi32(1)),
                                           _mm256_setzero_si256());
            __m512d xv = _mm512_i32gather_pd(off, x, 8);
            acc = _mm512_fmadd_pd(_mm512_loadu_pd(val + (size_t)k * n + i), xv, acc);
        }
        _mm512_storeu_pd(y + i, acc);
    }
}
