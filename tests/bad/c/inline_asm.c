void f(int n, double *a)
{
    for (int i = 0; i < n; i++)
        __asm__ volatile("" ::: "memory");
    a[0] = 0;
}
