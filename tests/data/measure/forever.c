/*
 * forever.c - a kernel that never returns (tests/t_measure.sh: it is killed
 * at --timeout).
 */
#include <stdint.h>

void spin(uint32_t n, double *y)
{
    for (uint64_t i = 0;; i++)
        y[i % n] += 1.0;
}
