/* A kernel that does not compile: the error is libclang's, named by line. */
void broken(int n, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = 2.0 * y[i]
}

// RUN: not %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: bad_syntax.c:5:26: error: expected ';' after expression
// CHECK-NEXT: augur: error: '
// CHECK-SAME: bad_syntax.c' does not compile (1 error)
// RUN: not %augur skeleton --json %s 2>/dev/null | FileCheck --check-prefix=JSON %s
// JSON: {"error":"'
// JSON-SAME: bad_syntax.c' does not compile (1 error)"}
