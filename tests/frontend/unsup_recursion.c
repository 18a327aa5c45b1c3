/* Recursion cannot be inlined: the recursive call stays opaque. */
static int depth(const int *parent, int v)
{
    if (parent[v] < 0)
        return 0;
    return 1 + depth(parent, parent[v]);
}

void depths(int n, const int *parent, int *out)
{
    for (int v = 0; v < n; v++)
        out[v] = depth(parent, v);
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: unsup_recursion.c:12:18: unsupported: recursive function 'depth' is not followed: the call is opaque
// CHECK: for v = 0; v < n; v += 1 @11:5
// CHECK-NEXT: call depth @12:18
// CHECK-NEXT: store out[v] @12:9
