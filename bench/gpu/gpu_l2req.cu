/*
 * gpu_l2req.cu - what the L2 serves per request and per sector: warps load
 * from random 128-byte lines of a buffer that L2 holds (__ldcg: L1 never
 * hits), 8 independent loads of a warp in flight at a time and every SM
 * full of warps, so the time is the L2's throughput. Per mode, the lanes of a
 * warp's load touch:
 *   lanes   one random line each: 32 requests of 1 sector (a gather)
 *   1 .. 4  one random line together, its first 1, 2 or 4 sectors:
 *           1 request of that many sectors (coalesced)
 * Prints CSV: mode, requests, sectors, median us of 5 launches, G
 * requests/s, G sectors/s.
 *
 * usage: bench_gpu_l2req [MIB]   (the buffer, default 16 MiB)
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.h"

#define THREADS 256
#define ITERS   256
#define REPS    5
#define INFLIGHT 8 /* loads of a warp in flight together */

/* spr > 0: the warp's lanes read the first spr sectors of one line; 0: each lane its own line. */
__global__ void l2_loads(const unsigned *buf, unsigned mask, unsigned spr, unsigned *sink)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
    unsigned x = (spr ? tid / 32 : tid) * 0x9E3779B1u + 12345u, acc = 0;

    unsigned word = spr ? lane % (spr * 8u) : lane % 8u; /* 8 words a sector */

    /* INFLIGHT loads go out before any result is used: a warp stalls at the first use */
    for (int i = 0; i < ITERS; i += INFLIGHT) {
        unsigned v[INFLIGHT];
#pragma unroll
        for (int j = 0; j < INFLIGHT; j++) {
            x = x * 1664525u + 1013904223u;
            v[j] = __ldcg(buf + (size_t)((x >> 7) & mask) * 32 + word);
        }
#pragma unroll
        for (int j = 0; j < INFLIGHT; j++)
            acc += v[j];
    }
    if (acc == 0x9E3779B9u)
        sink[0] = acc;
}

__global__ void touch(const unsigned *buf, size_t n, unsigned *sink)
{
    unsigned acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        acc += __ldcg(buf + i);
    if (acc == 0x9E3779B9u)
        sink[0] = acc;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 16, words = (mib << 20) / 4;
    unsigned lines = (unsigned)(words / 32), mask = 1, *buf, *sink;
    cudaDeviceProp prop;
    cudaEvent_t start, stop;
    unsigned modes[] = { 0, 1, 2, 4 };

    while (mask * 2 <= lines)
        mask *= 2;
    mask -= 1;
    CK(cudaGetDeviceProperties(&prop, 0));
    CK(cudaMalloc((void **)&buf, words * 4));
    CK(cudaMalloc((void **)&sink, 4));
    CK(cudaMemset(buf, 1, words * 4));
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    unsigned grid = (unsigned)prop.multiProcessorCount * 8; /* 8 blocks of 8 warps an SM: full */
    printf("# %s, %d SMs, L2 %d bytes; a %zu MiB buffer, %u blocks of %d threads, %d loads each\n",
           prop.name, prop.multiProcessorCount, prop.l2CacheSize, mib, grid, THREADS, ITERS);
    printf("mode,requests,sectors,us,G_requests_per_s,G_sectors_per_s\n");
    for (int m = 0; m < 4; m++) {
        float ms[REPS];
        double warps = (double)grid * THREADS / 32, loads = warps * ITERS;
        double req = modes[m] ? loads : loads * 32, sec = modes[m] ? loads * modes[m] : loads * 32;

        for (int r = 0; r < REPS; r++) {
            touch<<<grid, THREADS>>>(buf, words, sink); /* the buffer into L2 */
            CK(cudaEventRecord(start));
            l2_loads<<<grid, THREADS>>>(buf, mask, modes[m], sink);
            CK(cudaGetLastError());
            CK(cudaEventRecord(stop));
            CK(cudaEventSynchronize(stop));
            CK(cudaEventElapsedTime(&ms[r], start, stop));
        }
        qsort(ms, REPS, sizeof(*ms), cmp_float);
        double us = 1e3 * ms[REPS / 2];
        if (modes[m])
            printf("%u,", modes[m]);
        else
            printf("lanes,");
        printf("%.0f,%.0f,%.2f,%.1f,%.1f\n",
               req, sec, us, req / us / 1e3, sec / us / 1e3);
    }
    return 0;
}
