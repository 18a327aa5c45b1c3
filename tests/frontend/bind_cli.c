/* Bindings given by hand: struct members with a dot (A.p binds A->p, which
   a shell would read as a redirection), scalars as expressions of the
   dataset, the new targets in a pragma, and the targets that fit named
   when a binding is missing. */
struct sp {
    int n;
    int *p;
    int *i;
    double *x;
};

void gaxpy(const struct sp *A, const double *x, double *y)
{
    for (int j = 0; j < A->n; j++)
        for (int k = A->p[j]; k < A->p[j + 1]; k++)
            y[A->i[k]] += A->x[k] * x[j];
}

void slabs(int nslabs, int lastrow, const double *x, double *y)
{
    for (int s = 0; s < nslabs; s++)
        for (int r = 0; r < 8; r++)
            y[8 * s + r] = x[8 * s + r];
    y[lastrow] = 0.0;
}

#pragma augur bind(ie = parts(nnz), nt = nthreads, x = vec1(n))
void ranges(int nt, const int *ie, double *x)
{
#pragma omp parallel num_threads(nt)
    for (int e = ie[0]; e < ie[1]; e++)
        x[1] += 1.0;
}

void jds(int ndiag, const int *jd_ptr, const int *col, const double *val, const double *x,
         double *y)
{
    for (int d = 0; d < ndiag; d++)
        for (int r = jd_ptr[d]; r < jd_ptr[d + 1]; r++)
            y[r - jd_ptr[d]] += val[r] * x[col[r]];
}

// RUN: %augur skeleton %s --function gaxpy --bind 'A.p=csc.colptr,A.i=csc.row,A.x=csc.val,A.n=m' 2>&1 | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//' | FileCheck --check-prefix=MEMBER %s
// MEMBER: param A->n i32 bind m (cli)
// MEMBER-NEXT: array x f64[] global param bind vec(m) (inferred)
// MEMBER-NEXT: array y f64[] global param bind vec(n) (inferred)
// MEMBER-NEXT: array A->p i32[] global param bind csc.colptr (cli)
// MEMBER-NEXT: array A->i i32[] global param bind csc.row (cli)
// MEMBER-NEXT: array A->x f64[] global param bind csc.val (cli)
// RUN: %augur skeleton %s --function slabs --bind 'nslabs = (n + 7) / 8, lastrow=n-1, y=vec(8*((n+7)/8))' 2>&1 | FileCheck --check-prefix=EXPR %s
// EXPR: param nslabs i32 @19:12 bind (n+7)/8 (cli)
// EXPR-NEXT: param lastrow i32 @19:24 bind n-1 (cli)
// EXPR: array y f64[] global param @19:54 bind vec(8*((n+7)/8)) (cli)
// small.el has 6 nodes: one slab of 8, y[5] cleared.
// RUN: %augur simulate %s --function slabs --bind 'nslabs=(n+7)/8,lastrow=n-1,x=vec(8*((n+7)/8)),y=vec(8*((n+7)/8))' --data %S/../data/graphs/small.el | FileCheck --check-prefix=EXPRSIM %s
// EXPRSIM: per array:
// EXPRSIM: x 8
// EXPRSIM-NEXT: y 9
// RUN: not %augur skeleton %s --function slabs --bind 'nslabs=(q+7)/8' 2>&1 | FileCheck --check-prefix=BADNAME %s
// BADNAME: unknown name 'q' in '(q+7)/8'
// BADNAME-SAME: n, m, nnz, nv, ell.width, nthreads, round, jds.ndiag, sellC.nchunks
// RUN: %augur skeleton %s --function ranges 2>&1 | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//' | FileCheck --check-prefix=PRAGMA %s
// PRAGMA: param nt i32 bind nthreads (pragma)
// PRAGMA-NEXT: array ie i32[] global param bind parts(nnz) (pragma)
// PRAGMA-NEXT: array x f64[] global param bind vec1(n) (pragma)
// RUN: %augur skeleton --no-infer %s --function jds 2>&1 | FileCheck --check-prefix=HINT %s
// HINT: array 'jd_ptr' of kernel jds is not bound to the dataset: bind it with --bind jd_ptr=TARGET (an offsets array: csr.rowptr, csc.colptr, csr.rowpairs, jds.ptr, sell8.cs, parts(nnz), or csr1.rowptr counted from 1) or #pragma augur bind(jd_ptr=TARGET)
// HINT: array 'col' of kernel jds is not bound to the dataset: bind it with --bind col=TARGET (an index array: csr.col, csc.row, coo.row, coo.col, edges.pairs, ell.idx, jds.col, jds.perm, sell8.col, iota(n), ...)
// HINT: array 'val' of kernel jds is not bound to the dataset: bind it with --bind val=TARGET (csr.val, coo.val, jds.val, sell8.val, vec(n), vec(m), vec(nnz), ...)
// HINT: scalar 'ndiag' of kernel jds is not bound: bind it with --bind ndiag=TARGET (n, m, nnz, an expression such as n-1, or a number)
// RUN: %augur skeleton --no-infer %s --function gaxpy 2>&1 | FileCheck --check-prefix=HINTMEMBER %s
// HINTMEMBER: array 'A->p' of kernel gaxpy is not bound to the dataset: bind it with --bind A.p=TARGET
