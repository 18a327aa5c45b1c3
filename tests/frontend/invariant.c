/* Arithmetic on values no loop iteration changes (round - 1, a parameter's)
   is hoisted out of the loops by compilers: its operations are not counted
   per iteration. round + step, with step assigned in the loop, is. */
void sweep(int n, const int *level, int round, int *out)
{
    int step = 0;

    for (int i = 0; i < n; i++) {
        if (level[i] != round - 1)
            continue;
        out[i] = round + step;
        step = step + 2;
    }
}

// RUN: %augur skeleton %s | FileCheck %s
// CHECK: kernel sweep @
// CHECK: ops cmp.i32=1 @9:13
// CHECK: store out[i] @11:9
// CHECK: ops iadd.i32=3 cmp.i32=1 @11:18
