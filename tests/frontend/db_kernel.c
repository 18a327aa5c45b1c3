/* Flags from compile_commands.json: WIDTH comes from -DWIDTH=8 and the
   header from -Iinc (relative to the entry's directory); -fopenmp in the
   database defines _OPENMP, which selects the OpenMP path below. */
#include "db_width.h"

void ell_spmv(int n, const int *idx, const double *val, const double *x, double *y)
{
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int k = 0; k < ELL_STRIDE; k++)
            s += val[i * ELL_STRIDE + k] * x[idx[i * ELL_STRIDE + k]];
        y[i] = s;
    }
}

// RUN: mkdir -p %t && echo '[{"directory": "'%S'", "command": "cc -fopenmp -DWIDTH=8 -Iinc -c db_kernel.c -o db_kernel.o", "file": "db_kernel.c"}]' > %t/compile_commands.json
// RUN: %augur skeleton -p %t %s | FileCheck %s
// CHECK: for i = 0; i < n; i += 1 @11:5 parallel omp(parallel for schedule(static))
// CHECK-NEXT: for k = 0; k < 8; k += 1 @13:9
// CHECK-NEXT: load val[i * 8 + k] @14:18
// CHECK: load x[idx[i * 8 + k]] @14:44 indirect(idx)
// RUN: not %augur skeleton %s 2>&1 | FileCheck --check-prefix=NODB %s
// NODB: db_kernel.c:4:10: error: 'db_width.h' file not found
// RUN: not %augur skeleton -p %S/nonexistent %s 2>&1 | FileCheck --check-prefix=BADDB %s
// BADDB: cannot load compile_commands.json from
