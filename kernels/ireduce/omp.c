/*
 * omp.c - irregular reductions on the tiled schedule with OpenMP: tile
 * groups one after the other, the tiles of a group shared out among the
 * threads, a tile's edges one by one (kernels/ireduce). Tiles of one tile
 * group touch disjoint node blocks, so no two threads update a node at once.
 */
#include "kernel.h"

void ireduce_euler_tiled_omp(uint64_t ntgroups, const uint64_t *tgroup_tile,
                             const uint64_t *tile_group, const uint8_t *gcount, const uint32_t *gu,
                             const uint32_t *gv, const double *gw, const double *x, double *y)
{
#pragma omp parallel
    for (uint64_t tg = 0; tg < ntgroups; tg++) {
#pragma omp for schedule(dynamic, 1)
        for (uint64_t tile = tgroup_tile[tg]; tile < tgroup_tile[tg + 1]; tile++) {
            for (uint64_t g = tile_group[tile]; g < tile_group[tile + 1]; g++) {
                for (uint64_t s = g * IREDUCE_LANES; s < g * IREDUCE_LANES + gcount[g]; s++) {
                    uint32_t u = gu[s];
                    uint32_t v = gv[s];
                    double val = gw[s] * (x[u] - x[v]);

                    y[u] -= val;
                    y[v] += val;
                }
            }
        }
    }
}

void ireduce_moldyn_tiled_omp(uint64_t ntgroups, const uint64_t *tgroup_tile,
                              const uint64_t *tile_group, const uint8_t *gcount, const uint32_t *gu,
                              const uint32_t *gv, const double *px, const double *py,
                              const double *pz, double cutoff2, double *fx, double *fy, double *fz)
{
#pragma omp parallel
    for (uint64_t tg = 0; tg < ntgroups; tg++) {
#pragma omp for schedule(dynamic, 1)
        for (uint64_t tile = tgroup_tile[tg]; tile < tgroup_tile[tg + 1]; tile++) {
            for (uint64_t g = tile_group[tile]; g < tile_group[tile + 1]; g++) {
                for (uint64_t s = g * IREDUCE_LANES; s < g * IREDUCE_LANES + gcount[g]; s++) {
                    uint32_t u = gu[s];
                    uint32_t v = gv[s];
                    double dx = px[u] - px[v];
                    double dy = py[u] - py[v];
                    double dz = pz[u] - pz[v];
                    double r2 = dx * dx + dy * dy + dz * dz;

                    if (r2 > 0.0 && r2 < cutoff2) {
                        double sc = 1.0 / (r2 + MOLDYN_SOFT);
                        double s6 = sc * sc * sc;
                        double f = sc * s6 * (s6 - 0.5);

                        fx[u] += f * dx;
                        fy[u] += f * dy;
                        fz[u] += f * dz;
                        fx[v] -= f * dx;
                        fy[v] -= f * dy;
                        fz[v] -= f * dz;
                    }
                }
            }
        }
    }
}
