/*
 * calib_int.h - the microbenchmark kernels of `augur calibrate`, shared by
 * the driver (calib.c), the portable kernels (calib_bench.c) and the
 * AVX-512 ones (calib_avx512.c, compiled with -mavx512f and called only
 * where the CPU has it) (module: machine).
 */
#ifndef AUGUR_RT_CALIB_INT_H
#define AUGUR_RT_CALIB_INT_H

#include <stdbool.h>
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
 * Pointer chasing: each of the k chains (k <= CALIB_MAX_CHAINS) follows
 * steps links from heads[j] (a node's first word points at the next node)
 * and leaves heads[j] where it stopped, so the next call walks on instead of
 * replaying the same lines. Returns a value that depends on every load.
 */
#define CALIB_MAX_CHAINS 32
uintptr_t calib_chase(void **heads, int k, uint64_t steps);

/*
 * n iterations of two 8-element gathers of x at random indices in [0, mask]
 * (mask + 1 a power of two), drawn by xorshift from state[0..15] (nonzero,
 * updated): each gather touches fresh lines, however often it repeats. The
 * scatters store at such indices.
 */
double calib_gather_c(const double *x, uint32_t mask, uint64_t n, uint64_t *state);
double calib_gather_avx512(const double *x, uint32_t mask, uint64_t n, uint64_t *state);
void calib_scatter_c(double *x, uint32_t mask, uint64_t n, uint64_t *state);
void calib_scatter_avx512(double *x, uint32_t mask, uint64_t n, uint64_t *state);

/* A dependent chain of n * 16 integer additions (one cycle each). */
uint64_t calib_add_chain(uint64_t n);

/*
 * reps passes of y[idx[e]] += w[e], e < len: with every idx[e] equal, each
 * update waits for the one before it through memory (store-to-load
 * forwarding and the add), the chain of an edge list sorted by node.
 */
double calib_update(double *y, const uint32_t *idx, const double *w, uint32_t len, uint64_t reps);
/*
 * The instructions of one of calib_update's updates as a skeleton counts
 * them: the loads of idx[e], w[e] and y[...], the store, the add, and the
 * loop's increment and compare. The machine file says it beside chain_runs,
 * whose updates took that many.
 */
#define CALIB_UPDATE_INSTR 7
/*
 * The same under "#pragma omp atomic" (a compare-and-swap loop where OpenMP
 * is not built in): with idx[e] scattered, what the locked read-modify-write
 * adds to an independent update.
 */
double calib_atomic_update(double *y, const uint32_t *idx, const double *w, uint32_t len,
                           uint64_t reps);

/*
 * reps passes of s = s + w[e] (fma false) or s = w[e] * k + s as one fused
 * multiply-add (fma true), e < len: each operation waits for the one before
 * it, the chain of a loop-carried accumulator. Returns s.
 */
double calib_fp_chain(const double *w, uint32_t len, uint64_t reps, bool fma);
/* True when calib_fp_chain(..., true) runs fused multiply-adds on this CPU. */
bool calib_has_fma(void);
/*
 * reps rounds of 8 scalar divisions, independent of one another (8
 * accumulators, a = k / (a + w)): the divider's rate, not its latency.
 */
double calib_fdiv(double w, double k, uint64_t reps);

/*
 * n conditional jumps on bits of a xorshift stream (state, updated): mask 1
 * takes half of them at random, mask 0 none. Returns the jumps not taken.
 */
uint64_t calib_branch(uint64_t mask, uint64_t n, uint64_t *state);

/* n conditional jumps on bits[i & mask] (mask + 1 a power of two): a pattern that repeats. */
uint64_t calib_branch_table(const uint8_t *bits, uint64_t mask, uint64_t n);

#endif
