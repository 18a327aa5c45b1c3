/*
 * kernel.h - the cell-centred finite-volume kernel of Langguth et al. JPDC'15 eq. (1),
 * y(i) = sum_j A(i,j) (x(l(i,j)) - x(i)), over an ELLPACK matrix:
 * descriptor and prototypes (kernels/fv).
 */
#ifndef AUGUR_KERNEL_FV_H
#define AUGUR_KERNEL_FV_H

#include <stdint.h>

#include "../kernel_desc.h"

extern const struct augur_kernel_desc fv_ell_desc;

/*
 * The ELLPACK layout is augur's (struct augur_ell): width slots per cell,
 * slot-major, so slot k of cell i is idx[k * n + i] and a[k * n + i]; a
 * padding slot points at its own cell with a = 0. Seed 001 stores the four
 * slots of a cell together (A[4i + k]); both layouts read A and l at unit
 * stride. One call is one time step: y = F(x).
 */
void fv_ell_ref(uint32_t n, uint32_t width, const uint32_t *idx, const double *a, const double *x,
                double *y);
/* Fig. 4: parallel for schedule(static) over cells. */
void fv_ell_omp_simple(uint32_t n, uint32_t width, const uint32_t *idx, const double *a,
                       const double *x, double *y);
/* Eight cells per AVX-512 vector, x gathered per slot; idx below 2^31. */
void fv_ell_avx512(uint32_t n, uint32_t width, const uint32_t *idx, const double *a,
                   const double *x, double *y);

/*
 * Time stepping: nsteps steps, x and y swapped after each (Figs. 4-5), so
 * the last step's result is in the array returned: y when nsteps is odd, x
 * when it is even. fv_ell_steps_ref calls fv_ell_ref. fv_ell_omp_private is
 * Fig. 5: one parallel region; each thread takes an equal chunk of cells,
 * copies its chunk's A and l into private arrays once, then runs every step
 * on them, with a barrier between steps. It returns NULL when a thread
 * cannot allocate its private arrays (x and y are then unchanged).
 */
double *fv_ell_steps_ref(uint32_t n, uint32_t width, const uint32_t *idx, const double *a,
                         double *x, double *y, int nsteps);
double *fv_ell_omp_private(uint32_t n, uint32_t width, const uint32_t *idx, const double *a,
                           double *x, double *y, int nsteps);

/*
 * CUDA (cuda.cu, built only when nvcc is found): Kernel 1 (Fig. 2: a block
 * stages its cells' A and l in shared memory, x read through __ldg) or
 * Kernel 2 (Fig. 3: A, l and x all read through __ldg), one thread per cell,
 * block size threads (a multiple of 32, at most 1024). Runs reps steps of
 * y = F(x) (no swap) and copies y back. Returns 0, or -1 when no GPU is
 * usable; *seconds gets the fastest step (CUDA events).
 */
int fv_ell_cuda_run(int which, uint32_t n, uint32_t width, const uint32_t *idx, const double *a,
                    const double *x, double *y, int threads, int reps, double *seconds);

#endif
