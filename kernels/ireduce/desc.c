/*
 * desc.c - the descriptors of the Euler-like and Moldyn-like irregular
 * reductions (kernels/ireduce).
 */
#include "kernel.h"

static const struct augur_kernel_variant euler_variants[] = {
    { "ref", "ireduce_euler_ref", "kernels/ireduce/ref.c", AUGUR_KT_SCALAR,
      "Zhu et al. PACT'19 Fig. 1, edges in file order" },
    { "tiled_omp", "ireduce_euler_tiled_omp", "kernels/ireduce/omp.c", AUGUR_KT_OPENMP,
      "tile groups in turn, their tiles dynamic over threads, edges one by one" },
    { "avx512", "ireduce_euler_avx512", "kernels/ireduce/avx512.c", AUGUR_KT_AVX512,
      "tiled and grouped (Chen et al.): 16-lane conflict-free groups, masked gather/scatter" },
};

const struct augur_kernel_desc ireduce_euler_desc = {
    .name = "ireduce_euler",
    .summary = "Euler-like irregular reduction over an edge list (Zhu et al. PACT'19 Fig. 1)",
    .equation = "for each edge (u, v): val = w(e) (x(u) - x(v)); y(u) -= val; y(v) += val",
    .outer = "edge",
    .inner = "edge",
    .outer_bytes = 0,
    .outer_flops = 0,
    .inner_bytes = 60, /* eu, ev 8; w 8; x[u], x[v] 16; y[u], y[v] read and written 32 */
    .inner_flops = 4,  /* subtract, multiply, two updates */
    .access = "eu, ev, w: unit stride (in tile and group order for the tiled variants); "
              "x[u], x[v]: indirect read; y[u], y[v]: indirect read-modify-write",
    .bindings = "nedges=nnz,eu=coo.row,ev=coo.col,w=coo.val,x=vec(n),y=vec(n)",
    .variants = euler_variants,
    .nvariants = (int)(sizeof(euler_variants) / sizeof(euler_variants[0])),
};

static const struct augur_kernel_variant moldyn_variants[] = {
    { "ref", "ireduce_moldyn_ref", "kernels/ireduce/ref.c", AUGUR_KT_SCALAR,
      "edges in file order" },
    { "tiled_omp", "ireduce_moldyn_tiled_omp", "kernels/ireduce/omp.c", AUGUR_KT_OPENMP,
      "tile groups in turn, their tiles dynamic over threads, edges one by one" },
    { "avx512", "ireduce_moldyn_avx512", "kernels/ireduce/avx512.c", AUGUR_KT_AVX512,
      "tiled and grouped: 16-lane groups, cut-off as a mask on the scatters" },
};

const struct augur_kernel_desc ireduce_moldyn_desc = {
    .name = "ireduce_moldyn",
    .summary = "Moldyn-like irregular reduction: short-range pair forces over an edge list",
    .equation = "for each edge (u, v), d = p(u) - p(v), 0 < |d|^2 < rc^2: s = 1/(|d|^2 + eps), "
                "f = s^4 (s^3 - 1/2); F(u) += f d; F(v) -= f d",
    .outer = "edge",
    .inner = "edge within the cut-off",
    .outer_bytes = 56, /* eu, ev 8; px, py, pz of u and v 48 */
    .outer_flops = 9,  /* 3 subtract, 3 multiply, 2 add, 1 compare */
    .inner_bytes = 96, /* fx, fy, fz of u and v, read and written */
    .inner_flops = 19, /* add, divide, 2 multiply (s^3), 2 multiply + subtract (f), 6 mul, 6 add */
    .access = "eu, ev: unit stride; p[u], p[v]: indirect read (3 arrays); F[u], F[v]: indirect "
              "read-modify-write (3 arrays), only for pairs within the cut-off",
    .bindings = "nedges=nnz,eu=coo.row,ev=coo.col,px=vec(n),py=vec(n),pz=vec(n),cutoff2==0.25,"
                "fx=vec(n),fy=vec(n),fz=vec(n)",
    .variants = moldyn_variants,
    .nvariants = (int)(sizeof(moldyn_variants) / sizeof(moldyn_variants[0])),
};
