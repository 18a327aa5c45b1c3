/* Edge-based gradient on an unstructured mesh: pointers re-derived as aligned, scatters to both ends. */
#include <string.h>

void edge_gradient(int nedges, int nnodes, const int *restrict n0, const int *restrict n1,
                   const double *restrict w, const double *restrict q, double *restrict grad)
{
    const int *e0 = __builtin_assume_aligned(n0, 64);
    const int *e1 = __builtin_assume_aligned(n1, 64);
    double *g = __builtin_assume_aligned(grad, 64);

    memset(g, 0, sizeof(double) * 4 * (size_t)nnodes);
    for (int e = 0; e < nedges; e++) {
        const int a = e0[e], b = e1[e];
        for (int k = 0; k < 4; k++) {
            const double d = w[e] * (q[4 * b + k] - q[4 * a + k]);
            g[4 * a + k] += d;
            g[4 * b + k] -= d;
        }
    }
}
