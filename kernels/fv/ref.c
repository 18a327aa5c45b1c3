/*
 * ref.c - the finite-volume kernel of Langguth et al. JPDC'15 eq. (1) over ELLPACK, scalar
 * reference and its time-stepping driver (kernels/fv).
 */
#include "kernel.h"

void fv_ell_ref(uint32_t n, uint32_t width, const uint32_t *idx, const double *a, const double *x,
                double *y)
{
    for (uint32_t i = 0; i < n; i++) {
        double xi = x[i];
        double sum = 0.0;

        for (uint32_t k = 0; k < width; k++)
            sum += a[(uint64_t)k * n + i] * (x[idx[(uint64_t)k * n + i]] - xi);
        y[i] = sum;
    }
}

double *fv_ell_steps_ref(uint32_t n, uint32_t width, const uint32_t *idx, const double *a,
                         double *x, double *y, int nsteps)
{
    for (int t = 0; t < nsteps; t++) {
        double *swap;

        fv_ell_ref(n, width, idx, a, x, y);
        swap = x;
        x = y;
        y = swap;
    }
    return x;
}
