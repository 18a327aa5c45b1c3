/*
 * null_write.c - a kernel that writes through a null pointer when its
 * scalar crash is not 0 (tests/t_measure.sh: the crash is reported with its
 * signal).
 */
#include <stddef.h>
#include <stdint.h>

void scale(uint32_t n, const double *x, double *y, int crash)
{
    volatile double *volatile out = NULL;

    for (uint32_t i = 0; i < n; i++)
        y[i] = 2.0 * x[i];
    if (crash)
        out[0] = y[0];
}
