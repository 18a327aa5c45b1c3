/* A queue-driven search over a graph whose rows are pairs of offsets
   (start at xoff[2v], end at xoff[2v + 1]), v read from the queue: the
   offsets are csr.rowpairs. The queue starts as NULL and is allocated
   after: no warning for the NULL. */
#include <stdlib.h>

static long nv;
static long *xoff, *xadj;

#define ROW_START(v) (xoff[2 * (v)])
#define ROW_END(v)   (xoff[1 + 2 * (v)])

long search(long *tree, long src)
{
    long *queue = NULL;
    long head = 0, tail = 1;

    queue = malloc(nv * sizeof(*queue));
    for (long k = 0; k < nv; k++)
        tree[k] = -1;
    queue[0] = src;
    tree[src] = src;
    while (head != tail) {
        long end_of_level = tail;

        for (long k = head; k < end_of_level; k++) {
            const long v = queue[k];
            const long stop = ROW_END(v);

            for (long e = ROW_START(v); e < stop; e++) {
                const long w = xadj[e];

                if (tree[w] == -1) {
                    tree[w] = v;
                    queue[tail++] = w;
                }
            }
        }
        head = end_of_level;
    }
    free(queue);
    return tail;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: cannot tell which array 'queue'
// CHECK-LABEL: kernel search @
// CHECK: array xoff i64[] global @8:1 bind csr.rowpairs (inferred)
// CHECK: array xadj i64[] global @8:1 bind csr.col (inferred)
