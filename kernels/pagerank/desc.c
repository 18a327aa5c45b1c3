/*
 * desc.c - the descriptor of pull PageRank (kernels/pagerank).
 */
#include "kernel.h"

static const struct augur_kernel_variant variants[] = {
    { "ref", "pagerank_pull_ref", "kernels/pagerank/ref.c", AUGUR_KT_SCALAR,
      "one thread; contributions, then the pull" },
    { "omp", "pagerank_pull_omp", "kernels/pagerank/omp.c", AUGUR_KT_OPENMP,
      "contributions static, pull schedule(dynamic, 64), change by reduction" },
};

const struct augur_kernel_desc pagerank_pull_desc = {
    .name = "pagerank_pull",
    .summary = "one PageRank iteration, pull direction, over the in-edge CSR",
    .equation = "c(u) = pr(u) / outdeg(u); next(v) = (1-d)/n + d * sum_{(u,v)} c(u)",
    .outer = "node",
    .inner = "in-edge",
    .outer_bytes = 44, /* pr 8 + outdeg 4 + contrib 8 (write), rowptr 8, next 8, pr 8 */
    .outer_flops = 5,  /* divide; multiply, add; subtract, add (the change) */
    .inner_bytes = 12, /* col[j] 4, contrib[col[j]] 8 */
    .inner_flops = 1,
    .access = "pr, outdeg, contrib, rowptr, next: unit stride; col: streamed within a row; "
              "contrib[col[j]]: indirect read",
    .bindings = "n=n,rowptr=csc.colptr,col=csc.row,outdeg=deg,damping==0.85,pr=vec(n),"
                "contrib=vec(n),next=vec(n)",
    .variants = variants,
    .nvariants = (int)(sizeof(variants) / sizeof(variants[0])),
};
