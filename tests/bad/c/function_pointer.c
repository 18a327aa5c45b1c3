void f(int n, double *a, double (*g)(double))
{
    for (int i = 0; i < n; i++)
        a[i] = g(a[i]);
}
