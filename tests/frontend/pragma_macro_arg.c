/* OpenMP directives given to a macro as its argument, as portable graph
   codes write them: the directive's string (OMP("omp ...")), or its words
   stringized by the macro (PAR_FOR(clauses) through PRAGMA(x) _Pragma(#x)). */
#include <stdint.h>
#define OMP(x)           _Pragma(x)
#define PRAGMA(x)        _Pragma(#x)
#define PAR_FOR(clauses) PRAGMA(omp parallel for clauses)

int64_t degree_sum(int64_t nv, const int64_t *restrict xoff, int64_t *restrict deg)
{
    int64_t sum = 0;

    OMP("omp parallel for schedule(dynamic, 64) reduction(+ : sum)")
    for (int64_t v = 0; v < nv; v++) {
        deg[v] = xoff[v + 1] - xoff[v];
        sum += deg[v];
    }
    PAR_FOR(schedule(static, 256))
    for (int64_t v = 0; v < nv; v++)
        deg[v] = deg[v] * 2;
    return sum;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: for v = (i64)0; v < nv; v += 1_i64 @14:5 parallel omp(parallel for schedule(dynamic, 64) reduction(+: sum))
// CHECK: for v.2 = (i64)0; v.2 < nv; v.2 += 1_i64 @19:5 parallel omp(parallel for schedule(static, 256))
