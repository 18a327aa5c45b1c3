/*
 * variants.c - the column-major finite-volume kernel of kernels/fv/omp.c
 * (fv_ell_omp_simple) taken apart, to time what each part of it costs on
 * a dataset (bench/fv/variants.sh). Every variant takes the kernel's
 * parameters and binds as it does, and is written out whole, as the kernel
 * has it: a shared helper would be a call the front end inlines, another
 * skeleton than the kernel's.
 */
#include <stdint.h>

/* The kernel as shipped: streams of a and idx, gathers of x, a chain per row. */
void fv_full(uint32_t n, uint32_t width, const uint32_t *idx, const double *a, const double *x,
             double *y)
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

/* The streams and the chain: idx is read but not gathered through. */
void fv_streams(uint32_t n, uint32_t width, const uint32_t *idx, const double *a, const double *x,
                double *y)
{
#pragma omp parallel for schedule(static)
    for (uint32_t i = 0; i < n; i++) {
        double xi = x[i];
        double sum = 0.0;

        for (uint32_t k = 0; k < width; k++)
            sum += a[(uint64_t)k * n + i] * ((double)idx[(uint64_t)k * n + i] - xi);
        y[i] = sum;
    }
}

/* Everything of fv_full, but each gather lands beside x[i] (an L1 hit). */
void fv_local(uint32_t n, uint32_t width, const uint32_t *idx, const double *a, const double *x,
              double *y)
{
#pragma omp parallel for schedule(static)
    for (uint32_t i = 0; i < n; i++) {
        double xi = x[i];
        double sum = 0.0;

        for (uint32_t k = 0; k < width; k++)
            sum += a[(uint64_t)k * n + i] * (x[i ^ (idx[(uint64_t)k * n + i] & 1)] - xi);
        y[i] = sum;
    }
}

/* The gathers alone, idx read column by column as fv_full reads it. */
void fv_gathers(uint32_t n, uint32_t width, const uint32_t *idx, const double *a, const double *x,
                double *y)
{
    (void)a;
#pragma omp parallel for schedule(static)
    for (uint32_t i = 0; i < n; i++) {
        double sum = 0.0;

        for (uint32_t k = 0; k < width; k++)
            sum += x[idx[(uint64_t)k * n + i]];
        y[i] = sum;
    }
}

/*
 * The same number of gathers with idx read row by row (idx[i w + k]: other
 * neighbours, as random on a randomly numbered mesh): one load instruction
 * walking one stream instead of width of them.
 */
void fv_gathers_rowwise(uint32_t n, uint32_t width, const uint32_t *idx, const double *a,
                        const double *x, double *y)
{
    (void)a;
#pragma omp parallel for schedule(static)
    for (uint32_t i = 0; i < n; i++) {
        double sum = 0.0;

        for (uint32_t k = 0; k < width; k++)
            sum += x[idx[(uint64_t)i * width + k]];
        y[i] = sum;
    }
}
