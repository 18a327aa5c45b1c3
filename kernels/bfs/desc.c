/*
 * desc.c - the descriptors of topology-driven and data-driven BFS (kernels/bfs).
 */
#include "kernel.h"

static const struct augur_kernel_variant topo_variants[] = {
    { "ref", "bfs_topo_round_ref", "kernels/bfs/ref.c", AUGUR_KT_SCALAR,
      "Pai et al. AGP'17 Listing 1; bfs_topo_ref runs the rounds" },
    { "omp", "bfs_topo_round_omp", "kernels/bfs/omp.c", AUGUR_KT_OPENMP,
      "parallel for schedule(dynamic, 1024) over nodes; atomic level reads and writes" },
    { "cuda", "bfs_topo_kernel", "kernels/bfs/cuda.cu", AUGUR_KT_CUDA,
      "Pai et al. AGP'17 Listing 2: nodes to threads cyclically, one launch per round" },
};

const struct augur_kernel_desc bfs_topo_desc = {
    .name = "bfs_topo",
    .summary = "topology-driven breadth-first search, one round (every node visited)",
    .equation = "for each node v with level(v) = r-1: for each edge (v, d): "
                "if level(d) = INF then level(d) = r",
    .outer = "node",
    .inner = "edge of a node of the previous level",
    .outer_bytes = 4, /* level[node]; rowptr[node], rowptr[node+1] (16) only when active */
    .outer_flops = 0,
    .inner_bytes = 8, /* col[e] 4, level[dst] 4; +4 when dst is labelled */
    .inner_flops = 0,
    .access = "level[node]: unit stride, every node every round; rowptr: unit stride, "
              "active nodes only; col[e]: streamed within a row; level[col[e]]: indirect "
              "read, indirect write when unvisited",
    .bindings = "n=n,rowptr=csr.rowptr,col=csr.col,level=bfs.level,round=round",
    .variants = topo_variants,
    .nvariants = (int)(sizeof(topo_variants) / sizeof(topo_variants[0])),
};

static const struct augur_kernel_variant frontier_variants[] = {
    { "ref", "bfs_frontier_ref", "kernels/bfs/ref.c", AUGUR_KT_SCALAR, "FIFO queue" },
    { "omp", "bfs_frontier_omp", "kernels/bfs/omp.c", AUGUR_KT_OPENMP,
      "frontier shared out in dynamic chunks of 64; nodes claimed by compare-and-swap" },
};

const struct augur_kernel_desc bfs_frontier_desc = {
    .name = "bfs_frontier",
    .summary = "data-driven breadth-first search (only the frontier is expanded)",
    .equation = "for each node v of the frontier: for each edge (v, d): if level(d) = INF "
                "then level(d) = level(v) + 1, d joins the next frontier",
    .outer = "frontier node",
    .inner = "edge of a frontier node",
    .outer_bytes = 20, /* queue[k] 4, rowptr[v], rowptr[v+1] 16 */
    .outer_flops = 0,
    .inner_bytes = 8, /* col[e] 4, level[dst] 4; +8 when dst is labelled (level, queue) */
    .inner_flops = 0,
    .access = "queue: unit stride; rowptr[queue[k]]: indirect; col[e]: streamed within a row; "
              "level[col[e]]: indirect read, indirect write when unvisited",
    .bindings = "n=n,rowptr=csr.rowptr,col=csr.col,src==0,level=bfs.level,queue=vec(n)",
    .variants = frontier_variants,
    .nvariants = (int)(sizeof(frontier_variants) / sizeof(frontier_variants[0])),
};
