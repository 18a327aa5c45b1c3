/* Four partial sums of a sparse matrix times a dense block of 4 columns: size_t, uint64_t and
 * uint32_t indices, restrict, float values. */
#include <stddef.h>
#include <stdint.h>
void spmm4_flat(size_t nrows, const uint64_t *restrict rp, const uint32_t *restrict ci,
                const float *restrict av, const double *restrict X, double *restrict Y)
{
    for (size_t i = 0; i < nrows; i++) {
        double acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
        for (uint64_t k = rp[i]; k < rp[i + 1]; k++) {
            double a = av[k];
            const double *xr = X + 4 * (size_t)ci[k];
            acc0 += a * xr[0];
            acc1 += a * xr[1];
            acc2 += a * xr[2];
            acc3 += a * xr[3];
        }
        Y[4 * i + 0] = acc0;
        Y[4 * i + 1] = acc1;
        Y[4 * i + 2] = acc2;
        Y[4 * i + 3] = acc3;
    }
}
