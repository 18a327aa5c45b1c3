/* A graph struct passed to inlined helpers by pointer and by value (*g),
   and a row read at an offset from its start (col[rowptr[v] + k], k from
   0 to the row's length): col is the CSR's column array. */
typedef struct {
    int n;
    const int *rowptr;
    const int *col;
} graph_t;

static inline int degree(const graph_t *g, int v) { return g->rowptr[v + 1] - g->rowptr[v]; }
static inline int first(graph_t g, int v) { return g.col[g.rowptr[v]]; }

void degsum(const graph_t *g, const double *x, double *y)
{
    for (int v = 0; v < g->n; v++) {
        double s = 0;

        for (int k = 0; k < degree(g, v); k++)
            s += x[g->col[g->rowptr[v] + k]];
        y[v] = s + (degree(g, v) ? x[first(*g, v)] : 0.0);
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: cannot tell which array
// CHECK: param g->n i32 @5:5 bind n (inferred)
// CHECK: array g->rowptr i32[] global param @6:5 bind csr.rowptr (inferred)
// CHECK-NEXT: array g->col i32[] global param @7:5 bind csr.col (inferred)
// CHECK: load x[g->col[g->rowptr[v] + k]] @19:18 indirect(g->rowptr, g->col)
// CHECK: load g->col[g->rowptr[v]] @11:52 indirect(g->rowptr)
// CHECK: store y[v] @20:9
