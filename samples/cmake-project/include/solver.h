#ifndef SOLVER_H
#define SOLVER_H

/* y = A x for A in compressed sparse rows (row_start has n + 1 entries). */
void solver_spmv(int n, const int *row_start, const int *col, const double *val, const double *x,
                 double *y);

#endif
