/*
 * kernel.h - irregular reductions over an edge list (Zhu et al. PACT'19 Fig. 1):
 * Euler-like (one value per node, a weight per edge) and Moldyn-like (3-D
 * positions, a short-range pair force with a cut-off), in plain C, tiled
 * with OpenMP, and tiled and grouped for AVX-512 after Chen et al. (CGO
 * 2016): descriptor and prototypes (kernels/ireduce).
 */
#ifndef AUGUR_KERNEL_IREDUCE_H
#define AUGUR_KERNEL_IREDUCE_H

#include <stdint.h>

#include "../kernel_desc.h"

extern const struct augur_kernel_desc ireduce_euler_desc;
extern const struct augur_kernel_desc ireduce_moldyn_desc;

/* Lanes of a conflict-free group: one 512-bit vector of 32-bit indices. */
#define IREDUCE_LANES 16

/* Softening of the Moldyn-like force, so that close pairs stay finite. */
#define MOLDYN_SOFT 0.01

/*
 * Euler-like: for every edge e = (u, v) = (eu[e], ev[e]):
 *   val = w[e] * (x[u] - x[v]);  y[u] -= val;  y[v] += val
 * (a flux from the larger value to the smaller). y accumulates: the caller
 * zeroes it. w may not be NULL (ones for a pattern).
 */
void ireduce_euler_ref(uint64_t nedges, const uint32_t *eu, const uint32_t *ev, const double *w,
                       const double *x, double *y);

/*
 * Moldyn-like: for every edge (u, v) with d = p[u] - p[v], r2 = |d|^2 and
 * 0 < r2 < cutoff2:
 *   s = 1 / (r2 + MOLDYN_SOFT);  s6 = s^3;  f = s * s6 * (s6 - 0.5)
 *   force[u] += f d;  force[v] -= f d
 * Positions and forces are three arrays each (x, y, z); forces accumulate.
 */
void ireduce_moldyn_ref(uint64_t nedges, const uint32_t *eu, const uint32_t *ev, const double *px,
                        const double *py, const double *pz, double cutoff2, double *fx, double *fy,
                        double *fz);

/*
 * Tiling and grouping (Chen et al.): the n x n adjacency matrix is cut into
 * tiles of tile_size x tile_size nodes; the edges of a tile are put in
 * groups of at most IREDUCE_LANES in which no node appears twice (so the
 * lanes of a gather/scatter never collide); tiles are put in tile groups in
 * which no two tiles share a node block (so all threads can run the tiles
 * of one tile group at once). The arrays below are that schedule; build it
 * with ireduce_tiling_build(), which is preprocessing, not kernel.
 */
struct ireduce_tiling {
    uint32_t n, tile_size;
    uint64_t nedges;
    uint64_t ngroups, ntiles, ntgroups;
    uint32_t *gu, *gv;     /* IREDUCE_LANES * ngroups endpoints; padding lanes are 0 */
    double *gw;            /* weights in the same order (NULL when built without) */
    uint64_t *gedge;       /* the original edge of each lane; UINT64_MAX for padding */
    uint8_t *gcount;       /* edges in each group, 1..IREDUCE_LANES */
    uint64_t *tile_group;  /* ntiles + 1: tile t holds groups [tile_group[t], tile_group[t+1]) */
    uint64_t *tgroup_tile; /* ntgroups + 1: tile group g holds tiles [..[g], ..[g+1]) */
};

/*
 * Builds the schedule of the nedges edges (eu[e], ev[e]) over n nodes
 * (every endpoint below n; tile_size >= 1; w may be NULL). Returns 0, or -1
 * when memory runs out or an argument is out of range (t is then zeroed).
 * Release with ireduce_tiling_release().
 */
int ireduce_tiling_build(uint32_t n, uint64_t nedges, const uint32_t *eu, const uint32_t *ev,
                         const double *w, uint32_t tile_size, struct ireduce_tiling *t);
void ireduce_tiling_release(struct ireduce_tiling *t);
/* Mean number of edges per group (the SIMD utilisation is this / IREDUCE_LANES). */
double ireduce_tiling_lanes_used(const struct ireduce_tiling *t);

/*
 * The tiled variants run the tile groups one after the other; the tiles of
 * a tile group are shared out among the OpenMP threads (dynamic, one tile at
 * a time). _omp runs a group's edges one by one; _avx512 runs a group as one
 * 16-lane vector of indices (two 8-lane halves of doubles) with masked
 * gathers and scatters. Node ids must be below 2^31.
 */
void ireduce_euler_tiled_omp(uint64_t ntgroups, const uint64_t *tgroup_tile,
                             const uint64_t *tile_group, const uint8_t *gcount, const uint32_t *gu,
                             const uint32_t *gv, const double *gw, const double *x, double *y);
void ireduce_euler_avx512(uint64_t ntgroups, const uint64_t *tgroup_tile,
                          const uint64_t *tile_group, const uint8_t *gcount, const uint32_t *gu,
                          const uint32_t *gv, const double *gw, const double *x, double *y);
void ireduce_moldyn_tiled_omp(uint64_t ntgroups, const uint64_t *tgroup_tile,
                              const uint64_t *tile_group, const uint8_t *gcount, const uint32_t *gu,
                              const uint32_t *gv, const double *px, const double *py,
                              const double *pz, double cutoff2, double *fx, double *fy, double *fz);
void ireduce_moldyn_avx512(uint64_t ntgroups, const uint64_t *tgroup_tile,
                           const uint64_t *tile_group, const uint8_t *gcount, const uint32_t *gu,
                           const uint32_t *gv, const double *px, const double *py, const double *pz,
                           double cutoff2, double *fx, double *fy, double *fz);

#endif
