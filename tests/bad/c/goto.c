void f(int n, double *a)
{
    int i = 0;
again:
    a[i] = 0;
    if (++i < n)
        goto again;
}
