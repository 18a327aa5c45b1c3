#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Finite-volume kernel y(i) = sum_k A(i,k) (x(l(i,k)) - x(i)), simple OpenMP
   version (seed 001, Fig. 4): static parallel for over the tetrahedra. */
void fv_simple(int n, const double *A, const int *I, const double *X, double *Y)
{
    int i, l_x;
#pragma omp parallel for private(i, l_x)
    for (i = 0; i < n; i++) {
        l_x = 4 * i;
        Y[i] = A[l_x] * (X[I[l_x]] - X[i]) +
               A[l_x + 1] * (X[I[l_x + 1]] - X[i]) +
               A[l_x + 2] * (X[I[l_x + 2]] - X[i]) +
               A[l_x + 3] * (X[I[l_x + 3]] - X[i]);
    }
}

/* NUMA-aware version (seed 001, Fig. 5): each thread copies its block of A
   and I into private arrays, then sweeps its chunk of tetrahedra. */
void fv_numa(int n, int steps, const double *A, const int *I, double *X, double *Y)
{
#pragma omp parallel
    {
        int my_tid = omp_get_thread_num();
        int chunksize = n / omp_get_num_threads();
        double *Loc_A = malloc(chunksize * 4 * sizeof(double));
        int *Loc_I = malloc(chunksize * 4 * sizeof(int));

        memcpy(Loc_A, A + 4 * chunksize * my_tid, 4 * chunksize * sizeof(double));
        memcpy(Loc_I, I + 4 * chunksize * my_tid, 4 * chunksize * sizeof(int));
        for (int t = 0; t < steps; t++) {
            int i = my_tid * chunksize;
            for (int loop = 0; loop < chunksize; loop++) {
                int l_x = 4 * loop;
                Y[i] = Loc_A[l_x] * (X[Loc_I[l_x]] - X[i]) +
                       Loc_A[l_x + 1] * (X[Loc_I[l_x + 1]] - X[i]) +
                       Loc_A[l_x + 2] * (X[Loc_I[l_x + 2]] - X[i]) +
                       Loc_A[l_x + 3] * (X[Loc_I[l_x + 3]] - X[i]);
                i++;
            }
#pragma omp barrier
#pragma omp master
            {
                double *tmp = X;
                X = Y;
                Y = tmp;
            }
#pragma omp barrier
        }
        free(Loc_A);
        free(Loc_I);
    }
}
