#include <immintrin.h>

/* Edge-parallel scatter-add with AVX-512: gathers the source values, detects
   conflicting destinations with _mm512_conflict_epi32 and scatters under a
   mask until every lane is done; the tail uses a mask from a compare. */
void scatter_add(int nedges, const int *src, const int *dst, const float *w, const float *x,
                 float *y)
{
    int e = 0;
    for (; e + 16 <= nedges; e += 16) {
        __m512i vs = _mm512_loadu_si512(&src[e]);
        __m512i vd = _mm512_loadu_si512(&dst[e]);
        __m512 vw = _mm512_loadu_ps(&w[e]);
        __m512 vx = _mm512_i32gather_ps(vs, x, 4);
        __m512 contrib = _mm512_mul_ps(vw, vx);
        __m512i conf = _mm512_conflict_epi32(vd);
        __mmask16 left = 0xFFFF;
        do {
            __mmask16 ready = _mm512_mask_testn_epi32_mask(left, conf, _mm512_set1_epi32(-1));
            __m512 old = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), ready, vd, y, 4);
            _mm512_mask_i32scatter_ps(y, ready, vd, _mm512_add_ps(old, contrib), 4);
            left = _kandn_mask16(ready, left);
        } while (left);
    }
    if (e < nedges) {
        __m512i lanes = _mm512_add_epi32(_mm512_set1_epi32(e),
                                         _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                                           11, 12, 13, 14, 15));
        __mmask16 tail = _mm512_cmplt_epi32_mask(lanes, _mm512_set1_epi32(nedges));
        __m512i vs = _mm512_maskz_loadu_epi32(tail, &src[e]);
        __m512 vx = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), tail, vs, x, 4);
        float s = _mm512_mask_reduce_add_ps(tail, vx);
        y[0] += s;
    }
}

// RUN: %augur skeleton %s -- -mavx512f -mavx512cd | FileCheck %s
// CHECK: param nedges i32 @6:18 bind nnz (inferred)
// CHECK: builtin lane i32
// CHECK: array src i32[] global param @6:30 bind coo.row (inferred)
// CHECK-NEXT: array dst i32[] global param @6:46 bind coo.col (inferred)
// CHECK-NEXT: array w f32[] global param @6:62 bind coo.val (inferred)
// CHECK-NEXT: array x f32[] global param @6:78 bind vec(n) (inferred)
// CHECK-NEXT: array y f32[] global param @7:18 bind vec(m) (inferred)
// CHECK: for e = e; e + 16 <= nedges; e += 16 @10:5
// CHECK-NEXT: load src[e + lane] @11:22 x16
// CHECK-NEXT: load dst[e + lane] @12:22 x16
// CHECK-NEXT: load w[e + lane] @13:21 x16
// CHECK-NEXT: load x[src[e + lane]] @14:21 x16 indirect(src)
// CHECK: ops fmul.f32x16=1 vload.i32x16=2 vload.f32x16=1 gather.f32x16=1 conflict.i32x16=1
// CHECK-NEXT: do @18:9
// CHECK-NEXT: load y[dst[e + lane]] @20:26 x16 mask((u32)left >> lane & 1_u32 && (opaque("conflict") & -1) == 0) indirect(dst)
// CHECK-NEXT: store y[dst[e + lane]] @21:13 x16 mask(
// CHECK-SAME: indirect(dst)
// CHECK-NEXT: ops fadd.f32x16=1 cmp.i32x16.m=1 gather.f32x16.m=1 scatter.f32x16.m=1
// CHECK-NEXT: while opaque("any lane of a mask")
// CHECK: if e < nedges @25:5
// CHECK-NEXT: load src[e + lane] @30:22 x16 mask(e + (0 + 1 * (i32)lane) < nedges)
// CHECK-NEXT: load x[src[e + lane]] @31:21 x16 mask(e + (0 + 1 * (i32)lane) < nedges) indirect(src)
// CHECK: vload.i32x16.m=1 gather.f32x16.m=1 reduce.f32x16.m=1
