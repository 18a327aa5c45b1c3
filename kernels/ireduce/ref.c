/*
 * ref.c - irregular reductions over an edge list, scalar references (seed
 * 002 Fig. 1) (kernels/ireduce).
 */
#include "kernel.h"

void ireduce_euler_ref(uint64_t nedges, const uint32_t *eu, const uint32_t *ev, const double *w,
                       const double *x, double *y)
{
    for (uint64_t e = 0; e < nedges; e++) {
        uint32_t u = eu[e];
        uint32_t v = ev[e];
        double val = w[e] * (x[u] - x[v]);

        y[u] -= val;
        y[v] += val;
    }
}

void ireduce_moldyn_ref(uint64_t nedges, const uint32_t *eu, const uint32_t *ev, const double *px,
                        const double *py, const double *pz, double cutoff2, double *fx, double *fy,
                        double *fz)
{
    for (uint64_t e = 0; e < nedges; e++) {
        uint32_t u = eu[e];
        uint32_t v = ev[e];
        double dx = px[u] - px[v];
        double dy = py[u] - py[v];
        double dz = pz[u] - pz[v];
        double r2 = dx * dx + dy * dy + dz * dz;

        if (r2 > 0.0 && r2 < cutoff2) {
            double s = 1.0 / (r2 + MOLDYN_SOFT);
            double s6 = s * s * s;
            double f = s * s6 * (s6 - 0.5);

            fx[u] += f * dx;
            fy[u] += f * dy;
            fz[u] += f * dz;
            fx[v] -= f * dx;
            fy[v] -= f * dy;
            fz[v] -= f * dz;
        }
    }
}
