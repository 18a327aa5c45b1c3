/* Bindings inferred from how an index is strided: a dense block of 4
   columns per element (SpMM with 4 right-hand sides), a row-major ELL whose
   width is a parameter, and a tetrahedral mesh's cells (4 vertex ids per
   cell, whose values index vertices, not the cells the loop walks). */
void spmm4(int n, const int *rowptr, const int *col, const double *val, const double *X,
           double *Y)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
                s += val[k] * X[col[k] * 4 + j];
            Y[i * 4 + j] = s;
        }
}

void ell_rows(int n, int per_row, const int *idx, const double *val, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int k = 0; k < per_row; k++)
            s += val[i * per_row + k] * x[idx[i * per_row + k]];
        y[i] = s;
    }
}

void tet_gather(int ncells, const int *cells, const double *u, double *r)
{
    for (int c = 0; c < ncells; c++) {
        double s = 0;
        for (int v = 0; v < 4; v++)
            s += u[cells[4 * c + v]];
        for (int v = 0; v < 4; v++)
            r[cells[4 * c + v]] += 0.25 * s;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-LABEL: kernel spmm4
// CHECK: array X f64[] global param @5:73 bind vec(4*m) (inferred)
// CHECK-NEXT: array Y f64[] global param @6:12 bind vec(4*n) (inferred)
// CHECK-LABEL: kernel ell_rows
// CHECK: param per_row i32 @17:22 bind ell.width (inferred)
// CHECK: array idx i32[] global param @17:35 bind ell.idx.rows (inferred)
// CHECK-NEXT: array val f64[] global param @17:51 bind ell.val.rows (inferred)
// CHECK-LABEL: kernel tet_gather
// CHECK: array cells i32[] global param @27:29 bind mesh.cells (inferred)
// CHECK-NEXT: array u f64[] global param @27:47 bind vec(nv) (inferred)
// CHECK-NEXT: array r f64[] global param @27:64 bind vec(nv) (inferred)
