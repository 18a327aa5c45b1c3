/* x++ used as a value: the set node runs first, so the store must index with
   the old value (tail - 1), and ++x with the new one. */
void push_all(int n, const int *src, int *queue, int *stack)
{
    int tail = 0, top = 0;
    for (int i = 0; i < n; i++) {
        queue[tail++] = src[i];
        stack[++top] = src[i];
    }
}

// RUN: %augur skeleton %s | FileCheck %s
// CHECK: kernel push_all @
// CHECK: set tail = tail + 1 @7:15
// CHECK: store queue[tail - 1] @7:9
// CHECK: set top = top + 1 @8:15
// CHECK: store stack[top] @8:9
