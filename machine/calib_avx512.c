/*
 * calib_avx512.c - the AVX-512 microbenchmark kernels of `augur
 * calibrate`: streaming load, copy and triad at full vector width, 8-lane
 * gathers and scatters at random indices drawn in the vector unit (module:
 * runtime). Compiled with -mavx512f and friends;
 * the driver calls them only where __builtin_cpu_supports says so.
 */
#include <immintrin.h>

#include "calib_int.h"

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

/* One xorshift64 step in each of the 8 lanes. */
static inline __m512i xorshift8(__m512i x)
{
    x = _mm512_xor_si512(x, _mm512_slli_epi64(x, 13));
    x = _mm512_xor_si512(x, _mm512_srli_epi64(x, 7));
    return _mm512_xor_si512(x, _mm512_slli_epi64(x, 17));
}

double calib_gather_avx512(const double *x, uint32_t mask, uint64_t n, uint64_t *state)
{
    __m512i r0 = _mm512_loadu_si512(state), r1 = _mm512_loadu_si512(state + 8);
    __m512i m = _mm512_set1_epi64((long long)mask);
    __m512d s0 = _mm512_setzero_pd(), s1 = s0;

    /* Two gathers of 8 per iteration, each with its own generators. */
    for (uint64_t i = 0; i < n; i++) {
        r0 = xorshift8(r0);
        r1 = xorshift8(r1);
        s0 = _mm512_add_pd(
            s0, _mm512_i32gather_pd(_mm512_cvtepi64_epi32(_mm512_and_si512(r0, m)), x, 8));
        s1 = _mm512_add_pd(
            s1, _mm512_i32gather_pd(_mm512_cvtepi64_epi32(_mm512_and_si512(r1, m)), x, 8));
    }
    _mm512_storeu_si512(state, r0);
    _mm512_storeu_si512(state + 8, r1);
    return _mm512_reduce_add_pd(_mm512_add_pd(s0, s1));
}

void calib_scatter_avx512(double *x, uint32_t mask, uint64_t n, uint64_t *state)
{
    __m512i r0 = _mm512_loadu_si512(state), r1 = _mm512_loadu_si512(state + 8);
    __m512i m = _mm512_set1_epi64((long long)mask);
    __m512d v = _mm512_set1_pd(1.0);

    for (uint64_t i = 0; i < n; i++) {
        r0 = xorshift8(r0);
        r1 = xorshift8(r1);
        _mm512_i32scatter_pd(x, _mm512_cvtepi64_epi32(_mm512_and_si512(r0, m)), v, 8);
        _mm512_i32scatter_pd(x, _mm512_cvtepi64_epi32(_mm512_and_si512(r1, m)), v, 8);
    }
    _mm512_storeu_si512(state, r0);
    _mm512_storeu_si512(state + 8, r1);
}
