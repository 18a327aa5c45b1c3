/* Linked-list walk and a search with a while loop: the conditions depend on
   loaded values, so the loop bound is data. */
int list_length(const int *next, int head)
{
    int len = 0;
    int node = head;
    while (node != -1) {
        node = next[node];
        len++;
    }
    return len;
}

void first_larger(int n, const int *rowptr, const double *val, double limit, int *pos)
{
    for (int i = 0; i < n; i++) {
        int k = rowptr[i];
        while (k < rowptr[i + 1] && val[k] <= limit)
            k++;
        pos[i] = k;
    }
}

// RUN: %augur skeleton --bind head=0,limit=0.5 %s | FileCheck %s
// CHECK: kernel list_length @
// CHECK: param head i32 @3:34 bind =0 (cli)
// CHECK: set node = head @6:5
// CHECK-NEXT: while node != -1 @7:5
// CHECK-NEXT: load next[node] @8:16 indirect(next)
// CHECK-NEXT: set node = next[node] @8:9
// CHECK: return @11:5
// CHECK: kernel first_larger @
// CHECK: array rowptr i32[] global param @14:26 bind csr.rowptr (inferred)
// CHECK-NEXT: array val f64[] global param @14:45 bind csr.val (inferred)
// CHECK: set k = rowptr[i] @17:9
// CHECK-NEXT: while k < rowptr[i + 1] && val[k] <= limit @18:9
// CHECK-NEXT: load rowptr[i + 1] @18:20
// CHECK-NEXT: if k < rowptr[i + 1] @18:16
// CHECK-NEXT: load val[k] @18:37
// CHECK-NEXT: set k = k + 1 @19:13
// CHECK: store pos[i] @20:9
// RUN: not %augur skeleton --require-bind %s 2>&1 | FileCheck --check-prefix=UNBOUND %s
// UNBOUND: while_loop.c:3:34: error: scalar 'head' of kernel list_length is not bound
// UNBOUND: augur: error: unbound arrays or scalars in
