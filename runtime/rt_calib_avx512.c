/*
 * rt_calib_avx512.c - the AVX-512 microbenchmark kernels of `augur
 * calibrate`: streaming load, copy and triad at full vector width, 8-lane
 * gathers and scatters (module: runtime). Compiled with -mavx512f and friends;
 * the driver calls them only where __builtin_cpu_supports says so.
 */
#include <immintrin.h>

#include "rt_calib_int.h"

double calib_load_avx512(const double *a, size_t n)
{
    __m512d s0 = _mm512_setzero_pd(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0;
    __m512d s7 = s0;

    /* Eight independent accumulators: the adds never wait for each other. */
    for (size_t i = 0; i < n; i += CALIB_BLOCK) {
        s0 = _mm512_add_pd(s0, _mm512_load_pd(a + i));
        s1 = _mm512_add_pd(s1, _mm512_load_pd(a + i + 8));
        s2 = _mm512_add_pd(s2, _mm512_load_pd(a + i + 16));
        s3 = _mm512_add_pd(s3, _mm512_load_pd(a + i + 24));
        s4 = _mm512_add_pd(s4, _mm512_load_pd(a + i + 32));
        s5 = _mm512_add_pd(s5, _mm512_load_pd(a + i + 40));
        s6 = _mm512_add_pd(s6, _mm512_load_pd(a + i + 48));
        s7 = _mm512_add_pd(s7, _mm512_load_pd(a + i + 56));
    }
    s0 = _mm512_add_pd(_mm512_add_pd(s0, s1), _mm512_add_pd(s2, s3));
    s4 = _mm512_add_pd(_mm512_add_pd(s4, s5), _mm512_add_pd(s6, s7));
    return _mm512_reduce_add_pd(_mm512_add_pd(s0, s4));
}

void calib_copy_avx512(double *restrict b, const double *restrict a, size_t n)
{
    for (size_t i = 0; i < n; i += 32) {
        _mm512_store_pd(b + i, _mm512_load_pd(a + i));
        _mm512_store_pd(b + i + 8, _mm512_load_pd(a + i + 8));
        _mm512_store_pd(b + i + 16, _mm512_load_pd(a + i + 16));
        _mm512_store_pd(b + i + 24, _mm512_load_pd(a + i + 24));
    }
}

void calib_triad_avx512(double *restrict a, const double *restrict b, const double *restrict c,
                        double s, size_t n)
{
    __m512d vs = _mm512_set1_pd(s);

    for (size_t i = 0; i < n; i += 16) {
        _mm512_store_pd(a + i, _mm512_fmadd_pd(vs, _mm512_load_pd(c + i), _mm512_load_pd(b + i)));
        _mm512_store_pd(a + i + 8,
                        _mm512_fmadd_pd(vs, _mm512_load_pd(c + i + 8), _mm512_load_pd(b + i + 8)));
    }
}

double calib_gather_avx512(const double *x, const int32_t *idx, size_t n)
{
    __m512d s0 = _mm512_setzero_pd(), s1 = s0;

    for (size_t i = 0; i < n; i += 16) {
        __m256i i0 = _mm256_loadu_si256((const __m256i *)(idx + i));
        __m256i i1 = _mm256_loadu_si256((const __m256i *)(idx + i + 8));

        s0 = _mm512_add_pd(s0, _mm512_i32gather_pd(i0, x, 8));
        s1 = _mm512_add_pd(s1, _mm512_i32gather_pd(i1, x, 8));
    }
    return _mm512_reduce_add_pd(_mm512_add_pd(s0, s1));
}

void calib_scatter_avx512(double *x, const int32_t *idx, size_t n)
{
    __m512d v = _mm512_set1_pd(1.0);

    for (size_t i = 0; i < n; i += 16) {
        __m256i i0 = _mm256_loadu_si256((const __m256i *)(idx + i));
        __m256i i1 = _mm256_loadu_si256((const __m256i *)(idx + i + 8));

        _mm512_i32scatter_pd(x, i0, v, 8);
        _mm512_i32scatter_pd(x, i1, v, 8);
    }
}
