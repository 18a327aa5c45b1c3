/*
 * gcc_error.c - a kernel the front end (libclang) reads but GCC refuses
 * (tests/t_measure.sh: the compiler's file:line:col error is passed through).
 */
#include <stdint.h>

void copy(uint32_t n, const double *x, double *y)
{
#ifndef __clang__
    this_is_not_declared = 1;
#endif
    for (uint32_t i = 0; i < n; i++)
        y[i] = x[i];
}
