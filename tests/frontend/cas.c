/* Compare-and-swap builtins: an atomic update of the element whose stored
   value is the new one when the element equals the expected one (else the
   element itself); the success flag (or the old value) is kept in a sym set
   before the store, as is the left side of "&&" when its right side stores. */
void claim(int n, const long *xadj, const int *adj, int *owner, int *hits, int *first)
{
    for (int v = 0; v < n; v++) {
        for (long e = xadj[v]; e < xadj[v + 1]; e++) {
            int w = adj[e];
            int expected = 0;

            if (__sync_bool_compare_and_swap(&owner[w], 0, v + 1))
                hits[v]++;
            if (owner[w] == v + 1 && __atomic_compare_exchange_n(&first[w], &expected, v + 1, 0,
                                                                 __ATOMIC_RELAXED,
                                                                 __ATOMIC_RELAXED))
                hits[w]++;
            int old = __sync_val_compare_and_swap(&first[w], v + 1, v + 1);

            if (old == v + 1)
                hits[w]--;
        }
    }
}

// RUN: %augur skeleton %s | FileCheck %s
// CHECK: set cas.old = owner[w] @12:17
// CHECK-NEXT: set cas.ok = cas.old == 0 @12:17
// CHECK-NEXT: update owner[w] = cas.ok ? v + 1 : cas.old @12:17 atomic
// CHECK: if cas.ok @12:13
// CHECK: set cond = owner[w] == v + 1 @14:17
// CHECK-NEXT: if cond @14:17
// CHECK-NEXT: set cas.old.2 = first[w] @14:38
// CHECK-NEXT: set cas.ok.2 = cas.old.2 == expected @14:38
// CHECK-NEXT: update first[w] = cas.ok.2 ? v + 1 : cas.old.2 @14:38 atomic
// CHECK-NEXT: set expected = cas.old.2 @14:38
// CHECK-NEXT: set cond = cas.ok.2 != 0 @14:38
// CHECK: if cond @14:13
// CHECK: set cas.old.3 = first[w] @18:23
// CHECK-NEXT: set cas.ok.3 = cas.old.3 == v + 1 @18:23
// CHECK-NEXT: update first[w] = cas.ok.3 ? v + 1 : cas.old.3 @18:23 atomic
// CHECK-NEXT: set old = cas.old.3 @18:13
// CHECK: if old == v + 1 @20:13
// small.el: 8 edges, every one of the 6 nodes has an in-edge. The first CAS
// claims each node once (6 of 8 succeed), its claimer then sets first[w]
// (6), and the value form finds first[w] == v + 1 the same 6 times; every
// update is a read and a write event.
// RUN: %augur simulate %s --data %S/../data/graphs/small.el | FileCheck --check-prefix=SIM %s
// SIM: cas.c:12 16
// SIM-NEXT: cas.c:13 12
// SIM-NEXT: cas.c:14 20
// SIM-NEXT: cas.c:17 12
// SIM-NEXT: cas.c:18 16
// SIM-NEXT: cas.c:21 12
