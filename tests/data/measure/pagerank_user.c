/*
 * pagerank_user.c - a user's pull PageRank step, not one of kernels/: int
 * indices, a static helper, a damping factor outside the address slice, and
 * the user's own main() (tests/t_measure.sh times pr_step without it).
 */
#include <stdio.h>
#include <stdlib.h>

static double share(double rank, int degree)
{
    return degree > 0 ? rank / degree : 0.0;
}

/* next(v) = (1 - d) / n + d * sum over in-edges (u, v) of rank(u) / outdeg(u) */
void pr_step(int n, const int *colptr, const int *rows, const int *outdeg, double damping,
             const double *rank, double *next)
{
    for (int v = 0; v < n; v++) {
        double sum = 0.0;

        for (int j = colptr[v]; j < colptr[v + 1]; j++)
            sum += share(rank[rows[j]], outdeg[rows[j]]);
        next[v] = (1.0 - damping) / n + damping * sum;
    }
}

/* The user's own driver: a directed 3-cycle. */
int main(void)
{
    int colptr[4] = { 0, 1, 2, 3 }, rows[3] = { 2, 0, 1 }, outdeg[3] = { 1, 1, 1 };
    double rank[3] = { 1.0 / 3, 1.0 / 3, 1.0 / 3 }, next[3];

    pr_step(3, colptr, rows, outdeg, 0.85, rank, next);
    printf("%g %g %g\n", next[0], next[1], next[2]);
    return EXIT_SUCCESS;
}
