/*
 * cuda_check.h - the GPU benchmarks' check of a CUDA runtime call: on an
 * error, where and which call, the runtime's message, and exit(1).
 */
#ifndef AUGUR_BENCH_CUDA_CHECK_H
#define AUGUR_BENCH_CUDA_CHECK_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define CKLAUNCH() CK(cudaGetLastError())

#endif
