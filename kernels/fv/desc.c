/*
 * desc.c - the descriptor of the finite-volume ELLPACK kernel (kernels/fv).
 */
#include "kernel.h"

static const struct augur_kernel_variant variants[] = {
    { "ref", "fv_ell_ref", "kernels/fv/ref.c", AUGUR_KT_SCALAR, "one thread, cell by cell" },
    { "omp_simple", "fv_ell_omp_simple", "kernels/fv/omp.c", AUGUR_KT_OPENMP,
      "Langguth et al. JPDC'15 Fig. 4: parallel for schedule(static) over cells" },
    { "omp_private", "fv_ell_omp_private", "kernels/fv/omp.c", AUGUR_KT_OPENMP,
      "Langguth et al. JPDC'15 Fig. 5: equal chunks, private copies of A and l, all steps in one region" },
    { "avx512", "fv_ell_avx512", "kernels/fv/avx512.c", AUGUR_KT_AVX512,
      "8 cells per vector, x gathered per slot, FMA (rounds differently)" },
    { "cuda_kernel1", "fv_kernel1", "kernels/fv/cuda.cu", AUGUR_KT_CUDA,
      "Langguth et al. JPDC'15 Fig. 2: A and l staged in shared memory, x through __ldg" },
    { "cuda_kernel2", "fv_kernel2", "kernels/fv/cuda.cu", AUGUR_KT_CUDA,
      "Langguth et al. JPDC'15 Fig. 3: A, l and x through __ldg (read-only cache)" },
};

const struct augur_kernel_desc fv_ell_desc = {
    .name = "fv_ell",
    .summary = "cell-centred finite-volume flux sum over ELLPACK (Langguth et al. JPDC'15 eq. 1)",
    .equation = "y(i) = sum_{k<width} A(i,k) * (x(l(i,k)) - x(i))",
    .outer = "cell",
    .inner = "neighbour slot",
    .outer_bytes = 16, /* x[i] 8, y[i] 8 */
    .outer_flops = -1, /* width additions less one: 11 flops per cell at width 4 */
    .inner_bytes = 20, /* a 8, idx 4, x[idx] 8 */
    .inner_flops = 3,  /* subtract, multiply, add */
    .access = "a, idx: unit stride per slot (slot-major); x[i]: unit stride; x[idx]: indirect "
              "read; y[i]: unit-stride write. Width 4: 88 bytes read, 8 written, 11 flops a cell",
    .bindings = "n=n,width=ell.width,idx=ell.idx,a=ell.val,x=vec(n),y=vec(n)",
    .variants = variants,
    .nvariants = (int)(sizeof(variants) / sizeof(variants[0])),
};
