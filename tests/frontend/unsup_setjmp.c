#include <setjmp.h>

/* setjmp/longjmp change control flow in ways a skeleton cannot follow. */
static jmp_buf env;

void guarded(int n, const double *x, double *y)
{
    if (setjmp(env))
        return;
    for (int i = 0; i < n; i++)
        y[i] = x[i];
}
