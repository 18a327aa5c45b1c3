void f(int n, double *a)
{
#pragma augur trips(-5)
    for (int i = 0; i < n; i++)
        a[i] = 0;
}
