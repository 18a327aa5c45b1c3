void f(int n, double *a)
{
    if (n <= 0)
        return;
    a[n - 1] = 0;
    f(n - 1, a);
}
