/* A benchmark program whose kernel is a loop in main(), among argument
   checks, the input routine, timing and output. With no other candidate in
   the file, main() is the kernel: what the input routine fills through
   addresses is the skeleton's input (arrays to bind, sizes as parameters),
   argv is no array, and the I/O and timing calls are left out. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

extern int load_graph(const char *file, long *nv, long *ne, long **offsets, int **targets);

static double wall_seconds(void)
{
    struct timeval tv;

    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + 1e-6 * (double)tv.tv_usec;
}

int main(int argc, char **argv)
{
    long nv, ne, *offsets;
    int *targets, *indeg;
    double t0, t1;

    if (argc < 2 || load_graph(argv[1], &nv, &ne, &offsets, &targets) != 0) {
        fprintf(stderr, "usage: %s GRAPH\n", argv[0]);
        return EXIT_FAILURE;
    }
    indeg = calloc((size_t)nv, sizeof(int));
    t0 = wall_seconds();
    for (long v = 0; v < nv; v++)
        for (long e = offsets[v]; e < offsets[v + 1]; e++)
            indeg[targets[e]]++;
    t1 = wall_seconds();
    printf("%ld nodes, %ld edges: %.6f s\n", nv, ne, t1 - t0);
    free(indeg);
    return 0;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: struct variable
// CHECK-LABEL: kernel main @{{.*}}main_kernel.c":20:1
// CHECK: note guard @26:5 "validity guard taken as valid: argc < 2 || load_graph(argv[1], &nv, &ne, &offsets, &targets) != 0"
// CHECK-NEXT: note warning @16:5 "I/O and timing calls are left out ('gettimeofday', ...)"
// CHECK-NEXT: param nv i64 @22:5 bind n (inferred)
// CHECK-NOT: argc
// CHECK-NOT: argv
// CHECK: array indeg i32[(i64)(u64)nv] local @23:5
// CHECK-NEXT: array offsets i64[] global @22:5 bind csr.rowptr (inferred)
// CHECK-NEXT: array targets i32[] global @23:5 bind csr.col (inferred)
// CHECK: for v = (i64)0; v < nv; v += 1_i64 @32:5
// CHECK: update indeg[targets[e]] @34:13 indirect(targets)
// CHECK-NOT: call printf
// CHECK-NOT: call gettimeofday

// It runs on a dataset without --bind: offsets and targets are the graph's.
// RUN: %augur simulate %s --data %S/../data/graphs/small.el | FileCheck --check-prefix=SIM %s
// SIM: main_kernel.c:33 12
// SIM-NEXT: main_kernel.c:34 24
