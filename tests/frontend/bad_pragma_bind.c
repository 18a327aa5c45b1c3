/* A binding pragma that names no parameter is an error at its line. */
#pragma augur bind(nosuch = csr.col)
void scale(int n, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] *= 2.0;
}

// RUN: not %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: bad_pragma_bind.c:2:1: cannot bind 'nosuch': no array or scalar parameter of that name in kernel scale
