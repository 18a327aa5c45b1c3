/*
 * parts.c - pieces of the reference kernels, to time and predict apart
 * (bench/parts/parts.sh): which part of a kernel's time a model misses.
 * Each piece is written out whole, as the kernel has it (a shared helper
 * would be a call the front end inlines through pointers the compiler
 * keeps in registers: another skeleton than the kernel's).
 */
#include <stdint.h>
#include <stdlib.h>

/* The private FV kernel's copy into cell-major arrays (kernels/fv/omp.c, one thread). */
void fv_private_copy(uint32_t n, uint32_t width, const uint32_t *idx, const double *a, double *y)
{
    double *loc_a = malloc((size_t)(width ? width : 1) * n * sizeof(*loc_a));
    uint32_t *loc_i = malloc((size_t)(width ? width : 1) * n * sizeof(*loc_i));

    if (!loc_a || !loc_i) {
        free(loc_a);
        free(loc_i);
        return;
    }
    for (uint32_t c = 0; c < n; c++)
        for (uint32_t k = 0; k < width; k++) {
            loc_a[(uint64_t)width * c + k] = a[(uint64_t)k * n + c];
            loc_i[(uint64_t)width * c + k] = idx[(uint64_t)k * n + c];
        }
    y[0] = loc_a[n / 2] + loc_i[n / 3];
    free(loc_a);
    free(loc_i);
}

/* The private FV kernel whole, without OpenMP: the copy, then one step. */
void fv_private_serial(uint32_t n, uint32_t width, const uint32_t *idx, const double *a,
                       const double *x, double *y)
{
    double *loc_a = malloc((size_t)(width ? width : 1) * n * sizeof(*loc_a));
    uint32_t *loc_i = malloc((size_t)(width ? width : 1) * n * sizeof(*loc_i));

    if (!loc_a || !loc_i) {
        free(loc_a);
        free(loc_i);
        return;
    }
    for (uint32_t c = 0; c < n; c++)
        for (uint32_t k = 0; k < width; k++) {
            loc_a[(uint64_t)width * c + k] = a[(uint64_t)k * n + c];
            loc_i[(uint64_t)width * c + k] = idx[(uint64_t)k * n + c];
        }
    for (uint32_t i = 0; i < n; i++) {
        const double *la = loc_a + (uint64_t)width * i;
        const uint32_t *li = loc_i + (uint64_t)width * i;
        double xi = x[i], sum = 0.0;

        for (uint32_t k = 0; k < width; k++)
            sum += la[k] * (x[li[k]] - xi);
        y[i] = sum;
    }
    free(loc_a);
    free(loc_i);
}

/* The Euler reduction (kernels/ireduce/ref.c). */
void ireduce_both(uint64_t nedges, const uint32_t *eu, const uint32_t *ev, const double *w,
                  const double *x, double *y)
{
    for (uint64_t e = 0; e < nedges; e++) {
        uint32_t u = eu[e], v = ev[e];
        double val = w[e] * (x[u] - x[v]);

        y[u] -= val;
        y[v] += val;
    }
}

/* The same with y[v] in a second array: no update waits for the other line's store. */
void ireduce_split(uint64_t nedges, const uint32_t *eu, const uint32_t *ev, const double *w,
                   const double *x, double *y, double *z)
{
    for (uint64_t e = 0; e < nedges; e++) {
        uint32_t u = eu[e], v = ev[e];
        double val = w[e] * (x[u] - x[v]);

        y[u] -= val;
        z[v] += val;
    }
}

/* The y[v] updates alone: no chain along a row. */
void ireduce_v_only(uint64_t nedges, const uint32_t *eu, const uint32_t *ev, const double *w,
                    const double *x, double *z)
{
    for (uint64_t e = 0; e < nedges; e++) {
        uint32_t u = eu[e], v = ev[e];

        z[v] += w[e] * (x[u] - x[v]);
    }
}

/* PageRank's contributions loop (kernels/pagerank/omp.c): a division a node. */
void pagerank_contrib(uint32_t n, const uint32_t *outdeg, const double *pr, double *contrib)
{
    for (uint32_t u = 0; u < n; u++)
        contrib[u] = outdeg[u] ? pr[u] / outdeg[u] : 0.0;
}
