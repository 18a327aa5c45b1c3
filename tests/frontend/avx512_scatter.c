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
        __mmask16 todo = 0xFFFF;
        do {
            __mmask16 ready = _mm512_mask_testn_epi32_mask(todo, conf, _mm512_set1_epi32(-1));
            __m512 old = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), ready, vd, y, 4);
            _mm512_mask_i32scatter_ps(y, ready, vd, _mm512_add_ps(old, contrib), 4);
            todo = _kandn_mask16(ready, todo);
        } while (todo);
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
