/* An edge loop split into per-thread ranges ie[t]..ie[t+1], each thread
   updating only the nodes it owns: ie is parts(nnz), owner (compared with
   the thread's number) owner(n), en (two ends per edge) edges.pairs, and
   the num_threads scalar the run's threads. */
#include <omp.h>

void flux_owned(int nthreads, const int *restrict ie, const int *restrict en, const int *restrict owner,
                const double *restrict q, double *restrict res)
{
#pragma omp parallel num_threads(nthreads)
    {
        const int t = omp_get_thread_num();
        for (int e = ie[t]; e < ie[t + 1]; e++) {
            const int a = en[2 * e], b = en[2 * e + 1];
            const double f = 0.5 * (q[a] + q[b]);
            if (owner[a] == t)
                res[a] += f;
            if (owner[b] == t)
                res[b] -= f;
        }
    }
}

/* Per-thread ranges of nodes, each walking its row: parts(n). */
void rows_owned(const int *restrict part, const int *restrict rowptr, const int *restrict col,
                const double *restrict x, double *restrict y)
{
#pragma omp parallel
    {
        const int t = omp_get_thread_num();
        for (int i = part[t]; i < part[t + 1]; i++)
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
                y[i] += x[col[k]];
    }
}

// RUN: %augur skeleton %s --function flux_owned 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: param nthreads i32 @7:17 bind nthreads (inferred)
// CHECK: array ie i32[] global param @7:31 bind parts(nnz) (inferred)
// CHECK-NEXT: array en i32[] global param @7:55 bind edges.pairs (inferred)
// CHECK-NEXT: array owner i32[] global param @7:79 bind owner(n) (inferred)
// CHECK-NEXT: array q f64[] global param @8:17 bind vec(n) (inferred)
// CHECK-NEXT: array res f64[] global param @8:43 bind vec(n) (inferred)
// RUN: %augur skeleton %s --function rows_owned 2>&1 | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//' | FileCheck --check-prefix=ROWS %s
// ROWS: array part i32[] global param bind parts(n) (inferred)
// ROWS-NEXT: array rowptr i32[] global param bind csr.rowptr (inferred)
// ROWS-NEXT: array col i32[] global param bind csr.col (inferred)
// ROWS-NEXT: array x f64[] global param bind vec(m) (inferred)
// ROWS-NEXT: array y f64[] global param bind vec(n) (inferred)
// small.el at 2 threads: edges 0-3 and 4-7; each thread updates the ends it
// owns (nodes 0-2 and 3-5): 15 of the 16 ends (edge 4 is 2 -> 3), two
// events each.
// RUN: %augur simulate %s --function flux_owned --data %S/../data/graphs/small.el --threads 2 | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: ie 4
// SIM-NEXT: en 16
// SIM-NEXT: owner 16
// SIM-NEXT: q 16
// SIM-NEXT: res 30
