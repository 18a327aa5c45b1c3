#include <immintrin.h>

/* Gathers whose index vectors are computed (scaled, shifted, offset) before
   them, one written through the kernel's own macro: the intrinsic is found
   in the macro's body, its arguments where the macro's are written. */
#define GATHER_X(vidx) _mm512_i32gather_pd(vidx, x, 8)

void sell8_spmv_odd(int nslices, const int *restrict sliceptr, const int *restrict col,
                    const double *restrict val, const double *restrict x, double *restrict y)
{
    const __m256i two = _mm256_set1_epi32(2), one = _mm256_set1_epi32(1);

    for (int s = 0; s < nslices; s++) {
        __m512d acc = _mm512_setzero_pd();

        for (int j = sliceptr[s]; j < sliceptr[s + 1]; j += 8) {
            __m256i c = _mm256_loadu_si256((const __m256i *)(col + j));
            __m256i xi = _mm256_add_epi32(_mm256_mullo_epi32(c, two), one);

            acc = _mm512_fmadd_pd(_mm512_loadu_pd(val + j), GATHER_X(xi), acc);
        }
        _mm512_storeu_pd(y + 8 * s, acc);
    }
}

void pair_sums(int n, const int *restrict idx, const float *restrict xs, float *restrict out)
{
    for (int i = 0; i + 16 <= n; i += 16) {
        __m512i ci = _mm512_loadu_si512(idx + i);
        __m512i lo = _mm512_mullo_epi32(_mm512_slli_epi32(ci, 1), _mm512_set1_epi32(1));
        __m512i hi = _mm512_add_epi32(lo, _mm512_set1_epi32(1));

        _mm512_storeu_ps(out + i, _mm512_add_ps(_mm512_i32gather_ps(lo, xs, 4),
                                                _mm512_i32gather_ps(hi, xs, 4)));
    }
}

// RUN: %augur skeleton %s -- -mavx512f -mavx2 2>&1 | FileCheck %s
// CHECK-NOT: cannot tell which array
// CHECK-LABEL: kernel sell8_spmv_odd @
// CHECK: load col[j + lane] @17:25 x8
// CHECK-NEXT: load val[j + lane] @20:35 x8
// CHECK-NEXT: load x[col[j + lane] * 2 + 1] @20:61 x8 indirect(col)
// CHECK-NEXT: ops ffma.f64x8.c=1 {{.*}} gather.f64x8=1
// CHECK-LABEL: kernel pair_sums @
// CHECK: load idx[i + lane] @29:22 x16
// CHECK-NEXT: load xs[(idx[i + lane] << 1) * 1] @33:49 x16 indirect(idx)
// CHECK-NEXT: load xs[(idx[i + lane] << 1) * 1 + 1] @34:49 x16 indirect(idx)
