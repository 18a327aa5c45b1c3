#include "solver.h"

#ifndef SOLVER_REAL
#    error "build with the project's flags (-DSOLVER_REAL=double)"
#endif

void solver_spmv(int n, const int *row_start, const int *col, const SOLVER_REAL *val,
                 const SOLVER_REAL *x, SOLVER_REAL *y)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        SOLVER_REAL sum = 0;

        for (int k = row_start[i]; k < row_start[i + 1]; k++)
            sum += val[k] * x[col[k]];
        y[i] = sum;
    }
}
