/* Inline assembly is not analysed; the loop around it is. */
void with_asm(int n, double *y)
{
    for (int i = 0; i < n; i++) {
        __asm__ volatile("" ::: "memory");
        y[i] = 1.0;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: unsup_asm.c:5:9: unsupported: inline assembly is not analysed
// CHECK: for i = 0; i < n; i += 1 @4:5
// CHECK-NEXT: store y[i] @6:9
