/* Edge loop split into per-thread ranges ie[t]..ie[t+1], each thread updating only the nodes it owns. */
#include <omp.h>

void flux_owned(int nthreads, const int *restrict ie, const int *restrict en, const int *restrict owner,
                const double *restrict q, double *restrict res)
{
#pragma omp parallel num_threads(nthreads)
    {
        const int t = omp_get_thread_num();
        for (int e = ie[t]; e < ie[t + 1]; e++) {
            const int a = en[2 * e], b = en[2 * e + 1];
            const double f = 0.5 * (q[a] + q[b]);
            if (owner[a] == t)
                res[a] += f;
            if (owner[b] == t)
                res[b] -= f;
        }
    }
}
