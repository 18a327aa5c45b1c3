void f(int n, double *a)
{
    double t[n];
    for (int i = 0; i < n; i++)
        t[i] = a[i];
    for (int i = 0; i < n; i++)
        a[i] = t[n - 1 - i];
}
