/* A missing header is an error, even though libclang still returns a TU. */
#include "no_such_header.h"

void uses_header(int n, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = 0.0;
}
