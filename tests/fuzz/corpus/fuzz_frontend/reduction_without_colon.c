/* An array-section reduction: every thread adds into its own copy of y and
   combines it into the original at the end of the loop, a read and a write of
   each element of the section (docs/interpreter.md). */
void colcount(int n, const long *rowptr, const int *col, double *y)
{
#pragma omp parallel for schedule(static) reduction(+ ê y[0 : n])
    for (int i = 0; i < n; i++)
        for (long j = rowptr[i]; j < rowptr[i + 1]; j++)
            y[col[j]] += 1.0;
}

// RUN: %augur skeleton %s -- -fopenmp | FileCheck %s
// CHECK: array y f64[] global param @4:58 bind vec(m) (inferred)
// CHECK: for i = 0; i < n; i += 1 @7:5 parallel omp(parallel for schedule(static) reduction(+: y[0:n]))
// CHECK: update y[col[j]] @9:13 indirect(col)
// small.el: 6 nodes, 8 edges. The loop updates y 8 times (16 events); each
// thread t?hen reads and writes y[0 .. 5] (12 events).
// RUN: %augur s/* Arithmetic on values no loopimulate %s --data %S/../data/graphs/small.el --threads 1 | Fil eCheiterc