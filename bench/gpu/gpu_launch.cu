/*
 * gpu_launch.cu - what a launch's size adds to its cost: an empty kernel of G
 * blocks of 256 threads (the block of augur's CUDA kernels), timed between
 * two CUDA events as bench_gpu_measure times the kernels, median of 200
 * launches per G: per launch, the microseconds and what they add to a
 * launch of one block (the machine file's launch_us).
 *
 * usage: bench_gpu_launch          blocks, warps, us, us over one block (CSV)
 *        bench_gpu_launch --ncu    each grid launched 5 times, untimed, for
 *                                  Nsight Compute to time (bench/gpu_launch.sh)
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.h"

#define THREADS 256
#define REPS    200

/* Does nothing: the launch is what is timed. */
__global__ void empty256(void) {}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The median over REPS launches of G blocks between two events, in microseconds. */
static double median_us(unsigned grid, cudaEvent_t start, cudaEvent_t stop)
{
    static float ms[REPS];

    for (int i = 0; i < 20; i++) /* warm-up */
        empty256<<<grid, THREADS>>>();
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < REPS; i++) {
        CK(cudaEventRecord(start));
        empty256<<<grid, THREADS>>>();
        CK(cudaGetLastError());
        CK(cudaEventRecord(stop));
        CK(cudaEventSynchronize(stop));
        CK(cudaEventElapsedTime(&ms[i], start, stop));
    }
    qsort(ms, REPS, sizeof(*ms), cmp_float);
    return 1e3 * ms[REPS / 2];
}

int main(int argc, char **argv)
{
    static const unsigned grids[] = { 1, 33, 132, 264, 528, 1056, 2112, 4224, 8448, 16896, 33792 };
    const int ngrids = (int)(sizeof(grids) / sizeof(*grids));
    double us[sizeof(grids) / sizeof(*grids)];
    cudaDeviceProp prop;
    cudaEvent_t start, stop;

    CK(cudaGetDeviceProperties(&prop, 0));
    if (argc > 1 && strcmp(argv[1], "--ncu") == 0) {
        for (int g = 0; g < ngrids; g++)
            for (int i = 0; i < 5; i++)
                empty256<<<grids[g], THREADS>>>();
        CK(cudaDeviceSynchronize());
        return 0;
    }
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    for (int g = 0; g < ngrids; g++)
        us[g] = median_us(grids[g], start, stop);
    printf("# an empty kernel of G blocks of %d threads between two CUDA events, median of %d "
           "(%s, %d SMs)\n",
           THREADS, REPS, prop.name, prop.multiProcessorCount);
    printf("blocks,warps,us,us_over_one_block\n");
    for (int g = 0; g < ngrids; g++)
        printf("%u,%u,%.3f,%.3f\n", grids[g], grids[g] * (THREADS / 32), us[g], us[g] - us[0]);
    return 0;
}
