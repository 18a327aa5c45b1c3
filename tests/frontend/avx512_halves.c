#include <immintrin.h>

/* The halves of a 16-lane index vector chosen by a loop counter, as a tiled
   and grouped reduction gathers eight doubles at a time: each half's lanes
   read their own indices, so the gathers stay indirect. */
void halves(long ngroups, const int *gu, const double *x, double *y)
{
    for (long g = 0; g < ngroups; g++) {
        __m512i vu = _mm512_loadu_si512(gu + 16 * g);

        for (int h = 0; h < 2; h++) {
            __m256i iu = h ? _mm512_extracti32x8_epi32(vu, 1) : _mm512_castsi512_si256(vu);
            __m512d xu = _mm512_i32gather_pd(iu, x, 8);

            _mm512_storeu_pd(y + 16 * g + 8 * h, xu);
        }
    }
}

// RUN: %augur skeleton %s --bind 'ngroups=n,gu=vec(16*n),x=vec(n),y=vec(16*n)' -- -mavx512f -mavx512dq | FileCheck %s
// CHECK: load gu[16 * g + lane] @9:22 x16
// CHECK: load x[h ? gu[16 * g + (lane + 8)] : gu[16 * g + lane]] @13:26 x8 indirect(gu)
// CHECK-NOT: opaque("vector"
