#include <setjmp.h>

/* setjmp/longjmp change control flow in ways a skeleton cannot follow. */
static jmp_buf env;

void guarded(int n, const double *x, double *y)
{
    if (setjmp(env))
        return;
    for (int i = 0; i < n; i++)
        y[i] = x[i];
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: unsup_setjmp.c:8:9: unsupported: '_setjmp' is not supported: control flow through it is not followed
// CHECK-NOT: array env
// CHECK: call _setjmp @8:9
// CHECK-NEXT: if opaque("_setjmp") @8:5
// CHECK-NEXT: return @9:9
// CHECK-NEXT: for i = 0; i < n; i += 1 @10:5
