/* A missing header is an error, even though libclang still returns a TU. */
#include "no_such_header.h"

void uses_header(int n, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = 0.0;
}

// RUN: not %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: bad_include.c:2:10: error: 'no_such_header.h' file not found
// CHECK: does not compile (1 error)
