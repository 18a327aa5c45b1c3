/*
 * cuda.cu - CSR sparse matrix-vector product on an NVIDIA GPU: one thread
 * per row (scalar), or a warp of 32 per row whose lanes take every 32nd
 * entry and meet by shuffles (vector); x read through the read-only cache;
 * and the host functions that run them (kernels/spmv). Built only when nvcc
 * is found.
 */
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "kernel.h"
}

/* One thread per row, 256 per block, as spmv_csr_cuda_run launches it. */
#pragma augur launch((nrows + 255) / 256, 256)
__global__ void spmv_csr_scalar_kernel(uint32_t nrows, const uint64_t *rowptr, const uint32_t *col,
                                       const double *val, const double *x, double *y)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < nrows) {
        double sum = 0.0;

        for (uint64_t j = rowptr[i]; j < rowptr[i + 1]; j++)
            sum += val[j] * __ldg(&x[col[j]]);
        y[i] = sum;
    }
}

/* A warp per row, 256 threads (8 rows) per block, as spmv_csr_vector_cuda_run launches it. */
#pragma augur launch((nrows * 32 + 255) / 256, 256)
__global__ void spmv_csr_vector_kernel(uint32_t nrows, const uint64_t *rowptr, const uint32_t *col,
                                       const double *val, const double *x, double *y)
{
    uint32_t row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    uint32_t lane = threadIdx.x & 31;
    double sum = 0.0;

    if (row >= nrows)
        return;
    for (uint64_t j = rowptr[row] + lane; j < rowptr[row + 1]; j += 32)
        sum += val[j] * __ldg(&x[col[j]]);
    for (int off = 16; off > 0; off /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0)
        y[row] = sum;
}

static int run(bool vector, uint32_t nrows, uint64_t nnz, const uint64_t *rowptr,
               const uint32_t *col, const double *val, const double *x, double *y, int reps,
               double *seconds)
{
    uint64_t *d_rowptr = NULL;
    uint32_t *d_col = NULL;
    double *d_val = NULL, *d_x = NULL, *d_y = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    int ndev = 0, rc = -1;
    unsigned int blocks = (unsigned int)(((vector ? (uint64_t)nrows * 32 : nrows) + 255) / 256);
    float best = -1.0f;

    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0 || nrows == 0)
        return -1;
    if (cudaMalloc(&d_rowptr, (nrows + 1) * sizeof(uint64_t)) != cudaSuccess ||
        cudaMalloc(&d_col, (nnz ? nnz : 1) * sizeof(uint32_t)) != cudaSuccess ||
        cudaMalloc(&d_val, (nnz ? nnz : 1) * sizeof(double)) != cudaSuccess ||
        cudaMalloc(&d_x, nrows * sizeof(double)) != cudaSuccess ||
        cudaMalloc(&d_y, nrows * sizeof(double)) != cudaSuccess)
        goto out;
    if (cudaMemcpy(d_rowptr, rowptr, (nrows + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice) ||
        cudaMemcpy(d_col, col, nnz * sizeof(uint32_t), cudaMemcpyHostToDevice) ||
        cudaMemcpy(d_val, val, nnz * sizeof(double), cudaMemcpyHostToDevice) ||
        cudaMemcpy(d_x, x, nrows * sizeof(double), cudaMemcpyHostToDevice))
        goto out;
    if (cudaEventCreate(&start) || cudaEventCreate(&stop))
        goto out;
    for (int r = 0; r < (reps > 0 ? reps : 1); r++) {
        float ms = 0.0f;

        cudaEventRecord(start);
        if (vector)
            spmv_csr_vector_kernel<<<blocks, 256>>>(nrows, d_rowptr, d_col, d_val, d_x, d_y);
        else
            spmv_csr_scalar_kernel<<<blocks, 256>>>(nrows, d_rowptr, d_col, d_val, d_x, d_y);
        cudaEventRecord(stop);
        if (cudaEventSynchronize(stop) != cudaSuccess || cudaGetLastError() != cudaSuccess)
            goto out;
        cudaEventElapsedTime(&ms, start, stop);
        if (best < 0.0f || ms < best)
            best = ms;
    }
    if (cudaMemcpy(y, d_y, nrows * sizeof(double), cudaMemcpyDeviceToHost))
        goto out;
    if (seconds)
        *seconds = best * 1e-3;
    rc = 0;
out:
    if (start)
        cudaEventDestroy(start);
    if (stop)
        cudaEventDestroy(stop);
    cudaFree(d_rowptr);
    cudaFree(d_col);
    cudaFree(d_val);
    cudaFree(d_x);
    cudaFree(d_y);
    return rc;
}

extern "C" int spmv_csr_cuda_run(uint32_t nrows, uint64_t nnz, const uint64_t *rowptr,
                                 const uint32_t *col, const double *val, const double *x, double *y,
                                 int reps, double *seconds)
{
    return run(false, nrows, nnz, rowptr, col, val, x, y, reps, seconds);
}

extern "C" int spmv_csr_vector_cuda_run(uint32_t nrows, uint64_t nnz, const uint64_t *rowptr,
                                        const uint32_t *col, const double *val, const double *x,
                                        double *y, int reps, double *seconds)
{
    return run(true, nrows, nnz, rowptr, col, val, x, y, reps, seconds);
}
