/*
 * cuda.cu - topology-driven BFS on an NVIDIA GPU, Pai et al. AGP'17 Listing 2: the
 * threads take the nodes cyclically (node = tid, tid + nthreads, ...), one
 * launch per round; and the host function that runs the rounds (kernels/bfs).
 * Built only when nvcc is found.
 */
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "kernel.h"
}

/* Eight blocks of 256 threads per SM, as bfs_topo_cuda_run launches it on a 132-SM H100. */
#pragma augur launch(8 * 132, 256)
#pragma augur bind(changed = vec(1))
__global__ void bfs_topo_kernel(uint32_t num_nodes, const uint64_t *row_start,
                                const uint32_t *edge_dst, int32_t *level, int32_t LEVEL,
                                int *changed)
{
    uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t nthreads = gridDim.x * blockDim.x;

    for (uint32_t node = tid; node < num_nodes; node += nthreads) {
        if (level[node] != LEVEL - 1)
            continue;

        uint64_t r_start = row_start[node];
        uint64_t r_end = row_start[node + 1];

        for (uint64_t e = r_start; e < r_end; e++) {
            uint32_t dst = edge_dst[e];

            if (level[dst] == BFS_INF) {
                level[dst] = LEVEL;
                *changed = 1;
            }
        }
    }
}

extern "C" int32_t bfs_topo_cuda_run(uint32_t n, uint64_t nnz, const uint64_t *rowptr,
                                     const uint32_t *col, uint32_t src, int32_t *level,
                                     double *seconds)
{
    uint64_t *d_rowptr = NULL;
    uint32_t *d_col = NULL;
    int32_t *d_level = NULL;
    int *d_changed = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    int ndev = 0, nsm = 0, changed = 1;
    int32_t round = 0, rc = -1;
    float ms = 0.0f;

    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0 || n == 0 || src >= n)
        return -1;
    if (cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess)
        return -1;
    for (uint32_t v = 0; v < n; v++)
        level[v] = BFS_INF;
    level[src] = 0;
    if (cudaMalloc(&d_rowptr, (n + 1) * sizeof(uint64_t)) != cudaSuccess ||
        cudaMalloc(&d_col, (nnz ? nnz : 1) * sizeof(uint32_t)) != cudaSuccess ||
        cudaMalloc(&d_level, n * sizeof(int32_t)) != cudaSuccess ||
        cudaMalloc(&d_changed, sizeof(int)) != cudaSuccess)
        goto out;
    if (cudaMemcpy(d_rowptr, rowptr, (n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice) ||
        cudaMemcpy(d_col, col, nnz * sizeof(uint32_t), cudaMemcpyHostToDevice) ||
        cudaMemcpy(d_level, level, n * sizeof(int32_t), cudaMemcpyHostToDevice))
        goto out;
    if (cudaEventCreate(&start) || cudaEventCreate(&stop))
        goto out;
    cudaEventRecord(start);
    while (changed) {
        changed = 0;
        round++;
        if (cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice))
            goto out;
        /* Eight blocks of 256 threads per SM: full occupancy, nodes taken cyclically. */
        bfs_topo_kernel<<<8 * nsm, 256>>>(n, d_rowptr, d_col, d_level, round, d_changed);
        if (cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost) ||
            cudaGetLastError() != cudaSuccess)
            goto out;
    }
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    if (cudaMemcpy(level, d_level, n * sizeof(int32_t), cudaMemcpyDeviceToHost))
        goto out;
    if (seconds)
        *seconds = ms * 1e-3;
    rc = round - 1;
out:
    if (start)
        cudaEventDestroy(start);
    if (stop)
        cudaEventDestroy(stop);
    cudaFree(d_rowptr);
    cudaFree(d_col);
    cudaFree(d_level);
    cudaFree(d_changed);
    return rc;
}
