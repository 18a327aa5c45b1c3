/*
 * omp.c - one PageRank iteration, pull direction, with OpenMP: nodes shared
 * out in dynamic chunks of 64 (in-degrees are skewed), the change summed by
 * a reduction (kernels/pagerank).
 */
#include <math.h>

#include "kernel.h"

double pagerank_pull_omp(uint32_t n, const uint64_t *rowptr, const uint32_t *col,
                         const uint32_t *outdeg, double damping, const double *pr, double *contrib,
                         double *next)
{
    double base = (1.0 - damping) / n;
    double change = 0.0;

#pragma omp parallel
    {
#pragma omp for schedule(static)
        for (uint32_t u = 0; u < n; u++)
            contrib[u] = outdeg[u] ? pr[u] / outdeg[u] : 0.0;
#pragma omp for schedule(dynamic, 64) reduction(+ : change)
        for (uint32_t v = 0; v < n; v++) {
            double sum = 0.0;

            for (uint64_t j = rowptr[v]; j < rowptr[v + 1]; j++)
                sum += contrib[col[j]];
            next[v] = base + damping * sum;
            change += fabs(next[v] - pr[v]);
        }
    }
    return change;
}
