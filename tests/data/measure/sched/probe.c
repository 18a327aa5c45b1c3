/*
 * probe.c - a kernel that aborts unless iteration i of its loop runs on
 * thread i % 2 of a team of 2: what schedule(static, 1) deals, and not its
 * own schedule(static). t_measure.sh times it with --schedule static,1 to
 * show the measured copy runs the schedule asked for; its "" include must
 * still be found from the copy, and its directive continues on a second
 * line.
 */
#include "probe.h"

#include <omp.h>
#include <stdlib.h>

void probe(int n, const int *rowptr, double *y)
{
    // clang-format off
#pragma omp parallel for \
    schedule(static)
    // clang-format on
    for (int i = 0; i < n; i++) {
        if (omp_get_num_threads() == PROBE_THREADS && omp_get_thread_num() != i % PROBE_THREADS)
            abort();
        y[i] = rowptr[i + 1] - rowptr[i];
    }
}
