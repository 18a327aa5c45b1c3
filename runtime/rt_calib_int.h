/*
 * rt_calib_int.h - the microbenchmark kernels of `augur calibrate`, shared by
 * the driver (rt_calib.c), the portable kernels (rt_calib_bench.c) and the
 * AVX-512 ones (rt_calib_avx512.c, compiled with -mavx512f and called only
 * where the CPU has it) (module: runtime).
 */
#ifndef AUGUR_RT_CALIB_INT_H
#define AUGUR_RT_CALIB_INT_H

#include <stddef.h>
#include <stdint.h>

/* Elements of the streaming kernels come in blocks of this many doubles. */
#define CALIB_BLOCK 64

/* Streaming kernels over n doubles (n a multiple of CALIB_BLOCK, arrays 64-byte aligned). */
double calib_load_c(const double *a, size_t n);
void calib_copy_c(double *restrict b, const double *restrict a, size_t n);
void calib_triad_c(double *restrict a, const double *restrict b, const double *restrict c, double s,
                   size_t n);
double calib_load_avx512(const double *a, size_t n);
void calib_copy_avx512(double *restrict b, const double *restrict a, size_t n);
void calib_triad_avx512(double *restrict a, const double *restrict b, const double *restrict c,
                        double s, size_t n);

/*
 * Pointer chasing: each of the k chains (k <= CALIB_MAX_CHAINS) starts at
 * heads[j] and follows steps links (a node's first word points at the next
 * node). Returns a value that depends on every load.
 */
#define CALIB_MAX_CHAINS 32
uintptr_t calib_chase(void *const *heads, int k, uint64_t steps);

/* Gathers: s += x[idx[i]] for n indices (n a multiple of 16). */
double calib_gather_c(const double *x, const int32_t *idx, size_t n);
double calib_gather_avx512(const double *x, const int32_t *idx, size_t n);
/* Scatters: x[idx[i]] = v for n indices (n a multiple of 16). */
void calib_scatter_c(double *x, const int32_t *idx, size_t n);
void calib_scatter_avx512(double *x, const int32_t *idx, size_t n);

/* A dependent chain of n * 16 integer additions (one cycle each). */
uint64_t calib_add_chain(uint64_t n);

#endif
