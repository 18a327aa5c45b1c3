/*
 * omp.c - the finite-volume kernel with OpenMP: the simple version of seed
 * 001 Fig. 4 (parallel for over cells) and the full version of Fig. 5
 * (per-thread private copies of A and l, one parallel region for all time
 * steps) (kernels/fv).
 */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#    include <omp.h>
#endif

#include "kernel.h"

void fv_ell_omp_simple(uint32_t n, uint32_t width, const uint32_t *idx, const double *a,
                       const double *x, double *y)
{
#pragma omp parallel for schedule(static)
    for (uint32_t i = 0; i < n; i++) {
        double xi = x[i];
        double sum = 0.0;

        for (uint32_t k = 0; k < width; k++)
            sum += a[(uint64_t)k * n + i] * (x[idx[(uint64_t)k * n + i]] - xi);
        y[i] = sum;
    }
}

double *fv_ell_omp_private(uint32_t n, uint32_t width, const uint32_t *idx, const double *a,
                           double *x, double *y, int nsteps)
{
    int failed = 0;

#pragma omp parallel
    {
        int tid = 0, nthreads = 1;
        uint32_t base, extra, lo, hi, len;
        double *loc_a;
        uint32_t *loc_i;
        double *xs = x, *ys = y;
        int stop;

#ifdef _OPENMP
        tid = omp_get_thread_num();
        nthreads = omp_get_num_threads();
#endif
        /* Equal chunks, the first n % nthreads one cell longer (Fig. 5 divides evenly). */
        base = n / (uint32_t)nthreads;
        extra = n % (uint32_t)nthreads;
        lo = base * (uint32_t)tid + ((uint32_t)tid < extra ? (uint32_t)tid : extra);
        len = base + ((uint32_t)tid < extra ? 1u : 0u);
        hi = lo + len;
        /* Initialization: this thread's slots, cell-major (loc[width * c + k]). */
        loc_a = malloc((size_t)(width ? width : 1) * (len ? len : 1) * sizeof(*loc_a));
        loc_i = malloc((size_t)(width ? width : 1) * (len ? len : 1) * sizeof(*loc_i));
        if (!loc_a || !loc_i) {
#pragma omp atomic write
            failed = 1;
        } else {
            for (uint32_t c = 0; c < len; c++) {
                for (uint32_t k = 0; k < width; k++) {
                    loc_a[(uint64_t)width * c + k] = a[(uint64_t)k * n + lo + c];
                    loc_i[(uint64_t)width * c + k] = idx[(uint64_t)k * n + lo + c];
                }
            }
        }
#pragma omp barrier
#pragma omp atomic read
        stop = failed;
        if (!stop) {
            for (int t = 0; t < nsteps; t++) {
                double *swap;

                for (uint32_t i = lo; i < hi; i++) {
                    const double *la = loc_a + (uint64_t)width * (i - lo);
                    const uint32_t *li = loc_i + (uint64_t)width * (i - lo);
                    double xi = xs[i];
                    double sum = 0.0;

                    for (uint32_t k = 0; k < width; k++)
                        sum += la[k] * (xs[li[k]] - xi);
                    ys[i] = sum;
                }
                /* Prepare for the next step: every thread swaps its own view. */
#pragma omp barrier
                swap = xs;
                xs = ys;
                ys = swap;
            }
        }
        free(loc_a);
        free(loc_i);
    }
    if (failed)
        return NULL;
    return nsteps % 2 ? y : x;
}
