/* The OpenMP pitfall (style-anchors §5.3): parsed with -fopenmp, libclang
   hides the loops under a directive (an OMPParallelForDirective over a
   CapturedStmt). augur drops -fopenmp, keeps _OPENMP defined, and reads the
   directives from the tokens, so every loop stays visible with its schedule,
   collapse and reduction clauses - here with -fopenmp given on purpose. */
#ifdef _OPENMP
#include <omp.h>
#endif
#define W 4
#define CHUNK 16
#define OMP_FOR _Pragma("omp for schedule(guided)")

double ell_dot(int n, const int *idx, const double *val, const double *x, double *y)
{
    double total = 0.0;
#pragma omp parallel for collapse(2) schedule(static, CHUNK) reduction(+:total)
    for (int i = 0; i < n; i++)
        for (int k = 0; k < W; k++)
            total += val[i * W + k] * x[idx[i * W + k]];
#pragma omp parallel
    {
        OMP_FOR
        for (int i = 0; i < n; i++)
            y[i] = x[idx[i * W]];
#pragma omp single
        y[0] = 0.0;
#pragma omp barrier
#pragma omp for nowait
        for (int i = 0; i < n; i++) {
#pragma omp atomic
            y[idx[i * W + 1]] += val[i * W + 1];
        }
    }
    return total;
}
