/*
 * desc.c - the descriptor of CSR SpMV (kernels/spmv).
 */
#include "kernel.h"

static const struct augur_kernel_variant variants[] = {
    { "ref", "spmv_csr_ref", "kernels/spmv/ref.c", AUGUR_KT_SCALAR, "one thread, row by row" },
    { "omp_static", "spmv_csr_omp_static", "kernels/spmv/omp.c", AUGUR_KT_OPENMP,
      "parallel for schedule(static) over rows" },
    { "omp_dynamic", "spmv_csr_omp_dynamic", "kernels/spmv/omp.c", AUGUR_KT_OPENMP,
      "parallel for schedule(dynamic, 64) over rows" },
    { "avx512", "spmv_csr_avx512", "kernels/spmv/avx512.c", AUGUR_KT_AVX512,
      "8 entries per gather, masked tail, static rows; sums in another order" },
    { "cuda", "spmv_csr_scalar_kernel", "kernels/spmv/cuda.cu", AUGUR_KT_CUDA,
      "one thread per row (CSR scalar)" },
};

const struct augur_kernel_desc spmv_csr_desc = {
    .name = "spmv_csr",
    .summary = "sparse matrix-vector product in CSR",
    .equation = "y(i) = sum_{j=rowptr(i)}^{rowptr(i+1)-1} val(j) * x(col(j))",
    .outer = "row",
    .inner = "stored entry",
    .outer_bytes = 16, /* rowptr[i+1] 8, y[i] 8 */
    .outer_flops = 0,
    .inner_bytes = 20, /* val[j] 8, col[j] 4, x[col[j]] 8 */
    .inner_flops = 2,  /* one multiply, one add */
    .access = "rowptr, col, val: unit stride; x[col[j]]: indirect read; y[i]: unit-stride write",
    .bindings = "nrows=n,rowptr=csr.rowptr,col=csr.col,val=csr.val,x=vec(m),y=vec(n)",
    .variants = variants,
    .nvariants = (int)(sizeof(variants) / sizeof(variants[0])),
};
