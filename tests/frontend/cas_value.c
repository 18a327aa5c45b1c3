/* The value of __sync_val_compare_and_swap (clang names the builtin by its
   size, __sync_val_compare_and_swap_4) compared in a condition: the
   operator after the call is read, and the old value is kept in a sym set
   before the store. */
void first_touch(int n, int *a, int *h)
{
    for (int i = 0; i < n; i++)
        if (__sync_val_compare_and_swap(&a[i], 0, i + 1) == 0)
            h[i]++;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: set cas.old = a[i] @8:13
// CHECK-NEXT: set cas.ok = cas.old == 0 @8:13
// CHECK-NEXT: update a[i] = cas.ok ? i + 1 : cas.old @8:13 atomic
// CHECK: if cas.old == 0 @8:9
// CHECK-NEXT: update h[i] @9:13
