/*
 * avx512.c - irregular reductions, tiled and grouped for AVX-512 (Chen et
 * al., CGO 2016): a conflict-free group of up to 16 edges is one vector of
 * 16 32-bit indices per endpoint, run as two halves of 8 doubles with masked
 * gathers and scatters; the lanes of a group never name the same node, so
 * the scatters never collide. Tile groups run one after the other, their
 * tiles shared out among OpenMP threads (kernels/ireduce).
 */
#include <immintrin.h>

#include "kernel.h"

void ireduce_euler_avx512(uint64_t ntgroups, const uint64_t *tgroup_tile,
                          const uint64_t *tile_group, const uint8_t *gcount, const uint32_t *gu,
                          const uint32_t *gv, const double *gw, const double *x, double *y)
{
#pragma omp parallel
    for (uint64_t tg = 0; tg < ntgroups; tg++) {
#pragma omp for schedule(dynamic, 1)
        for (uint64_t tile = tgroup_tile[tg]; tile < tgroup_tile[tg + 1]; tile++) {
            for (uint64_t g = tile_group[tile]; g < tile_group[tile + 1]; g++) {
                uint64_t s = g * IREDUCE_LANES;
                __mmask16 lanes = (__mmask16)((1u << gcount[g]) - 1u);
                __m512i vu = _mm512_loadu_si512(gu + s);
                __m512i vv = _mm512_loadu_si512(gv + s);

                for (int h = 0; h < 2; h++) {
                    __mmask8 m = (__mmask8)(lanes >> (8 * h));
                    __m256i iu = h ? _mm512_extracti32x8_epi32(vu, 1) : _mm512_castsi512_si256(vu);
                    __m256i iv = h ? _mm512_extracti32x8_epi32(vv, 1) : _mm512_castsi512_si256(vv);
                    __m512d zero = _mm512_setzero_pd();
                    __m512d xu, xv, val, yu, yv;

                    if (!m)
                        break;
                    xu = _mm512_mask_i32gather_pd(zero, m, iu, x, 8);
                    xv = _mm512_mask_i32gather_pd(zero, m, iv, x, 8);
                    val = _mm512_mul_pd(_mm512_maskz_loadu_pd(m, gw + s + 8 * h),
                                        _mm512_sub_pd(xu, xv));
                    yu = _mm512_mask_i32gather_pd(zero, m, iu, y, 8);
                    _mm512_mask_i32scatter_pd(y, m, iu, _mm512_sub_pd(yu, val), 8);
                    yv = _mm512_mask_i32gather_pd(zero, m, iv, y, 8);
                    _mm512_mask_i32scatter_pd(y, m, iv, _mm512_add_pd(yv, val), 8);
                }
            }
        }
    }
}

void ireduce_moldyn_avx512(uint64_t ntgroups, const uint64_t *tgroup_tile,
                           const uint64_t *tile_group, const uint8_t *gcount, const uint32_t *gu,
                           const uint32_t *gv, const double *px, const double *py, const double *pz,
                           double cutoff2, double *fx, double *fy, double *fz)
{
    const __m512d cut = _mm512_set1_pd(cutoff2);
    const __m512d soft = _mm512_set1_pd(MOLDYN_SOFT);
    const __m512d half = _mm512_set1_pd(0.5);
    const __m512d one = _mm512_set1_pd(1.0);

#pragma omp parallel
    for (uint64_t tg = 0; tg < ntgroups; tg++) {
#pragma omp for schedule(dynamic, 1)
        for (uint64_t tile = tgroup_tile[tg]; tile < tgroup_tile[tg + 1]; tile++) {
            for (uint64_t g = tile_group[tile]; g < tile_group[tile + 1]; g++) {
                uint64_t s = g * IREDUCE_LANES;
                __mmask16 lanes = (__mmask16)((1u << gcount[g]) - 1u);
                __m512i vu = _mm512_loadu_si512(gu + s);
                __m512i vv = _mm512_loadu_si512(gv + s);

                for (int h = 0; h < 2; h++) {
                    __mmask8 m = (__mmask8)(lanes >> (8 * h));
                    __m256i iu = h ? _mm512_extracti32x8_epi32(vu, 1) : _mm512_castsi512_si256(vu);
                    __m256i iv = h ? _mm512_extracti32x8_epi32(vv, 1) : _mm512_castsi512_si256(vv);
                    __m512d zero = _mm512_setzero_pd();
                    __m512d dx, dy, dz, r2, sc, s6, f, fu, fv;
                    __mmask8 near;

                    if (!m)
                        break;
                    dx = _mm512_sub_pd(_mm512_mask_i32gather_pd(zero, m, iu, px, 8),
                                       _mm512_mask_i32gather_pd(zero, m, iv, px, 8));
                    dy = _mm512_sub_pd(_mm512_mask_i32gather_pd(zero, m, iu, py, 8),
                                       _mm512_mask_i32gather_pd(zero, m, iv, py, 8));
                    dz = _mm512_sub_pd(_mm512_mask_i32gather_pd(zero, m, iu, pz, 8),
                                       _mm512_mask_i32gather_pd(zero, m, iv, pz, 8));
                    r2 = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(dx, dx), _mm512_mul_pd(dy, dy)),
                                       _mm512_mul_pd(dz, dz));
                    near = _mm512_mask_cmp_pd_mask(m, r2, zero, _CMP_GT_OQ);
                    near = _mm512_mask_cmp_pd_mask(near, r2, cut, _CMP_LT_OQ);
                    if (!near)
                        continue;
                    sc = _mm512_div_pd(one, _mm512_add_pd(r2, soft));
                    s6 = _mm512_mul_pd(_mm512_mul_pd(sc, sc), sc);
                    f = _mm512_mul_pd(_mm512_mul_pd(sc, s6), _mm512_sub_pd(s6, half));

                    fu = _mm512_mask_i32gather_pd(zero, near, iu, fx, 8);
                    _mm512_mask_i32scatter_pd(fx, near, iu, _mm512_add_pd(fu, _mm512_mul_pd(f, dx)),
                                              8);
                    fv = _mm512_mask_i32gather_pd(zero, near, iv, fx, 8);
                    _mm512_mask_i32scatter_pd(fx, near, iv, _mm512_sub_pd(fv, _mm512_mul_pd(f, dx)),
                                              8);
                    fu = _mm512_mask_i32gather_pd(zero, near, iu, fy, 8);
                    _mm512_mask_i32scatter_pd(fy, near, iu, _mm512_add_pd(fu, _mm512_mul_pd(f, dy)),
                                              8);
                    fv = _mm512_mask_i32gather_pd(zero, near, iv, fy, 8);
                    _mm512_mask_i32scatter_pd(fy, near, iv, _mm512_sub_pd(fv, _mm512_mul_pd(f, dy)),
                                              8);
                    fu = _mm512_mask_i32gather_pd(zero, near, iu, fz, 8);
                    _mm512_mask_i32scatter_pd(fz, near, iu, _mm512_add_pd(fu, _mm512_mul_pd(f, dz)),
                                              8);
                    fv = _mm512_mask_i32gather_pd(zero, near, iv, fz, 8);
                    _mm512_mask_i32scatter_pd(fz, near, iv, _mm512_sub_pd(fv, _mm512_mul_pd(f, dz)),
                                              8);
                }
            }
        }
    }
}
