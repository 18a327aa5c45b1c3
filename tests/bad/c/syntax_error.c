void f(int n, double *a)
{
    for (int i = 0; i < n; i++)
        a[i] = 1.0
}
