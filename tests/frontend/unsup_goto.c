/* goto into a loop: reported, the rest is analysed in order. */
void jump_in(int n, const int *col, double *y)
{
    int i = 0;
    if (n > 100)
        goto inside;
    for (i = 0; i < n; i++) {
inside:
        y[col[i]] += 1.0;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: unsup_goto.c:6:9: unsupported: goto into a loop is not followed
// CHECK: note unsupported @6:9 "goto into a loop is not followed: the code around it is analysed as if it ran in order"
// CHECK: if n > 100 @5:5
// CHECK-NEXT: for i = 0; i < n; i += 1 @7:5
// CHECK-NEXT: load col[i] @9:11
// CHECK-NEXT: update y[col[i]] @9:9 indirect(col)
