#include <setjmp.h>
static jmp_buf env;
void f(int n, double *a)
{
    if (setjmp(env))
        return;
    for (int i = 0; i < n; i++)
        a[i] = 0;
}
