/* float SpMV with size_t loop counters and restrict pointers. */
#include <stddef.h>
void spmv_f32(size_t n, const size_t *restrict ptr, const int *restrict idx,
              const float *restrict a, const float *restrict x, float *restrict y)
{
    for (size_t i = 0; i < n; ++i) {
        float s = 0.0f;
        for (size_t p = ptr[i]; p < ptr[i + 1]; ++p)
            s += a[p] * x[idx[p]];
        y[i] = s;
    }
}
