/* A template kernel that only host code instantiates: libclang shows the
   template alone, so augur instantiates it itself, the type parameters float
   unless --template says otherwise, every other parameter given. */
#include <stdio.h>

template <typename T, int BLOCK>
__global__ void scale_rows(int n, const int *rowptr, const T *val, T *out)
{
    int row = blockIdx.x * BLOCK + threadIdx.x;

    if (row < n) {
        T s = 0;

        for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
            s += val[k];
        out[row] = s;
    }
}

int main(void)
{
    scale_rows<double, 256><<<1, 256>>>(0, 0, 0, 0);
    printf("launched\n");
    return 0;
}

// RUN: not %augur skeleton %s 2>&1 | FileCheck --check-prefix=NOVALUE %s
// RUN: %augur skeleton %s --template BLOCK=256 2>&1 | FileCheck --check-prefix=FLOAT %s
// RUN: %augur skeleton %s --template T=double,BLOCK=256 2>&1 | FileCheck --check-prefix=DOUBLE %s
// RUN: not %augur skeleton %s --template U=double,BLOCK=256 2>&1 | FileCheck --check-prefix=UNKNOWN %s
// NOVALUE: template kernel 'scale_rows': augur reads it uninstantiated; give its parameter 'BLOCK' a value with --template BLOCK=VALUE
// FLOAT: note: template kernel 'scale_rows' analysed with T=float (by default), BLOCK=256
// FLOAT: kernel scale_rows @
// FLOAT: array val f32[] global param
// FLOAT-SAME: bind csr.val (inferred)
// FLOAT: array out f32[] global param
// FLOAT-SAME: bind vec(n) (inferred)
// FLOAT: set row = (i32)(blockIdx.x * 256 + threadIdx.x) @9:5
// DOUBLE: analysed with T=double, BLOCK=256
// DOUBLE: array val f64[] global param
// DOUBLE: array out f64[] global param
// UNKNOWN: --template names 'U', which is no parameter of the template kernel 'scale_rows'

// The instantiation runs: 6 rows of the small graph, their 8 entries (doubles).
// RUN: %augur simulate %s --template T=double,BLOCK=256 --machine %S/../../samples/machines/h100-sxm.yml --data %S/../data/graphs/small.el --launch '(n+255)/256,256' 2>&1 | FileCheck --check-prefix=SIM %s
// SIM: note: template kernel 'scale_rows' analysed with T=double, BLOCK=256
// SIM: 1 run, 26 accesses
// SIM: out vec(n)
// SIM-SAME: 6 8 48
